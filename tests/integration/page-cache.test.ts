import zlib from 'node:zlib';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { BUILT_CLIENT_DIR, callTrpc, sharedTestApp, signInHttp, testConfig, TEST_ORIGIN } from '../support/app';
import { createAdmin, createCustomer, createPlan, createProduct } from '../support/factories';

// Storefront pages are rendered once and kept with the catalog cache, then sent to every visitor
// with a nonce of their own (docs/adr/0026-storefront-pages-kept-with-the-catalog.md). `t` serves
// the built client; `other` is a second app on the same database (another process of the store).
// The products and plan the tests show are made first: each write empties every kept page when
// its announcement arrives, which must not happen in the middle of a test that counts hits.
const t = sharedTestApp({}, { clientDir: BUILT_CLIENT_DIR });
let other: FastifyInstance;
let adminCookie: string;
const products = {} as Record<'hidden' | 'nonce' | 'everyone' | 'tracked' | 'validated', { id: string; path: string }>;
const lruPaths: string[] = [];
let planId: string;

beforeAll(async () => {
  other = await buildApp(t.config, { database: t.database, logger: false });
  await other.ready();
  adminCookie = await signInHttp(other, (await createAdmin(t.db)).email);
  for (const [key, name] of [
    ['hidden', 'Kept Page Tee'],
    ['nonce', 'Nonce Tee'],
    ['everyone', 'Everyone Tee'],
    ['tracked', 'Tracked Tee'],
    ['validated', 'Validated Tee'],
  ] as const) {
    const { id, slug } = await createProduct(t.db, { name });
    products[key] = { id, path: `/product/${slug}` };
  }
  for (let i = 1; i <= 6; i++) lruPaths.push(`/product/${(await createProduct(t.db)).slug}`);
  planId = (await createPlan(t.db, { name: 'Kept Club' })).id;
  // Their announcements have landed once a page is kept again.
  for (let tries = 0; (await get('/faq')).cache !== 'hit'; tries++) if (tries > 50) throw new Error('no page was ever kept');
});
afterAll(async () => {
  await other.close();
});

/** An app of the store's own on the same database, with `env`, for the length of `use`. */
async function withApp<T>(env: Record<string, string>, use: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const app = await buildApp(testConfig(env), { database: t.database, clientDir: BUILT_CLIENT_DIR, logger: false });
  try {
    await app.ready();
    return await use(app);
  } finally {
    await app.close();
  }
}

const SCRIPT_NONCE = /script-src [^;]*'nonce-([0-9a-f]+)'/;

async function get(url: string, options: { app?: FastifyInstance; headers?: InjectOptions['headers'] } = {}) {
  const res = await (options.app ?? t.app).inject({ url, headers: options.headers });
  const body = res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(res.rawPayload).toString() : res.body;
  return {
    status: res.statusCode,
    cache: res.headers['x-page-cache'],
    etag: res.headers.etag,
    body,
    headers: res.headers,
    /** The nonce the answer's policy allows scripts by. */
    policyNonce: SCRIPT_NONCE.exec(String(res.headers['content-security-policy']))?.[1],
  };
}

/** A page's HTML with its nonces blanked, to compare two answers of one kept page. */
const withoutNonces = (html: string) => html.replace(/nonce="[0-9a-f]+"/g, 'nonce=""');

