import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../src/server/app';
import { createSession } from '../src/server/auth/session';
import { loadConfig } from '../src/server/config';
import { openDatabase, type Db, type DatabaseHandle } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { PRODUCT_IMPORT_PATH, PRODUCT_IMPORT_PREVIEW_PATH } from '../src/shared/schemas/admin-products-import';
import { table } from './table';

// npm run bench -- --scale: p99 of the pages that grow with the store (the shop listing,
// a product, the admin products and orders lists, the dashboard, analytics) with 100 products and
// 100 orders, then again after generating 10,000 products and 100,000 orders. Target: full size
// within 2x of 100 rows for each; analytics under 200 ms at full size. The data is generated in
// SQL, not the demo store; the storefront reads go through the catalog cache as they do in
// production. The storefront search is asked a different query on every request (typos and a
// number), so each one misses the cache and searches the database: its goal is a p99 under 50 ms
// at full size. Then a product CSV import of 5,000 rows (1,000 new products in 5 sizes) into the
// full store: its preview, the import itself, and the same file again (every product unchanged).

const SMALL = { products: 100, orders: 100 };
const FULL = { products: 10_000, orders: 100_000 };
const CUSTOMERS = 1_000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const trpcPath = (procedure: string, input?: unknown) =>
  `/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;

/** Misspelt words of the generated products' names, searched one after another. */
const SEARCH_TYPOS = ['motorcyle', 'vintge', 'christain', 'garag', 'sunst'];

const ENDPOINTS: { name: string; path: string; admin: boolean; vary?: (n: number) => string }[] = [
  { name: 'shop listing (newest)', path: trpcPath('catalog.products', { sort: 'newest' }), admin: false },
  { name: 'product page', path: trpcPath('catalog.productBySlug', { slug: 'scale-tee-50' }), admin: false },
  { name: 'admin products list', path: trpcPath('admin.products.list', { page: 1 }), admin: true },
  { name: 'admin orders list', path: trpcPath('admin.orders.list', { page: 1 }), admin: true },
  { name: 'admin dashboard', path: trpcPath('admin.dashboard.overview'), admin: true },
  { name: 'analytics, last 30 days', path: trpcPath('admin.analytics.overview', { range: '30d' }), admin: true },
  { name: 'analytics, this year', path: trpcPath('admin.analytics.overview', { range: 'year' }), admin: true },
  {
    name: 'storefront search (uncached)',
    path: trpcPath('catalog.search', { q: 'motorcyle' }),
    admin: false,
    vary: (n) => trpcPath('catalog.search', { q: `${SEARCH_TYPOS[n % SEARCH_TYPOS.length]} ${n}` }),
  },
];
/** Analytics answers in under this at full size, whatever its time at 100 orders. */
const ANALYTICS_TARGET_MS = 200;

const IMPORT_ROWS = 5_000;
const IMPORT_SIZES = ['S', 'M', 'L', 'XL', '2XL'];

/** A file in the export's columns: IMPORT_ROWS rows, each product on IMPORT_SIZES.length of them. */
function importFile(): string {
  const lines = [
    'Handle,Title,Body (HTML),Tags,Status,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant Price,Category,Front Art',
  ];
  for (let product = 1; lines.length <= IMPORT_ROWS; product += 1) {
    IMPORT_SIZES.forEach((size, i) => {
      const own = i === 0 ? [`Imported Tee ${product}`, 'A tee from a bench import', 'bench', 'active'] : ['', '', '', ''];
      lines.push(
        [
          `imported-tee-${product}`,
          ...own,
          'Size',
          size,
          'Colour',
          'Black',
          '22.00',
          i === 0 ? 'scale-1' : '',
          i === 0 ? '/storage/product-art/none.png' : '',
        ].join(','),
      );
    });
  }
  return lines.join('\n');
}

/** Milliseconds of one preview, one import and one import of the same file again, as the admin's screen sends them. */
export async function measureImport(baseUrl: string, cookie: string) {
  const body = importFile();
  const post = async (path: string) => {
    const start = performance.now();
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { cookie, origin: baseUrl, 'content-type': 'text/csv' },
      body,
    });
    const last = JSON.parse((await res.text()).trim().split('\n').at(-1)!) as {
      counts?: Record<string, number>;
      summary?: { created: number; updated: number; unchanged: number; errors: unknown[] };
      errors?: unknown[];
    };
    const errors = last.summary?.errors ?? last.errors ?? [];
    if (!res.ok || errors.length > 0) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(errors.slice(0, 3))}`);
    const { created, updated, unchanged } = last.summary ?? { created: 0, updated: 0, unchanged: 0 };
    return { ms: Math.round(performance.now() - start), answer: `${created} created, ${updated} updated, ${unchanged} unchanged` };
  };
  const preview = await post(PRODUCT_IMPORT_PREVIEW_PATH);
  const first = await post(PRODUCT_IMPORT_PATH);
  const again = await post(PRODUCT_IMPORT_PATH);
  return { preview, first, again };
}

