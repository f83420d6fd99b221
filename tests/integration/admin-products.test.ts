import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRows } from '../../src/server/db/count';
import type { OrderStatus, PaymentStatus } from '../../src/shared/constants';
import {
  ADMIN_PRODUCTS_PAGE_SIZE,
  ARTWORK_REQUIRED,
  CATEGORY_REQUIRED,
  DUPLICATE_SKU,
  DUPLICATE_SLUG,
  PRODUCT_CHANGED_ELSEWHERE,
  PRODUCT_NOT_FOUND,
  productToPrintMessage,
} from '../../src/shared/schemas/admin-products';
import { callTrpc, routerOverHttp, sharedCallers, sharedTestApp, signInHttp } from '../support/app';
import { emptyTables } from '../support/db';
import { createAdmin, createCustomer, createOrder } from '../support/factories';

// admin.products.*: the paged, searchable list, every rule of docs/PRODUCT.md § Validation on create and update with
// its message (and nothing written), duplicates, toggle, delete, and who may call them.

interface ListResult {
  items: { id: string; sku_number: string; name: string; price: string; category_name: string; is_active: boolean }[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

const t = sharedTestApp();
const as = sharedCallers(t);
let motorcycle: string;
let car: string;

beforeAll(async () => {
  const categories = await t.db
    .insertInto('categories')
    .values([
      { slug: 'motorcycle', name: 'Motorcycle', description: 'Bikes', image_url: '/storage/categories/m.png', sort_order: 1 },
      { slug: 'car', name: 'Car', description: 'Cars', image_url: '/storage/categories/c.png', sort_order: 2, is_active: false },
    ])
    .returning(['id', 'slug'])
    .execute();
  motorcycle = categories.find((c) => c.slug === 'motorcycle')!.id;
  car = categories.find((c) => c.slug === 'car')!.id;
});

beforeEach(() => emptyTables(t.db, 'order_items', 'orders', 'products'));

/** `cookie` '' calls anonymously. */
const call = routerOverHttp(t, 'admin.products', { cookie: () => as.cookies.admin, queries: ['list', 'byId', 'categoryOptions'] });

const valid = (overrides: Record<string, unknown> = {}) => ({
  name: 'Open Road Tee',
  slug: 'open-road-tee',
  sku_number: 'TL-MC-100',
  description: 'A sunset over the highway.',
  price: 24.99,
  category_id: motorcycle,
  front_art_url: '/storage/product-art/front.png',
  back_art_url: '',
  image_url: 'https://cdn.example.com/open-road.png',
  front_mockup_url: '',
  back_mockup_url: null,
  available_sizes: ['S', 'M', 'L', 'XL', '2XL', '3XL', '4XL'],
  tags: [],
  ...overrides,
});

const productCount = () => countRows(t.db.selectFrom('products'));
const storedProduct = (id: string) => t.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** The product's updated_at, as the edit form loads it. */
const loadedAt = async (id: string) => (await storedProduct(id)).updated_at;

async function insertProducts(count: number, make: (i: number) => Record<string, unknown> = () => ({})) {
  const base = Date.parse('2025-01-01T00:00:00Z');
  await t.db
    .insertInto('products')
    .values(
      Array.from({ length: count }, (_, i) => ({
        sku_number: `SKU-${String(i).padStart(3, '0')}`,
        slug: `tee-${i}`,
        name: `Tee ${i}`,
        description: 'Plain tee',
        price: '20.00',
        front_art_url: '/storage/product-art/a.png',
        category_id: motorcycle,
        created_at: new Date(base + i * 60_000),
        ...make(i),
      })),
    )
    .execute();
}

describe('admin.products.list', () => {
  it('pages on the server, newest first, with the total and page count', async () => {
    await insertProducts(ADMIN_PRODUCTS_PAGE_SIZE + 5);
    const first = await call<ListResult>('list', {});
    expect(first.data).toMatchObject({ total: 30, page: 1, pageSize: 25, pageCount: 2 });
    expect(first.data!.items).toHaveLength(25);
    expect(first.data!.items[0]).toMatchObject({ name: 'Tee 29', category_name: 'Motorcycle', price: '20.00', is_active: true });
    const second = await call<ListResult>('list', { page: 2 });
    expect(second.data!.items.map((p) => p.name)).toEqual(['Tee 4', 'Tee 3', 'Tee 2', 'Tee 1', 'Tee 0']);
    // A page past the end (an old link, rows deleted meanwhile) shows the last page, not an empty one.
    const beyond = await call<ListResult>('list', { page: 9 });
    expect(beyond.data).toMatchObject({ total: 30, page: 2, pageCount: 2 });
    expect(beyond.data!.items).toEqual(second.data!.items);
    expect((await call('list', { page: 0 })).error?.data.code).toBe('BAD_REQUEST');
  });

  it('lists inactive products and products of inactive categories too', async () => {
    await insertProducts(2, (i) => (i === 0 ? { is_active: false } : { category_id: car }));
    const res = await call<ListResult>('list', {});
    expect(res.data!.items.map((p) => [p.name, p.is_active, p.category_name])).toEqual([
      ['Tee 1', true, 'Car'],
      ['Tee 0', false, 'Motorcycle'],
    ]);
  });

  it('searches name or description case-insensitively, with % and _ matching only themselves', async () => {
    await insertProducts(
      5,
      (i) =>
        [
          { name: 'Open ROAD Classic' },
          { name: 'Garage Days', description: 'Built for the open road' },
          { name: '100% Cotton Faith' },
          { name: 'Snake_Case Racer' },
          { name: 'Snakes Case Racer' },
        ][i]!,
    );
    const names = async (search: string, extra: Record<string, unknown> = {}) =>
      (await call<ListResult>('list', { search, ...extra })).data!.items.map((p) => p.name).sort();
    expect(await names('open road')).toEqual(['Garage Days', 'Open ROAD Classic']);
    expect(await names('%')).toEqual(['100% Cotton Faith']);
    expect(await names('e_c')).toEqual(['Snake_Case Racer']);
    expect(await names('nothing like this')).toEqual([]);
    const filtered = await call<ListResult>('list', { search: 'racer', page: 1 });
    expect(filtered.data).toMatchObject({ total: 2, pageCount: 1 });
  });

  it('filters by category, also combined with the search', async () => {
    await insertProducts(4, (i) => ({ category_id: i % 2 ? car : motorcycle, name: i < 2 ? `Chrome ${i}` : `Faith ${i}` }));
    const ids = async (input: Record<string, unknown>) => (await call<ListResult>('list', input)).data!.items.map((p) => p.name).sort();
    expect(await ids({ categoryId: car })).toEqual(['Chrome 1', 'Faith 3']);
    expect(await ids({ categoryId: car, search: 'chrome' })).toEqual(['Chrome 1']);
    expect((await call('list', { categoryId: 'not-a-uuid' })).error?.data.code).toBe('BAD_REQUEST');
  });

  it('offers every category, inactive ones included, in sort order', async () => {
    const res = await call<{ name: string; is_active: boolean }[]>('categoryOptions');
    expect(res.data!.map((c) => [c.name, c.is_active])).toEqual([
      ['Motorcycle', true],
      ['Car', false],
    ]);
  });
});

describe('admin.products.create', () => {
  it('stores every field, with tags trimmed and unique, sizes in order, blank URLs as null and the defaults', async () => {
    const res = await call<{ id: string }>(
      'create',
      valid({ tags: [' biker ', 'sunset', 'biker', '  ', 'Sunset'], available_sizes: ['XL', 'XS', 'M', 'XL'], is_featured: true }),
    );
    expect(res.error).toBeUndefined();
    const row = await storedProduct(res.data!.id);
    expect(row).toMatchObject({
      name: 'Open Road Tee',
      slug: 'open-road-tee',
      sku_number: 'TL-MC-100',
      price: '24.99',
      category_id: motorcycle,
      front_art_url: '/storage/product-art/front.png',
      back_art_url: null,
      image_url: 'https://cdn.example.com/open-road.png',
      front_mockup_url: null,
      back_mockup_url: null,
      chest_position: 'full_chest',
      default_mockup_side: 'front',
      available_sizes: ['XS', 'M', 'XL'],
      tags: ['biker', 'sunset', 'Sunset'],
      is_featured: true,
      is_active: true,
    });
    const byId = await call<{ name: string; tags: string[] }>('byId', { id: res.data!.id });
    expect(byId.data).toMatchObject({ name: 'Open Road Tee', tags: ['biker', 'sunset', 'Sunset'] });
  });

  it('accepts back artwork alone, left chest and the back side first', async () => {
    const res = await call<{ id: string }>(
      'create',
      valid({
        front_art_url: null,
        back_art_url: 'https://cdn.example.com/back.webp',
        chest_position: 'left_chest',
        default_mockup_side: 'back',
      }),
    );
    expect(res.error).toBeUndefined();
    const row = await t.db
      .selectFrom('products')
      .select(['front_art_url', 'back_art_url', 'chest_position', 'default_mockup_side'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      front_art_url: null,
      back_art_url: 'https://cdn.example.com/back.webp',
      chest_position: 'left_chest',
      default_mockup_side: 'back',
    });
  });

  it.each([
    ['no artwork at all', { front_art_url: '', back_art_url: null }, ARTWORK_REQUIRED],
    ['a blank name', { name: '   ' }, 'Name is required'],
    ['a blank slug', { slug: '' }, 'Slug is required'],
    ['a slug with capitals and spaces', { slug: 'Open Road' }, 'Slug may contain only lowercase letters, numbers and single hyphens'],
    ['a blank SKU', { sku_number: ' ' }, 'SKU is required'],
    ['a blank description', { description: '' }, 'Description is required'],
    ['a negative price', { price: -1 }, 'Price must be 0 or more'],
    ['a price in fractions of a cent', { price: 10.005 }, 'Price must be in whole cents'],
    ['no price', { price: undefined }, 'Price is required'],
    ['no category', { category_id: '' }, CATEGORY_REQUIRED],
    ['an unknown category', { category_id: '00000000-0000-4000-8000-000000000000' }, CATEGORY_REQUIRED],
    ['an image URL that is not a URL', { image_url: 'not a url' }, 'Image URL must be a valid URL'],
    ['a script URL as artwork', { front_art_url: 'javascript:alert(1)' }, 'Front artwork URL must be a valid URL'],
    ['a relative path outside storage', { back_mockup_url: '../etc/passwd' }, 'Back mockup URL must be a valid URL'],
    ['a size outside the set', { available_sizes: ['M', 'XXL'] }, 'Choose sizes from XS to 4XL'],
    ['no size', { available_sizes: [] }, 'Choose at least one size'],
  ])('refuses %s with its message and writes nothing', async (_case, overrides, message) => {
    const res = await call('create', valid(overrides));
    expect(res.error?.data.code).toBe('BAD_REQUEST');
    expect(res.error?.message).toBe(message);
    expect(await productCount()).toBe(0);
  });

  it('refuses a duplicate SKU or slug with a clear message and keeps the first product only', async () => {
    expect((await call('create', valid())).error).toBeUndefined();
    const sameSku = await call('create', valid({ slug: 'other-slug' }));
    expect(sameSku.error).toMatchObject({
      message: DUPLICATE_SKU,
      data: { code: 'CONFLICT', fieldErrors: { sku_number: [DUPLICATE_SKU] } },
    });
    const sameSlug = await call('create', valid({ sku_number: 'TL-MC-200' }));
    expect(sameSlug.error).toMatchObject({ message: DUPLICATE_SLUG, data: { code: 'CONFLICT', fieldErrors: { slug: [DUPLICATE_SLUG] } } });
    expect(await productCount()).toBe(1);
  });
});

describe('admin.products.update, setActive and delete', () => {
  async function createOne(overrides: Record<string, unknown> = {}) {
    const res = await call<{ id: string }>('create', valid(overrides));
    if (!res.data) throw new Error(JSON.stringify(res.error));
    return res.data.id;
  }

  it('updates every field and the updated_at time', async () => {
    const id = await createOne();
    const before = await storedProduct(id);
    const res = await call('update', {
      id,
      updatedAt: before.updated_at,
      ...valid({
        name: 'Night Ride',
        slug: 'night-ride',
        price: 30,
        category_id: car,
        tags: ['night'],
        is_active: false,
        front_art_url: '',
        back_art_url: '/storage/product-art/b.png',
      }),
    });
    expect(res.error).toBeUndefined();
    const row = await storedProduct(id);
    expect(row).toMatchObject({
      name: 'Night Ride',
      slug: 'night-ride',
      price: '30.00',
      category_id: car,
      tags: ['night'],
      is_active: false,
      front_art_url: null,
      back_art_url: '/storage/product-art/b.png',
    });
    expect(Date.parse(row.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
  });

  it('applies the same rules on update, and refuses duplicates of another product', async () => {
    const id = await createOne();
    await createOne({ sku_number: 'TL-MC-200', slug: 'second-tee' });
    const updatedAt = await loadedAt(id);
    const noArt = await call('update', { id, updatedAt, ...valid({ front_art_url: null, back_art_url: '' }) });
    expect(noArt.error?.message).toBe(ARTWORK_REQUIRED);
    const dupSku = await call('update', { id, updatedAt, ...valid({ sku_number: 'TL-MC-200' }) });
    expect(dupSku.error?.message).toBe(DUPLICATE_SKU);
    const dupSlug = await call('update', { id, updatedAt, ...valid({ slug: 'second-tee' }) });
    expect(dupSlug.error?.message).toBe(DUPLICATE_SLUG);
    expect(await storedProduct(id)).toMatchObject({
      sku_number: 'TL-MC-100',
      slug: 'open-road-tee',
      front_art_url: '/storage/product-art/front.png',
    });
  });

  it('refuses to save over a change made since the form loaded (mockups saved in another tab), and changes nothing', async () => {
    const id = await createOne();
    const loaded = await loadedAt(id);
    // Another tab saves the product's mockups meanwhile.
    await t.db
      .updateTable('products')
      .set({ front_mockup_url: '/storage/mockups/new-front.png', image_url: '/storage/mockups/new-front.png', updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    const stale = await call('update', { id, updatedAt: loaded, ...valid({ price: 31 }) });
    expect(stale.error).toMatchObject({ message: PRODUCT_CHANGED_ELSEWHERE, data: { code: 'CONFLICT' } });
    expect(await storedProduct(id)).toMatchObject({
      price: '24.99',
      front_mockup_url: '/storage/mockups/new-front.png',
    });
    // Reloaded, the same save goes through.
    expect((await call('update', { id, updatedAt: await loadedAt(id), ...valid({ price: 31 }) })).error).toBeUndefined();
  });

  it('answers NOT_FOUND for a product that does not exist', async () => {
    const missing = '00000000-0000-4000-8000-000000000001';
    for (const [procedure, input] of [
      ['byId', { id: missing }],
      ['update', { id: missing, updatedAt: '2026-01-01T00:00:00Z', ...valid() }],
      ['setActive', { id: missing, isActive: false }],
      ['delete', { id: missing }],
    ] as const) {
      const res = await call(procedure, input);
      expect(res.error, procedure).toMatchObject({ message: PRODUCT_NOT_FOUND, data: { code: 'NOT_FOUND' } });
    }
    expect(await productCount()).toBe(0);
  });

  it('deactivates and activates a product', async () => {
    const id = await createOne();
    const off = await call<{ is_active: boolean }>('setActive', { id, isActive: false });
    expect(off.data).toEqual({ id, is_active: false });
    expect((await storedProduct(id)).is_active).toBe(false);
    // The storefront no longer lists it.
    const shop = await callTrpc<{ items: unknown[] }>(t.app, 'catalog.products', { type: 'query', input: {} });
    expect(shop.data!.items).toHaveLength(0);
    await call('setActive', { id, isActive: true });
    expect((await storedProduct(id)).is_active).toBe(true);
  });

  /** An order with one line of the product, still to print. */
  const orderOf = async (productId: string, status: OrderStatus = 'pending', payment_status: PaymentStatus = 'pending') =>
    createOrder(t.db, { customer_id: (await createCustomer(t.db)).id, subtotal: '24.99', total: '24.99', status, payment_status }, [
      { product_id: productId, product_name: 'Open Road Tee', size: 'M', quantity: 1, unit_price: '24.99', total_price: '24.99' },
    ]);

  it('deletes a product; order lines keep their copy of it', async () => {
    const id = await createOne();
    await orderOf(id);

    // Its line is still to print: the print shop needs the product's SKU and artwork.
    const refused = await call('delete', { id });
    expect([refused.statusCode, refused.error?.message]).toEqual([412, productToPrintMessage('Open Road Tee', 1)]);
    expect(await productCount()).toBe(1);

    await t.db.updateTable('order_items').set({ print_status: 'ready' }).execute();
    expect((await call('delete', { id })).data).toEqual({ id });
    expect(await productCount()).toBe(0);
    const line = await t.db.selectFrom('order_items').select(['product_id', 'product_name']).executeTakeFirstOrThrow();
    expect(line).toEqual({ product_id: null, product_name: 'Open Road Tee' });
  });

  it('deletes a product whose lines will never be printed: cancelled orders, failed or refunded payments', async () => {
    const id = await createOne();
    await orderOf(id, 'cancelled');
    await orderOf(id, 'pending', 'failed');
    await orderOf(id, 'processing', 'refunded');
    expect((await call('delete', { id })).data).toEqual({ id });
  });
});

describe('who may call admin.products', () => {
  it('refuses customers (FORBIDDEN) and anonymous callers (UNAUTHORIZED), writing nothing', async () => {
    for (const [cookie, code] of [
      [as.cookies.customer, 'FORBIDDEN'],
      ['', 'UNAUTHORIZED'],
    ] as const) {
      expect((await call('list', {}, cookie)).error?.data.code).toBe(code);
      expect((await call('create', valid(), cookie)).error?.data.code).toBe(code);
    }
    expect(await productCount()).toBe(0);
  });

  it('stops working for an admin at once after a demotion', async () => {
    const email = `former-${Date.now()}@example.com`;
    const userId = (await createAdmin(t.db, { email })).id;
    const cookie = await signInHttp(t.app, email);
    expect((await call('list', {}, cookie)).error).toBeUndefined();
    await t.db.updateTable('customers').set({ is_admin: false }).where('id', '=', userId).execute();
    expect((await call('create', valid(), cookie)).error?.data.code).toBe('FORBIDDEN');
    expect(await productCount()).toBe(0);
  });
});