describe('kept pages', () => {
  it('keeps a rendered page until another process changes the catalog, in every process', async () => {
    const { id, path } = products.hidden;
    const first = await get(path);
    expect([first.status, first.cache]).toEqual([200, 'miss']);
    expect(first.body).toContain('Kept Page Tee');
    const again = await get(path);
    expect([again.status, again.cache, again.etag]).toEqual([200, 'hit', first.etag]);

    // Hidden through another process: its change reaches this one, whose kept page goes.
    const hidden = await callTrpc(other, 'admin.products.setActive', { input: { id, isActive: false }, cookie: adminCookie });
    expect(hidden.statusCode).toBe(200);
    await expect.poll(async () => (await get(path)).status).toBe(404);
    expect((await get(path)).body).toContain('Product Not Found');
  });

  it('drops the club and help pages when a plan or the shipping settings change, as the catalog does', async () => {
    expect((await get('/subscriptions')).body).toContain('Kept Club');
    expect((await get('/subscriptions')).cache).toBe('hit');
    expect((await get('/shipping')).body).toContain('Free shipping on every order');
    expect((await get('/shipping')).cache).toBe('hit');

    // Plain SQL, as a script or another process would write: the tables' triggers announce it.
    await t.db.updateTable('subscription_plans').set({ name: 'Renamed Club' }).where('id', '=', planId).execute();
    await expect.poll(async () => (await get('/subscriptions')).body).toContain('Renamed Club');
    await t.db.updateTable('store_settings').set({ flat_shipping_rate: '4.95' }).execute();
    try {
      await expect.poll(async () => (await get('/shipping')).body).toContain('Flat-rate shipping: $4.95 per order');
    } finally {
      await t.db.updateTable('store_settings').set({ flat_shipping_rate: '0.00' }).execute();
      await expect.poll(async () => (await get('/shipping')).body).toContain('Free shipping on every order');
    }
  });

  it('gives every answer a nonce of its own, the one its policy names, plain or compressed', async () => {
    const { path } = products.nonce;
    const answers = [
      await get(path),
      await get(path),
      await get(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } }),
      await get(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } }),
    ];
    expect(answers.map((answer) => answer.cache)).toEqual(['miss', 'hit', 'hit', 'hit']);
    expect(answers[2]!.headers['content-encoding']).toBe('gzip');
    expect(answers[2]!.headers.vary).toContain('Accept-Encoding');
    const nonces = answers.map((answer) => {
      const inPage = [...answer.body.matchAll(/<script nonce="([0-9a-f]+)"/g)].map((match) => match[1]);
      expect(inPage.length).toBeGreaterThan(0);
      expect(new Set(inPage)).toEqual(new Set([answer.policyNonce]));
      return answer.policyNonce;
    });
    expect(new Set(nonces).size).toBe(answers.length);
    // Otherwise the very same page.
    for (const answer of answers) expect(withoutNonces(answer.body)).toBe(withoutNonces(answers[0]!.body));
  });

  it("sends two signed-in customers and a guest the same page, holding no one's session, email or cart", async () => {
    const { path } = products.everyone;
    const [alice, bob] = await Promise.all([createCustomer(t.db), createCustomer(t.db)]);
    const cookies = { alice: await signInHttp(t.app, alice.email), bob: await signInHttp(t.app, bob.email) };
    // Alice's request renders the page that everyone after her gets.
    const seen = [
      await get(path, { headers: { cookie: cookies.alice } }),
      await get(path, { headers: { cookie: cookies.bob } }),
      await get(path),
    ];
    expect(seen.map((answer) => [answer.status, answer.cache])).toEqual([
      [200, 'miss'],
      [200, 'hit'],
      [200, 'hit'],
    ]);
    for (const answer of seen) {
      expect(withoutNonces(answer.body)).toBe(withoutNonces(seen[0]!.body));
      expect(answer.headers['set-cookie']).toBeUndefined();
      expect(answer.headers['cache-control']).toBe('private, no-cache');
    }
    const kept = seen[0]!.body;
    for (const secret of [alice.email, bob.email, cookies.alice.split('=')[1]!, cookies.bob.split('=')[1]!])
      expect(kept).not.toContain(secret);
    // The header's account and cart parts are the signed-out ones, for the browser to fill in.
    expect(/<a [^>]*data-testid="account-link"[^>]*>/.exec(kept)?.[0]).toContain('href="/login"');
    expect(kept).not.toContain('data-testid="cart-count"');
    const state = JSON.parse(/<script id="server-state" type="application\/json">(.*?)<\/script>/s.exec(kept)![1]!) as {
      queries: { queryKey: [string[]] }[];
    };
    const reads = state.queries.map((query) => query.queryKey[0].join('.'));
    expect(reads).toContain('catalog.productBySlug');
    expect(reads.filter((read) => !read.startsWith('catalog.') && read !== 'checkout.shippingPolicy')).toEqual([]);
  });

  it('keeps one entry whatever tracking parameters a visit brings, and another for a parameter that changes the page', async () => {
    const { path } = products.tracked;
    const tagged = await get(`${path}?utm_source=newsletter&utm_campaign=spring-drop&fbclid=IwAR0xyz`);
    expect([tagged.status, tagged.cache]).toEqual([200, 'miss']);
    for (const seen of ['newsletter', 'spring-drop', 'IwAR0xyz']) expect(tagged.body).not.toContain(seen);
    expect((await get(path)).cache).toBe('hit');
    expect((await get(`${path}?gclid=abc&mc_eid=123`)).cache).toBe('hit');

    await get('/shop');
    expect((await get('/shop?utm_medium=email')).cache).toBe('hit');
    expect((await get('/shop?sort=price-low&utm_medium=email')).cache).toBe('miss');
    expect((await get('/shop?sort=price-low')).cache).toBe('hit');

    // A redirect keeps the visit's tracking parameters, which the render never saw.
    const redirected = await t.app.inject({ url: '/shop?sort=newest&utm_source=newsletter' });
    expect([redirected.statusCode, redirected.headers.location]).toEqual([307, '/shop?utm_source=newsletter']);
  });

  it('keeps at most its number of pages, pushing out the least recently read', async () => {
    // 5 kept: one place for a page read once, four for pages read again.
    await withApp({ PAGE_CACHE_ENTRIES: '5' }, async (app) => {
      const [p1, p2, p3, p4, p5, p6] = lruPaths as [string, string, string, string, string, string];
      for (const path of [p1, p2, p3, p4, p5]) {
        expect((await get(path, { app })).cache).toBe('miss');
        expect((await get(path, { app })).cache).toBe('hit');
      }
      // Five read twice: p1, read least recently, went back to the place for pages read once,
      // which the next new page takes.
      expect((await get(p6, { app })).cache).toBe('miss');
      for (const path of [p2, p3, p4, p5, p6]) expect((await get(path, { app })).cache, path).toBe('hit');
      expect((await get(p1, { app })).cache).toBe('miss');
    });
  });

  it('answers 304 to a browser that has the page, until the page changes', async () => {
    const { id, path } = products.validated;
    const { etag } = await get(path);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const notModified = await get(path, { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.etag).toBe(etag);
    // The browser's copy keeps the policy, and so the nonce, it came with.
    expect(notModified.headers['content-security-policy']).toBeUndefined();
    expect((await get(path, { headers: { 'if-none-match': 'W/"another-page"' } })).status).toBe(200);
    // A reload that asks for a fresh copy gets one.
    expect((await get(path, { headers: { 'if-none-match': etag, 'cache-control': 'no-cache' } })).status).toBe(200);

    await t.db.updateTable('products').set({ name: 'Validated Tee, Renamed' }).where('id', '=', id).execute();
    await expect.poll(async () => (await get(path, { headers: { 'if-none-match': etag } })).status).toBe(200);
    const changed = await get(path, { headers: { 'if-none-match': etag } });
    expect(changed.body).toContain('Validated Tee, Renamed');
    expect(changed.etag).not.toBe(etag);

    const sitemap = await t.app.inject({ url: '/sitemap.xml' });
    expect((await t.app.inject({ url: '/sitemap.xml', headers: { 'if-none-match': sitemap.headers.etag } })).statusCode).toBe(304);
  });

  it('refuses renders that would wait at once, with Retry-After, while kept pages and the API are served', async () => {
    // One render at a time, and none waits for another.
    await withApp({ PAGE_RENDER_CONCURRENCY: '1', PAGE_RENDER_MAX_WAIT_MS: '0' }, async (app) => {
      const api = () => app.inject({ url: '/trpc/catalog.categories', headers: { origin: TEST_ORIGIN } });
      for (let i = 0; i < 2; i++) await Promise.all([get('/faq', { app }), api()]);

      const finished: string[] = [];
      const track = <T>(label: string, answer: Promise<T>) => answer.finally(() => finished.push(label));
      const storm = Array.from({ length: 10 }, (_, i) => track(`render ${i}`, get(`/shop?storm=${i}`, { app })));
      const kept = track('kept page', get('/faq', { app }));
      const answered = track('api', api());
      const answers = await Promise.all(storm);

      const refused = answers.filter((answer) => answer.status === 503);
      expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) {
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(answer.headers['cache-control']).toBe('no-store');
        // The page without its render: the browser renders it from the API.
        expect(answer.body).toContain('<div id="root"></div>');
      }
      // A refusal goes out at once, before any render it would have waited for.
      const first = finished.find((label) => label.startsWith('render'))!;
      expect(answers[Number(first.slice('render '.length))]!.status).toBe(503);
      expect([(await kept).status, (await kept).cache, (await answered).statusCode]).toEqual([200, 'hit', 200]);
    });
  });
});
