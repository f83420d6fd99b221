import type { FastifyInstance } from 'fastify';
import type { CatalogCache } from '../catalog-cache';
import type { Db } from '../db/database';
import { escapeMarkup } from '../../shared/markup';
import { sendIfNotModified, weakEtag } from './page-cache';

// robots.txt and sitemap.xml for search engines. The sitemap is kept in the catalog cache, which
// every catalog write empties, so it changes with the catalog: a product activated, renamed or
// removed shows at once. Made on each request, it cost a read of every product (220 ms at 10,000).
// Its ETag lets a crawler that has it already get 304.

/** Pages without a catalog row behind them. */
const FIXED_PAGES = ['/', '/shop', '/subscriptions', '/contact', '/faq', '/shipping', '/returns'];
/**
 * Personal pages, and the back office: nothing there is for a search index. Rules match as
 * prefixes; `$` ends one where a longer path is a public page (/subscription, /subscriptions).
 */
const DISALLOWED = [
  '/admin',
  '/dashboard',
  '/settings',
  '/orders',
  '/subscription$',
  '/subscriptions/join/',
  '/cart',
  '/checkout',
  '/login',
  '/reset-password',
  '/confirm-email',
  '/trpc',
  '/api/',
];

const day = (value: Date | string) => new Date(value).toISOString().slice(0, 10);

export function registerSeoRoutes(app: FastifyInstance, db: Db, catalog: CatalogCache, publicUrl: string): void {
  app.get('/robots.txt', (_req, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(['User-agent: *', ...DISALLOWED.map((path) => `Disallow: ${path}`), '', `Sitemap: ${publicUrl}/sitemap.xml`, ''].join('\n')),
  );

  app.get('/sitemap.xml', async (req, reply) => {
    const kept = await catalog.read('sitemap.xml', async () => {
      const xml = await sitemap(db, publicUrl);
      return { xml, etag: weakEtag(xml) };
    });
    reply.header('Cache-Control', 'no-cache');
    if (sendIfNotModified(req, reply, kept.etag)) return reply;
    return reply.type('application/xml; charset=utf-8').send(kept.xml);
  });
}

async function sitemap(db: Db, publicUrl: string): Promise<string> {
  const [categories, products] = await Promise.all([
    db.selectFrom('categories').select(['slug', 'updated_at']).where('is_active', '=', true).orderBy('sort_order').execute(),
    db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .select(['products.slug', 'products.updated_at'])
      .where('products.is_active', '=', true)
      .where('categories.is_active', '=', true)
      .orderBy('products.slug')
      .execute(),
  ]);
  const entries = [
    ...FIXED_PAGES.map((path) => ({ path, updated: null })),
    ...categories.map((category) => ({ path: `/category/${category.slug}`, updated: category.updated_at })),
    ...products.map((product) => ({ path: `/product/${product.slug}`, updated: product.updated_at })),
  ];
  const urls = entries.map(
    ({ path, updated }) =>
      `<url><loc>${escapeMarkup(`${publicUrl}${path}`)}</loc>${updated ? `<lastmod>${day(updated)}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}