/** Customers, categories and an admin; returns the admin's session cookie. */
async function baseData(db: Db): Promise<string> {
  await sql`
    insert into categories (slug, name, description, image_url, sort_order)
    select 'scale-' || i, 'Scale ' || i, 'Generated', '', i from generate_series(1, 10) as i`.execute(db);
  await sql`
    insert into users (email, password_hash, email_confirmed_at)
    select 'scale' || i || '@example.com', 'not-a-hash', now() from generate_series(1, ${CUSTOMERS}::int) as i`.execute(db);
  await sql`insert into customers (id, email) select id, email from users`.execute(db);
  const admin = await db
    .insertInto('users')
    .values({ email: 'scale-admin@example.com', password_hash: 'not-a-hash', email_confirmed_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('customers').values({ id: admin.id, email: 'scale-admin@example.com', is_admin: true }).execute();
  return `session=${(await createSession(db, admin.id, 1)).token}`;
}

/** Products and orders (one line each) numbered from..to, spread over the customers and the last 2 years. */
async function grow(db: Db, products: [number, number], orders: [number, number]): Promise<void> {
  await sql`
    insert into products (sku_number, slug, name, description, price, category_id, front_art_url, created_at)
    select 'SCALE-' || i, 'scale-tee-' || i,
      'Scale ' || (array['Motorcycle', 'Vintage', 'Christian', 'Garage', 'Sunset'])[1 + i % 5] || ' Tee ' || i,
      'A generated tee for the scale benchmark', 20 + i % 10,
      (select id from categories order by sort_order offset i % 10 limit 1), '/storage/product-art/none.png',
      now() - make_interval(mins => i)
    from generate_series(${products[0]}::int, ${products[1]}::int) as i`.execute(db);
  await sql`
    insert into orders (customer_id, status, payment_status, subtotal, total, shipping_address, created_at)
    select c.id, (array['pending', 'processing', 'shipped', 'delivered'])[1 + i % 4]::text,
      case when i % 3 = 0 then 'pending' else 'paid' end, 25, 25,
      '{"name":"Scale Buyer","phone":"","street":"1 Main St","city":"Austin","state":"TX","zip":"78701","country":"USA"}'::jsonb,
      now() - make_interval(mins => i)
    from generate_series(${orders[0]}::int, ${orders[1]}::int) as i
    join (select id, row_number() over (order by id) - 1 as n from customers where not is_admin) c on c.n = i % ${CUSTOMERS}::int`.execute(
    db,
  );
  await sql`
    insert into order_items (order_id, product_id, product_name, size, quantity, unit_price, total_price)
    select o.id, (select id from products where sku_number = 'SCALE-' || 1 + abs(hashtext(o.id::text)) % ${products[1]}::int),
      'Scale Tee', 'M', 1, 25, 25 from orders o
    where not exists (select 1 from order_items oi where oi.order_id = o.id)`.execute(db);
  await sql`analyze`.execute(db);
}

async function p99(baseUrl: string, endpoint: (typeof ENDPOINTS)[number], cookie: string): Promise<{ p99: number; errors: number }> {
  const headers: Record<string, string> = endpoint.admin ? { cookie } : {};
  let sent = 0;
  const vary = endpoint.vary;
  const options = {
    url: `${baseUrl}${endpoint.path}`,
    connections: CONNECTIONS,
    workers: 1,
    headers,
    ...(vary ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: vary(sent++) }) }] } : {}),
  };
  const first = await fetch(options.url, { headers: options.headers });
  if (!first.ok) throw new Error(`${endpoint.name} answered ${first.status}: ${(await first.text()).slice(0, 300)}`);
  await autocannon({ ...options, duration: 1 }); // warm-up: JIT, plans, cache
  const result = await autocannon({ ...options, duration: SECONDS });
  return { p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function measure(baseUrl: string, cookie: string) {
  const results = [];
  for (const endpoint of ENDPOINTS) results.push(await p99(baseUrl, endpoint, cookie));
  return results;
}

export async function runScaleBenchmark(databaseUrl: string | undefined): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-scale-'));
  let database: DatabaseHandle | undefined;
  let app: FastifyInstance | undefined;
  try {
    database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir });
    await migrateToLatest(database.db);
    // No load shedding: generating the rows in the embedded database holds the event loop, and the
    // shedder would answer the first requests after it with 503 instead of being measured.
    const config = loadConfig({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PORT: '0',
      LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    });
    app = await buildApp(config, { database, logger: false });
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    const kind = databaseUrl ? 'PostgreSQL' : 'PGlite';

    const cookie = await baseData(database.db);
    await grow(database.db, [1, SMALL.products], [1, SMALL.orders]);
    console.log(`Scale benchmark on ${kind}: ${CONNECTIONS} connections, ${SECONDS} s per page and size.`);
    const small = await measure(baseUrl, cookie);

    const growStart = performance.now();
    await grow(database.db, [SMALL.products + 1, FULL.products], [SMALL.orders + 1, FULL.orders]);
    console.log(
      `Generated ${FULL.products} products and ${FULL.orders} orders in ${((performance.now() - growStart) / 1000).toFixed(1)} s.\n`,
    );
    const full = await measure(baseUrl, cookie);

    const rows = ENDPOINTS.map((endpoint, i) => {
      const ratio = full[i]!.p99 / Math.max(1, small[i]!.p99);
      return [
        endpoint.name,
        String(small[i]!.p99),
        String(full[i]!.p99),
        endpoint.name.startsWith('analytics')
          ? `${ratio.toFixed(1)}x${full[i]!.p99 < ANALYTICS_TARGET_MS ? '' : `  (over ${ANALYTICS_TARGET_MS} ms)`}`
          : `${ratio.toFixed(1)}x${ratio <= 2 ? '' : '  (over 2x)'}`,
        String(small[i]!.errors + full[i]!.errors),
      ];
    });
    const header = [
      'p99 ms',
      `${SMALL.products} products / ${SMALL.orders} orders`,
      `${FULL.products} / ${FULL.orders}`,
      'full / small',
      'errors',
    ];
    console.log(table([header, ...rows]));

    const imported = await measureImport(baseUrl, cookie);
    console.log(
      `\nProduct CSV import of ${IMPORT_ROWS.toLocaleString('en-US')} rows into the full store: preview ${imported.preview.ms} ms, ` +
        `import ${imported.first.ms} ms (${imported.first.answer}), the same file again ${imported.again.ms} ms (${imported.again.answer}).`,
    );
  } finally {
    await app?.close();
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
