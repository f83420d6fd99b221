import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/database';
import { callerFor, testConfig } from '../support/app';
import { createTestDatabase } from '../support/db';

let database: DatabaseHandle;
let catalog: ReturnType<typeof callerFor>['caller']['catalog'];

async function insertCategory(slug: string, sortOrder: number, isActive = true) {
  const row = await database.db
    .insertInto('categories')
    .values({
      slug,
      name: slug[0]!.toUpperCase() + slug.slice(1),
      description: `${slug} tees`,
      image_url: `/storage/categories/${slug}.png`,
      sort_order: sortOrder,
      is_active: isActive,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let sku = 0;
async function insertProduct(
  categoryId: string,
  values: { name: string; price: string; featured?: boolean; active?: boolean; createdAt?: Date },
) {
  sku += 1;
  await database.db
    .insertInto('products')
    .values({
      sku_number: `TEST-${sku}`,
      slug: values.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      name: values.name,
      description: 'A tee',
      price: values.price,
      front_art_url: '/storage/product-art/a.png',
      category_id: categoryId,
      is_featured: values.featured ?? false,
      is_active: values.active ?? true,
      ...(values.createdAt ? { created_at: values.createdAt } : {}),
    })
    .execute();
}

beforeAll(async () => {
  database = await createTestDatabase();
  catalog = callerFor(database, testConfig(), null).caller.catalog;
  const moto = await insertCategory('motorcycle', 2);
  const car = await insertCategory('car', 1);
  const hidden = await insertCategory('hidden', 3, false);
  const day = (n: number) => new Date(Date.UTC(2026, 0, n));
  for (let i = 1; i <= 8; i++) {
    await insertProduct(i % 2 ? moto : car, { name: `Featured ${i}`, price: `${10 + i}.50`, featured: true, createdAt: day(i) });
  }
  await insertProduct(moto, { name: 'Retired Tee', price: '5.00', active: false, featured: true, createdAt: day(20) });
  await insertProduct(hidden, { name: 'Hidden Category Tee', price: '6.00', featured: true, createdAt: day(21) });
});
afterAll(() => database.close());

describe('storefront catalog', () => {
  it('lists active categories by sort_order', async () => {
    const categories = await catalog.categories();
    expect(categories.map((c) => c.slug)).toEqual(['car', 'motorcycle']);
  });

  it('finds an active category by slug and nothing for an unknown or inactive one', async () => {
    expect(await catalog.categoryBySlug({ slug: 'car' })).toMatchObject({ name: 'Car' });
    expect(await catalog.categoryBySlug({ slug: 'hidden' })).toBeNull();
    expect(await catalog.categoryBySlug({ slug: 'nope' })).toBeNull();
  });

  it('shows at most 6 featured products, newest first, only active ones in active categories', async () => {
    const featured = await catalog.featuredProducts();
    expect(featured.map((p) => p.name)).toEqual(['Featured 8', 'Featured 7', 'Featured 6', 'Featured 5', 'Featured 4', 'Featured 3']);
    expect(featured[0]).toMatchObject({ price: '18.50', category_slug: 'car', category_name: 'Car' });
  });

  it('sorts by newest and by price both ways, with money as fixed strings', async () => {
    const newest = await catalog.products({ sort: 'newest' });
    expect(newest.items.map((p) => p.name)).toEqual([8, 7, 6, 5, 4, 3, 2, 1].map((i) => `Featured ${i}`));
    const low = await catalog.products({ sort: 'price-low' });
    expect(low.items.map((p) => p.price)).toEqual(['11.50', '12.50', '13.50', '14.50', '15.50', '16.50', '17.50', '18.50']);
    const high = await catalog.products({ sort: 'price-high' });
    expect(high.items.map((p) => p.price)).toEqual([...low.items.map((p) => p.price)].reverse());
    expect(newest.nextCursor).toBeNull();
  });

  it('filters by category slug', async () => {
    const moto = await catalog.products({ category: 'motorcycle' });
    expect(moto.items.map((p) => p.name)).toEqual(['Featured 7', 'Featured 5', 'Featured 3', 'Featured 1']);
    expect((await catalog.products({ category: 'hidden' })).items).toEqual([]);
  });

  it('returns a product by slug only when it and its category are active', async () => {
    expect(await catalog.productBySlug({ slug: 'featured-3' })).toMatchObject({
      name: 'Featured 3',
      category_slug: 'motorcycle',
      available_sizes: ['S', 'M', 'L', 'XL', '2XL', '3XL', '4XL'],
      default_mockup_side: 'front',
    });
    expect(await catalog.productBySlug({ slug: 'retired-tee' })).toBeNull();
    expect(await catalog.productBySlug({ slug: 'hidden-category-tee' })).toBeNull();
  });

  it('rejects a page size over 100', async () => {
    await expect(catalog.products({ limit: 1000 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('treats a garbled cursor as the first page', async () => {
    const page = await catalog.products({ cursor: 'not-a-cursor', limit: 2 });
    expect(page.items.map((p) => p.name)).toEqual(['Featured 8', 'Featured 7']);
  });
});

describe('keyset paging over a larger catalog', () => {
  it('walks every product exactly once in order, even with equal prices and timestamps', async () => {
    const categoryId = await insertCategory('bulk', 10);
    // 60 products sharing 3 prices, inserted in one statement (one identical created_at).
    await database.db
      .insertInto('products')
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          sku_number: `BULK-${i}`,
          slug: `bulk-${i}`,
          name: `Bulk ${i}`,
          description: 'bulk',
          price: ['19.99', '24.99', '29.99'][i % 3]!,
          front_art_url: '/storage/product-art/a.png',
          category_id: categoryId,
        })),
      )
      .execute();

    for (const sort of ['newest', 'price-low', 'price-high'] as const) {
      const seen: { name: string; price: string }[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 20; pages++) {
        const page = await catalog.products({ category: 'bulk', sort, limit: 7, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(seen).toHaveLength(60);
      expect(new Set(seen.map((p) => p.name)).size).toBe(60);
      const prices = seen.map((p) => Number(p.price));
      if (sort === 'price-low') expect(prices).toEqual([...prices].sort((a, b) => a - b));
      if (sort === 'price-high') expect(prices).toEqual([...prices].sort((a, b) => b - a));
    }
  });
});
