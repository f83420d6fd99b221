import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { callTrpc, sharedTestApp, signInHttp } from '../support/app';
import { createAdmin, createCategory, createProduct } from '../support/factories';

// robots.txt and sitemap.xml: what search engines may index, and every page they should.

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);

describe('robots.txt and sitemap.xml', () => {
  const t = sharedTestApp();
  const url = (path: string) => `${t.config.publicUrl}${path}`;

  it('keeps crawlers out of the back office, accounts, cart and checkout, and names the sitemap', async () => {
    const res = await t.app.inject('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of ['/admin', '/dashboard', '/cart', '/checkout', '/login']) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).not.toContain('Disallow: /');
    expect(lines).toContain(`Sitemap: ${url('/sitemap.xml')}`);

    // As crawlers read the rules: prefixes, or whole paths where one ends in $.
    const rules = lines.filter((line) => line.startsWith('Disallow: ')).map((line) => line.slice('Disallow: '.length));
    const blocked = (path: string) => rules.some((rule) => (rule.endsWith('$') ? path === rule.slice(0, -1) : path.startsWith(rule)));
    for (const path of ['/subscription', '/subscriptions/join/monthly-tee', '/orders/TL-1001', '/admin/products'])
      expect(blocked(path)).toBe(true);
    const sitemap = await t.app.inject('/sitemap.xml');
    for (const page of locs(sitemap.body)) expect(blocked(new URL(page).pathname), page).toBe(false);
  });

  it('lists the pages, active categories and active products, and follows the catalog as it changes', async () => {
    const category = await createCategory(t.db, { slug: 'biker-tees' });
    const hidden = await createCategory(t.db, { slug: 'hidden-tees', is_active: false });
    const product = await createProduct(t.db, { slug: 'iron-horse-tee', category_id: category.id });
    await createProduct(t.db, { slug: 'draft-tee', category_id: category.id, is_active: false });
    await createProduct(t.db, { slug: 'tee-in-hidden-category', category_id: hidden.id });

    // Written straight to the database: their announcement reaches the app's listener soon, not at once.
    const res = await vi.waitFor(async () => {
      const sent = await t.app.inject('/sitemap.xml');
      expect(locs(sent.body)).toContain(url('/product/iron-horse-tee'));
      return sent;
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const urls = locs(res.body);
    expect(urls).toEqual(expect.arrayContaining([url('/'), url('/shop'), url('/faq')]));
    expect(urls).toContain(url('/category/biker-tees'));
    expect(urls).toContain(url('/product/iron-horse-tee'));
    expect(urls).not.toContain(url('/category/hidden-tees'));
    expect(urls).not.toContain(url('/product/draft-tee'));
    expect(urls).not.toContain(url('/product/tee-in-hidden-category'));
    expect(urls.some((url) => url?.includes('/cart') || url?.includes('/admin'))).toBe(false);
    const day = new Date(product.updated_at).toISOString().slice(0, 10);
    expect(res.body).toContain(`<url><loc>${url('/product/iron-horse-tee')}</loc><lastmod>${day}</lastmod></url>`);

    // An admin deactivates the product: it leaves the sitemap at once.
    const admin = await createAdmin(t.db);
    const cookie = await signInHttp(t.app, admin.email);
    const toggled = await callTrpc(t.app, 'admin.products.setActive', { input: { id: product.id, isActive: false }, cookie });
    expect(toggled.statusCode, JSON.stringify(toggled.error)).toBe(200);
    expect(locs((await t.app.inject('/sitemap.xml')).body)).not.toContain(url('/product/iron-horse-tee'));
  });

  it('makes the sitemap once per catalog change, not on every request', async () => {
    const product = await createProduct(t.db, { slug: 'kept-map-tee' });
    const listed = async () => locs((await t.app.inject('/sitemap.xml')).body).includes(url('/product/kept-map-tee'));
    await vi.waitFor(async () => expect(await listed()).toBe(true));

    // With the announcing trigger off, a write goes unnoticed: the sitemap made before stands. An
    // announcement already on its way may still empty the cache once; a try after it shows that.
    await sql`ALTER TABLE products DISABLE TRIGGER products_catalog_changed`.execute(t.db);
    try {
      const stood: boolean[] = [];
      for (let attempt = 1; attempt <= 3 && !stood.at(-1); attempt++) {
        const before = await listed();
        await t.db.updateTable('products').set({ is_active: !before }).where('id', '=', product.id).execute();
        stood.push((await listed()) === before);
      }
      expect(stood.at(-1)).toBe(true);
    } finally {
      await sql`ALTER TABLE products ENABLE TRIGGER products_catalog_changed`.execute(t.db);
    }

    // An announced write makes it again.
    await t.db.updateTable('products').set({ is_active: false }).where('id', '=', product.id).execute();
    await vi.waitFor(async () => expect(await listed()).toBe(false));
  });
});
