import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { build } from 'vite';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase, type DatabaseHandle } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { seedIfEmpty } from '../src/server/seed/seed';
import { createStorage } from '../src/server/storage/create';
import { buildIsCurrent } from '../scripts/build-freshness.js';
import { runScaleBenchmark } from './scale';
import { COLOUR_MOCKUP_BUDGET_MS, measureColourMockups } from './colour-mockups';
import { initialScriptBreakdown } from './script-breakdown';
import { measureStartup } from './startup';
import { table } from './table';

// npm run bench: the storefront through the whole stack (Fastify + tRPC + Kysely + embedded
// PostgreSQL, demo data, the built client) as shoppers load it, in one run on one built store:
// - req/s and p99 of the home page, a product page (both kept, docs/adr/0026), the shop's product
//   list over tRPC, a static asset and a bare Fastify route sending the list's bytes, at 10 and
//   100 connections (BENCH_CONNECTIONS), with the Accept-Encoding a browser sends;
// - how long the first render of a page takes after a catalog change (the kept pages and the
//   data they were made of all gone);
// - a soak of BENCH_SOAK_SECONDS (60) at 200 connections over pages and the API while the catalog
//   changes every few seconds: how many requests took over 10 s, and how many were refused (503);
// - the size of the JavaScript a shopper downloads first (beside that of bench/stack-floor, the
//   smallest page the client stack of React, TanStack Router and Query can hydrate) and what it is
//   made of, by npm package and by our own folder, and
//   (embedded database) how long npm start takes to its first response on existing data;
// - one colour and side of a mockup rendered at display size, for each palette colour (budget 300 ms).
// BENCH_SECONDS sets each run's length; BENCH_DATABASE_URL (a PostgreSQL server) runs the stack on
// a throw-away database there instead. `npm run bench -- --scale` runs bench/scale.ts instead, and
// `npm run bench -- --scripts` only the breakdown of the initial JavaScript by package and folder.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(root, 'dist');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTION_COUNTS = (process.env.BENCH_CONNECTIONS ?? '10,100').split(',').map(Number);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const SOAK_CONNECTIONS = 200;
/** During the soak, the catalog changes this often: every kept page is rendered again under load. */
const SOAK_CHANGE_EVERY_MS = 5_000;
/** A request slower than this failed its shopper; autocannon counts it as a timeout. */
const TIMEOUT_SECONDS = 10;
/** Catalog changes whose first render is timed, per page. */
const FIRST_RENDERS = 5;
const PRODUCTS_PATH = `/trpc/catalog.products?input=${encodeURIComponent(JSON.stringify({ sort: 'newest' }))}`;
/** What a browser sends: every answer is measured as shoppers get it, compressed. */
const BROWSER_HEADERS = { 'accept-encoding': 'br, gzip' };

interface LoadResult {
  rps: number;
  p99: number;
  max: number;
  requests: number;
  errors: number;
  timeouts: number;
  refused: number;
}

async function load(url: string, connections: number, duration: number, paths?: string[]): Promise<LoadResult> {
  // A worker thread, so the load generator does not share the servers' event loop.
  const result = await autocannon({
    url,
    connections,
    duration,
    workers: 1,
    timeout: TIMEOUT_SECONDS,
    headers: BROWSER_HEADERS,
    ...(paths ? { requests: paths.map((address) => ({ method: 'GET' as const, path: address })) } : {}),
  });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    errors: result.errors + result.non2xx,
    timeouts: result.timeouts,
    refused: result['5xx'],
  };
}

/** A write every process hears of (the products trigger): every kept page and catalog answer goes. */
const changeCatalog = (db: DatabaseHandle['db']) =>
  sql`UPDATE products SET updated_at = now() WHERE id = (SELECT id FROM products LIMIT 1)`.execute(db);

/** One first render: how long the shopper waited, and the CPU time the process spent on it. */
interface FirstRender {
  wallMs: number;
  cpuMs: number;
}

/**
 * The first render of `page` after each of FIRST_RENDERS catalog changes, fastest first: the page
 * is asked for until the change has arrived and it is rendered again. The server runs in this
 * process and nothing else does meanwhile, so the process's CPU time is the render's (with its
 * reads: the embedded database runs here too), a figure that a machine busy with other work
 * changes less than the wait.
 */
