import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { callTrpc, sharedTestApp, signInHttp, TEST_ORIGIN } from '../support/app';
import { createAdmin, createCategory, createCustomer, createProduct } from '../support/factories';

// The storefront's catalog reads are cached in each app process and dropped on every catalog
// write, in every process. `other` is a second app on the same database: what
// another process of the store sees.
const t = sharedTestApp();
let other: FastifyInstance;
let adminCookie: string;

beforeAll(async () => {
  other = await buildApp(t.config, { database: t.database, logger: false });
  await other.ready();
  const admin = await createAdmin(t.db);
  adminCookie = await signInHttp(t.app, admin.email);
});
afterAll(async () => {
  await other.close();
});

async function productName(app: FastifyInstance, slug: string) {
  const res = await callTrpc<{ name: string } | null>(app, 'catalog.productBySlug', { type: 'query', input: { slug } });
  expect(res.statusCode).toBe(200);
  return res.data?.name ?? null;
}

async function shopSlugs(app: FastifyInstance) {
  const res = await callTrpc<{ items: { slug: string }[] }>(app, 'catalog.products', { type: 'query', input: { sort: 'newest' } });
  expect(res.statusCode).toBe(200);
  return res.data?.items.map((item) => item.slug) ?? [];
}

describe('catalog cache', () => {
  it('answers from memory until a write to the catalog announces itself, whoever makes it', async () => {
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { category_id: category.id, name: 'Ride Free Tee' });
    expect(await productName(other, product.slug)).toBe('Ride Free Tee');

    // With the announcing trigger off, a write goes unnoticed: the cached answer stands. The
    // announcements of the category and product just made may still be on their way to `other`
    // (on a server they come over a connection of their own) and empty its cache once more; each
    // comes once, so a try after them shows the cached answer standing.
    await sql`ALTER TABLE products DISABLE TRIGGER products_catalog_changed`.execute(t.db);
    try {
      const stood: boolean[] = [];
      for (let attempt = 1; attempt <= 3 && !stood.at(-1); attempt++) {
        const cached = await productName(other, product.slug);
        await t.db
          .updateTable('products')
          .set({ name: `Ride Free Tee (unannounced ${attempt})` })
          .where('id', '=', product.id)
          .execute();
        stood.push((await productName(other, product.slug)) === cached);
      }
      expect(stood.at(-1)).toBe(true);
    } finally {
      await sql`ALTER TABLE products ENABLE TRIGGER products_catalog_changed`.execute(t.db);
    }

    // Any announced write (here plain SQL, as a script would make) reaches every process.
    await t.db.updateTable('products').set({ name: 'Ride Free Tee (renamed)' }).where('id', '=', product.id).execute();
    await expect.poll(() => productName(other, product.slug)).toBe('Ride Free Tee (renamed)');
  });

  it("shows an admin's change at once in the admin's process and soon in the others", async () => {
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { category_id: category.id });
    for (const app of [t.app, other]) {
      expect(await shopSlugs(app)).toContain(product.slug);
      expect(await productName(app, product.slug)).toBe(product.name);
    }

    const hidden = await callTrpc(t.app, 'admin.products.setActive', { input: { id: product.id, isActive: false }, cookie: adminCookie });
    expect(hidden.statusCode).toBe(200);

    expect(await shopSlugs(t.app)).not.toContain(product.slug);
    expect(await productName(t.app, product.slug)).toBeNull();
    await expect.poll(() => shopSlugs(other)).not.toContain(product.slug);
    expect(await productName(other, product.slug)).toBeNull();
  });

  it('keeps its answers when an admin write is refused (it changed nothing)', async () => {
    const product = await createProduct(t.db, { name: 'Unchanged Tee' });
    await sql`ALTER TABLE products DISABLE TRIGGER products_catalog_changed`.execute(t.db);
    try {
      // As in the first test: the product's own announcement may still empty the cache once.
      const stood: boolean[] = [];
      for (let attempt = 1; attempt <= 3 && !stood.at(-1); attempt++) {
        const kept = await productName(t.app, product.slug);
        await t.db
          .updateTable('products')
          .set({ name: `Unchanged Tee (unannounced ${attempt})` })
          .where('id', '=', product.id)
          .execute();
        const refused = await callTrpc(t.app, 'admin.products.setActive', {
          input: { id: 'not-an-id', isActive: false },
          cookie: adminCookie,
        });
        expect(refused.statusCode).toBe(400);
        stood.push((await productName(t.app, product.slug)) === kept);
      }
      expect(stood.at(-1)).toBe(true);
    } finally {
      await sql`ALTER TABLE products ENABLE TRIGGER products_catalog_changed`.execute(t.db);
    }
  });

  it("keeps the whole answer of a batch of catalog reads, but never one that holds a caller's own data", async () => {
    await createProduct(t.db, { name: 'Kept Answer Tee' });
    const batch = (path: string, cookie: string) =>
      t.app.inject({ url: `/trpc/${path}?batch=1&input=${encodeURIComponent('{}')}`, headers: { origin: TEST_ORIGIN, cookie } });

    const first = await batch('catalog.categories,catalog.featuredProducts', '');
    const again = await batch('catalog.categories,catalog.featuredProducts', '');
    expect(first.statusCode).toBe(200);
    expect(again.body).toBe(first.body);

    // The signed-in user's own answer rides in the same batch as a catalog read: each gets theirs.
    const [alice, bob] = await Promise.all([createCustomer(t.db), createCustomer(t.db)]);
    const emailIn = async (cookie: string) =>
      (await batch('catalog.categories,auth.me', cookie)).json<[unknown, { result: { data: { email: string } | null } }]>()[1].result.data
        ?.email;
    expect(await emailIn(await signInHttp(t.app, alice.email))).toBe(alice.email);
    expect(await emailIn(await signInHttp(t.app, bob.email))).toBe(bob.email);
    expect(await emailIn('')).toBeUndefined();
    // Nor may a shared cache on the way keep it.
    expect((await batch('catalog.categories,auth.me', '')).headers['cache-control']).toBe('private, no-store');
  });

  it('keeps one answer for a read whatever other parameters its address carries, so they cannot push the others out', async () => {
    const product = await createProduct(t.db, { name: 'Steady Tee' });
    const url = `/trpc/catalog.productBySlug?input=${encodeURIComponent(JSON.stringify({ slug: product.slug }))}`;
    const nameAt = async (address: string) =>
      (await t.app.inject({ url: address, headers: { origin: TEST_ORIGIN } })).json<{ result: { data: { name: string } } }>().result.data
        .name;
    await sql`ALTER TABLE products DISABLE TRIGGER products_catalog_changed`.execute(t.db);
    try {
      // As in the first test: the product's own announcement may still empty the cache once.
      const stood: boolean[] = [];
      for (let attempt = 1; attempt <= 3 && !stood.at(-1); attempt++) {
        const kept = await nameAt(url);
        await t.db
          .updateTable('products')
          .set({ name: `Steady Tee (unannounced ${attempt})` })
          .where('id', '=', product.id)
          .execute();
        // More addresses of another read than the cache holds, each with a parameter tRPC does not read.
        for (let i = 0; i < 600; i++) {
          const res = await t.app.inject({ url: `/trpc/catalog.categories?junk=${attempt}-${i}`, headers: { origin: TEST_ORIGIN } });
          expect(res.statusCode).toBe(200);
        }
        stood.push((await nameAt(url)) === kept && (await nameAt(`${url}&junk=1`)) === kept);
      }
      expect(stood.at(-1)).toBe(true);
    } finally {
      await sql`ALTER TABLE products ENABLE TRIGGER products_catalog_changed`.execute(t.db);
    }
  });

  it('keys an answer by the input as tRPC reads it: an address that another query parser reads alike gets its own answer', async () => {
    const product = await createProduct(t.db, { name: 'Percent Tee' });
    // tRPC reads `input` with URLSearchParams, which decodes a broken escape (%FF, here in a key
    // the input's schema drops) to U+FFFD; Fastify's query parser leaves the whole value as sent.
    const sent = `${encodeURIComponent(`{"slug":"${product.slug}","x`)}%FF${encodeURIComponent('":1}')}`;
    const query = (input: string) => t.app.inject({ url: `/trpc/catalog.productBySlug?input=${input}`, headers: { origin: TEST_ORIGIN } });
    const answers = [];
    // The product's own announcement may empty the cache once in between: a few tries.
    for (let attempt = 0; attempt < 3; attempt++) {
      const found = await query(sent);
      expect(found.json<{ result: { data: { name: string } } }>().result.data.name).toBe('Percent Tee');
      // Its input, as tRPC reads it, is the text Fastify's parser made of the first: not JSON.
      answers.push((await query(encodeURIComponent(sent))).statusCode);
    }
    expect(answers).toEqual([400, 400, 400]);
  });

  it('never serves one client the streamed form (JSONL) another client asked for', async () => {
    await createProduct(t.db, { name: 'Streamed Tee' });
    // By either header tRPC reads; each on a URL nobody read before, so the first answer would be kept.
    for (const [sort, asking] of [
      ['price-low', { 'trpc-accept': 'application/jsonl' }],
      ['price-high', { accept: 'application/jsonl' }],
    ] as const) {
      const url = `/trpc/catalog.categories,catalog.products?batch=1&input=${encodeURIComponent(JSON.stringify({ 1: { sort } }))}`;
      const streamed = await t.app.inject({ url, headers: { origin: TEST_ORIGIN, ...asking } });
      expect(streamed.statusCode).toBe(200);
      const plain = await t.app.inject({ url, headers: { origin: TEST_ORIGIN } });
      const [, products] = plain.json<[unknown, { result: { data: { items: { name: string }[] } } }]>();
      expect(
        products.result.data.items.map((item) => item.name),
        sort,
      ).toContain('Streamed Tee');
    }
  });

  it('keeps nothing from a write that was rolled back', async () => {
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { category_id: category.id, name: 'Faith Over Fear Tee' });
    expect(await productName(other, product.slug)).toBe('Faith Over Fear Tee');
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.updateTable('products').set({ name: 'Never Committed' }).where('id', '=', product.id).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await productName(other, product.slug)).toBe('Faith Over Fear Tee');
  });
});