async function firstRenders(appUrl: string, db: DatabaseHandle['db'], page: string): Promise<FirstRender[]> {
  const renders: FirstRender[] = [];
  for (let change = 0; change < FIRST_RENDERS; change++) {
    await changeCatalog(db);
    for (let tries = 0; ; tries++) {
      if (tries > 1000) throw new Error(`${page} was never rendered again after a catalog change`);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const response = await fetch(`${appUrl}${page}`, { headers: BROWSER_HEADERS });
      await response.arrayBuffer();
      if (response.headers.get('x-page-cache') === 'miss') {
        const used = process.cpuUsage(cpu);
        renders.push({ wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 });
        break;
      }
    }
  }
  return renders.sort((a, b) => a.wallMs - b.wallMs);
}

const listen = async (app: FastifyInstance) => app.listen({ host: '127.0.0.1', port: 0 });

interface AssetSizes {
  files: number;
  raw: number;
  gzip: number;
}

/** Builds the store when dist/ is missing or older than its sources, as npm start does. */
function ensureClientBuilt(): boolean {
  if (!fs.existsSync(path.join(root, 'vite.config.ts'))) return fs.existsSync(path.join(distDir, 'index.html'));
  if (!buildIsCurrent()) {
    console.log('Building the store (npm run build)...');
    execFileSync('npx', ['tsx', 'scripts/build.ts', '--quiet'], { cwd: root, stdio: 'inherit' });
  }
  return fs.existsSync(path.join(distDir, 'index.html'));
}

/** Entry scripts and module preloads of a built index.html (the JS needed before the first paint), and its CSS. */
function initialAssets(builtDir: string): { js: AssetSizes; css: AssetSizes } {
  const html = fs.readFileSync(path.join(builtDir, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const js: string[] = [];
  const css: string[] = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
    const src = attr(tag, 'src');
    if (src && attr(tag, 'type') === 'module') js.push(src);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const href = attr(tag, 'href');
    if (href && attr(tag, 'rel') === 'modulepreload') js.push(href);
    if (href && attr(tag, 'rel') === 'stylesheet') css.push(href);
  }
  const measure = (urls: string[]): AssetSizes =>
    urls.reduce(
      (sum, url) => {
        const bytes = fs.readFileSync(path.join(builtDir, url.replace(/^\//, '')));
        return { files: sum.files + 1, raw: sum.raw + bytes.length, gzip: sum.gzip + zlib.gzipSync(bytes, { level: 9 }).length };
      },
      { files: 0, raw: 0, gzip: 0 },
    );
  return { js: measure(js), css: measure(css) };
}

/** The initial JavaScript of bench/stack-floor, built as the store is (Vite, production). */
async function stackFloor(): Promise<AssetSizes> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-stack-floor-'));
  try {
    await build({
      configFile: false,
      root: path.join(root, 'bench', 'stack-floor'),
      plugins: [react()],
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    });
    return initialAssets(outDir).js;
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/** A new, empty database on the server at BENCH_DATABASE_URL; dropped by the returned function. */
async function scratchDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `threadline_bench_${process.pid}_${Date.now()}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
// autocannon measures latency in whole milliseconds.
const ms = (value: number) => (value < 1 ? '<1' : String(value));

/** The module script a built index.html loads first: the static asset measured beside the pages. */
function entryScript(builtDir: string): string {
  const html = fs.readFileSync(path.join(builtDir, 'index.html'), 'utf8');
  const src = /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error('The built index.html names no module script');
  return src;
}

const fixed = (value: number) => value.toFixed(0);
const renderTimes = (renders: FirstRender[]) =>
  renders.map((render) => `${Math.round(render.wallMs)} (${Math.round(render.cpuMs)})`).join(', ');

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-bench-'));
  let database: DatabaseHandle | undefined;
  let app: FastifyInstance | undefined;
  let bare: FastifyInstance | undefined;
  let scratch: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  try {
    const built = ensureClientBuilt();
    if (!built) throw new Error('The store is not built (no dist/index.html and no vite.config.ts to build it with)');
    // The store as it runs in production: React renders pages with its production build, which it
    // picks by NODE_ENV when the server-rendering module first loads.
    process.env.NODE_ENV = 'production';
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' });
    const serverUrl = process.env.BENCH_DATABASE_URL;
    if (serverUrl) scratch = await scratchDatabase(serverUrl);
    database = await openDatabase(scratch ? { databaseUrl: scratch.url } : { dataDir });
    await migrateToLatest(database.db);
    const seedStart = performance.now();
    const storage = await createStorage(config);
    await seedIfEmpty(database.db, storage);
    const seedMs = performance.now() - seedStart;
    const { slug } = await database.db
      .selectFrom('products')
      .select('slug')
      .where('is_active', '=', true)
      .orderBy('name')
      .executeTakeFirstOrThrow();

    app = await buildApp(config, { database, storage, clientDir: distDir, logger: false });
    const appUrl = await listen(app);
    const response = await fetch(`${appUrl}${PRODUCTS_PATH}`);
    if (!response.ok) throw new Error(`GET ${PRODUCTS_PATH} answered ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    bare = Fastify({ logger: false });
    bare.get('/products', (_req, reply) => reply.header('content-type', 'application/json').send(body));
    const bareUrl = await listen(bare);

    const targets = [
      { name: 'home page /', url: `${appUrl}/` },
      { name: `product page /product/${slug}`, url: `${appUrl}/product/${slug}` },
      { name: 'shop list over tRPC (catalog.products)', url: `${appUrl}${PRODUCTS_PATH}` },
      { name: 'static asset (entry script, br)', url: `${appUrl}${entryScript(distDir)}` },
      { name: "bare Fastify, the list's bytes", url: `${bareUrl}/products` },
    ];
    const runs = targets.length * CONNECTION_COUNTS.length;
    console.log(
      `Load: ${runs} runs of ${seconds} s (${CONNECTION_COUNTS.join(' and ')} connections), then a ${SOAK_SECONDS} s soak at ${SOAK_CONNECTIONS}...`,
    );
    const results = new Map<string, LoadResult[]>();
    for (const target of targets) {
      await load(target.url, CONNECTION_COUNTS.at(-1)!, 1); // warm-up: JIT, query plans, pool, the page kept
      const byCount: LoadResult[] = [];
      for (const connections of CONNECTION_COUNTS) byCount.push(await load(target.url, connections, seconds));
      results.set(target.name, byCount);
    }

    const renders = {
      home: await firstRenders(appUrl, database.db, '/'),
      product: await firstRenders(appUrl, database.db, `/product/${slug}`),
    };

    // The soak: shoppers over every kind of page and the API, while an admin edits the catalog.
    const soakPaths = ['/', '/shop', `/product/${slug}`, PRODUCTS_PATH, '/subscriptions', '/category/motorcycle'];
    const db = database.db;
    const changes = setInterval(() => {
      changeCatalog(db).catch((error: unknown) => console.error('A catalog change during the soak failed:', error));
    }, SOAK_CHANGE_EVERY_MS);
    let soak: LoadResult | undefined;
    try {
      if (SOAK_SECONDS > 0) soak = await load(appUrl, SOAK_CONNECTIONS, SOAK_SECONDS, soakPaths);
    } finally {
      clearInterval(changes);
    }

    const colourMockups = await measureColourMockups(database.db, storage);
    const assets = initialAssets(distDir);
    const floor = await stackFloor();
    console.log(`\nSeeding the demo store took ${(seedMs / 1000).toFixed(1)} s. Database: ${scratch ? 'PostgreSQL' : 'PGlite'}.\n`);
    console.log(
      table([
        ['GET, Accept-Encoding: br, gzip', ...CONNECTION_COUNTS.flatMap((count) => [`req/s @${count}`, `p99 ms @${count}`]), 'errors'],
        ...targets.map((target) => {
          const byCount = results.get(target.name)!;
          return [
            target.name,
            ...byCount.flatMap((result) => [fixed(result.rps), ms(result.p99)]),
            String(byCount.reduce((sum, result) => sum + result.errors, 0)),
          ];
        }),
      ]),
    );
    const at = (name: string) => results.get(name)!.at(-1)!.rps;
    const list = at(targets[2]!.name);
    console.log(
      `\nAt ${CONNECTION_COUNTS.at(-1)} connections: home ${(at(targets[0]!.name) / list).toFixed(2)}x and product page ${(at(targets[1]!.name) / list).toFixed(2)}x the tRPC list's req/s; the tRPC list ${(list / at(targets[4]!.name)).toFixed(2)}x bare Fastify's.`,
    );
    console.log(
      `\nFirst render after a catalog change, ms waited (ms of CPU), fastest first: home ${renderTimes(renders.home)}; product page ${renderTimes(renders.product)}.`,
    );
    if (soak) {
      console.log(
        `\nSoak, ${SOAK_SECONDS} s at ${SOAK_CONNECTIONS} connections over ${soakPaths.length} pages and API reads, the catalog changed every ${SOAK_CHANGE_EVERY_MS / 1000} s: ` +
          `${soak.requests} requests, ${fixed(soak.rps)} req/s, p99 ${ms(soak.p99)} ms, slowest ${ms(soak.max)} ms, ` +
          `${soak.timeouts} over ${TIMEOUT_SECONDS} s, ${soak.refused} refused with 503.`,
      );
    }
    console.log(
      `\nA colour mockup (one colour, one side, display size), ms for each of ${colourMockups.length} colours: ${colourMockups.map((time) => Math.round(time)).join(', ')}; ` +
        `slowest ${Math.round(Math.max(...colourMockups))} ms (budget ${COLOUR_MOCKUP_BUDGET_MS} ms).`,
    );
    console.log('');
    console.log(
      table([
        ['Storefront initial assets', 'files', 'raw', 'gzip -9'],
        ['JavaScript (entry + modulepreload)', String(assets.js.files), kib(assets.js.raw), kib(assets.js.gzip)],
        ['CSS', String(assets.css.files), kib(assets.css.raw), kib(assets.css.gzip)],
        ['the stack alone (bench/stack-floor), JS', String(floor.files), kib(floor.raw), kib(floor.gzip)],
      ]),
    );
    await printScriptBreakdown();
    // The embedded database's start-up; a PostgreSQL run measures the stack on that server instead.
    if (!scratch) {
      const launches = await measureStartup();
      console.log(
        `\nStart-up on an existing embedded database (npm start, launch to first 200 for /): ${launches.map((t) => `${Math.round(t)} ms`).join(', ')}`,
      );
    }
  } finally {
    await bare?.close();
    await app?.close();
    await database?.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Groups below this share of the initial JavaScript are summed on one line. */
const BREAKDOWN_SMALLEST = 512;

/** The initial JavaScript by npm package and by our own folder (bench/script-breakdown.ts); alone with `--scripts`. */
async function printScriptBreakdown() {
  const shares = await initialScriptBreakdown(root);
  const shown = shares.filter((share) => share.gzip >= BREAKDOWN_SMALLEST);
  const rest = shares.filter((share) => share.gzip < BREAKDOWN_SMALLEST);
  const sum = (list: typeof shares, key: 'raw' | 'gzip') => list.reduce((total, share) => total + share[key], 0);
  console.log('');
  console.log(
    table([
      ['Initial JavaScript by package and folder', 'raw', 'gzip -9 (share)'],
      ...shown.map((share) => [share.group, kib(share.raw), kib(share.gzip)]),
      [`${rest.length} smaller packages and folders`, kib(sum(rest, 'raw')), kib(sum(rest, 'gzip'))],
      ['all', kib(sum(shares, 'raw')), kib(sum(shares, 'gzip'))],
    ]),
  );
}

/** npm run bench -- --scale: the scale benchmark (bench/scale.ts), on PGlite or a scratch database at BENCH_DATABASE_URL. */
async function scale() {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const scratch = serverUrl ? await scratchDatabase(serverUrl) : undefined;
  try {
    await runScaleBenchmark(scratch?.url);
  } finally {
    await scratch?.drop();
  }
}

const run = process.argv.includes('--scale') ? scale : process.argv.includes('--scripts') ? printScriptBreakdown : main;
run().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('Benchmark failed:', error);
    process.exit(1);
  },
);
