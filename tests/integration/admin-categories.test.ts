import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import * as messages from '../../src/shared/schemas/admin-categories';
import { callerFor, routerOverHttp, sharedCallers, sharedTestApp } from '../support/app';
import { trpcFailure } from '../support/async';
import { emptyTables } from '../support/db';
import { createCustomer, createMembership, createPlan, createProduct } from '../support/factories';

// admin.categories.*: the inline form's rules, the order (insert last, move up/down, delete closes
// the gap) under concurrency, and the refusal to delete a category that still has products.
// Through callers; over HTTP where a test checks the status code or the field errors.

const t = sharedTestApp();
const as = sharedCallers(t);

beforeEach(() => emptyTables(t.db, 'products', 'categories'));

const http = routerOverHttp(t, 'admin.categories', { cookie: () => as.cookies.admin, queries: ['list'] });

const valid = (n: number | string) => ({
  name: `Category ${n}`,
  slug: `category-${n}`,
  description: `All about ${n}`,
  image_url: `/storage/categories/${n}.png`,
});

const create = (n: number | string) => as.admin.admin.categories.create(valid(n));

const orderInDb = async () =>
  (await t.db.selectFrom('categories').select(['slug', 'sort_order']).orderBy('sort_order').execute()).map((r) => [r.slug, r.sort_order]);

const backendCount = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database()`.execute(t.db)).rows[0]!.n;

const addProduct = (categoryId: string, sku: string) => createProduct(t.db, { category_id: categoryId, sku_number: sku });

describe('create', () => {
  it('stores the category active, last in the order (max + 1), and lists it', async () => {
    await create(1);
    const second = await create(2);
    expect(second).toMatchObject({ ...valid(2), is_active: true, sort_order: 2 });
    const list = await as.admin.admin.categories.list();
    expect(list.map((c) => [c.slug, c.sort_order, c.product_count])).toEqual([
      ['category-1', 1, 0],
      ['category-2', 2, 0],
    ]);
  });

  it('accepts an absolute https image URL and trims the text fields', async () => {
    const row = await as.admin.admin.categories.create({ ...valid(3), name: '  Trimmed  ', image_url: 'https://cdn.example.com/a.png' });
    expect(row).toMatchObject({ name: 'Trimmed', image_url: 'https://cdn.example.com/a.png' });
  });

  it.each([
    ['name', { name: '   ' }, 'Name is required'],
    ['slug', { slug: '' }, 'Slug is required'],
    ['slug', { slug: 'Not A Slug' }, messages.INVALID_SLUG],
    ['slug', { slug: 'double--hyphen' }, messages.INVALID_SLUG],
    ['description', { description: '' }, 'Description is required'],
    ['image_url', { image_url: '' }, 'Image URL is required'],
    ['image_url', { image_url: 'javascript:alert(1)' }, messages.INVALID_URL],
    ['image_url', { image_url: '//evil.example/x.png' }, messages.INVALID_URL],
  ])('refuses a bad %s (%j) with "%s" and stores nothing', async (field, change, message) => {
    const res = await http('create', { ...valid(9), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe(message);
    expect(res.error?.data.fieldErrors?.[field]).toEqual([message]);
    expect(await orderInDb()).toEqual([]);
  });

  it('refuses a duplicate slug clearly and stores nothing', async () => {
    await create(1);
    const res = await http('create', { ...valid(2), slug: 'category-1' });
    expect(res.statusCode).toBe(409);
    expect(res.error?.message).toBe(messages.CATEGORY_SLUG_TAKEN);
    // Named as the slug field's error, so the form shows it there.
    expect(res.error?.data.fieldErrors).toEqual({ slug: [messages.CATEGORY_SLUG_TAKEN] });
    expect(await orderInDb()).toEqual([['category-1', 1]]);
  });

  it('gives parallel inserts distinct, gap-free places', async () => {
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => create(i)));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill('fulfilled'));
    expect((await orderInDb()).map(([, order]) => order)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });
});

describe('update and activate', () => {
  it('edits every field', async () => {
    const row = await create(1);
    const updated = await as.admin.admin.categories.update({ id: row.id, updatedAt: row.updated_at, ...valid('edited') });
    expect(updated).toMatchObject({ id: row.id, ...valid('edited'), sort_order: 1 });
  });

  it('refuses invalid edits, a taken slug and an unknown id, changing nothing', async () => {
    const a = await create(1);
    await create(2);
    const updatedAt = a.updated_at;
    expect((await http('update', { id: a.id, updatedAt, ...valid(1), description: ' ' })).error?.message).toBe('Description is required');
    const taken = await http('update', { id: a.id, updatedAt, ...valid(1), slug: 'category-2' });
    expect([taken.statusCode, taken.error?.message]).toEqual([409, messages.CATEGORY_SLUG_TAKEN]);
    const missing = await http('update', { id: '00000000-0000-4000-8000-000000000000', updatedAt, ...valid(3) });
    expect([missing.statusCode, missing.error?.message]).toEqual([404, messages.CATEGORY_NOT_FOUND]);
    expect(await t.db.selectFrom('categories').select(['slug', 'description']).where('id', '=', a.id).executeTakeFirst()).toEqual({
      slug: 'category-1',
      description: 'All about 1',
    });
  });

  it('refuses to save a form opened before the category was changed elsewhere, keeping that change', async () => {
    const row = await create(1);
    // Another admin (or tab) saves a new description while this form is open with the old one.
    await as.admin.admin.categories.update({ id: row.id, updatedAt: row.updated_at, ...valid(1), description: 'Theirs' });
    const stale = await http('update', { id: row.id, updatedAt: row.updated_at, ...valid(1), name: 'Mine' });
    expect([stale.statusCode, stale.error?.message]).toEqual([409, messages.CATEGORY_CHANGED_ELSEWHERE]);
    expect(await t.db.selectFrom('categories').select(['name', 'description']).where('id', '=', row.id).executeTakeFirst()).toEqual({
      name: 'Category 1',
      description: 'Theirs',
    });
  });

  it('saves a form opened before the category only moved in the order or was switched off: neither is what the form edits', async () => {
    const [above, row] = [await create('above'), await create('row'), await create('below')];
    // While the form is open: the category moves down, the one above it is deleted (the gap
    // closes), and another admin deactivates it.
    expect(await as.admin.admin.categories.move({ id: row.id, direction: 'down' })).toEqual({ moved: true });
    await as.admin.admin.categories.delete({ id: above.id });
    expect(await orderInDb()).toEqual([
      ['category-below', 1],
      ['category-row', 2],
    ]);
    await as.admin.admin.categories.setActive({ id: row.id, is_active: false });
    const saved = await as.admin.admin.categories.update({ id: row.id, updatedAt: row.updated_at, ...valid('row'), name: 'Renamed' });
    expect(saved).toMatchObject({ name: 'Renamed', sort_order: 2, is_active: false });
  });

  it('deactivates and reactivates; the storefront only lists active categories', async () => {
    const row = await create(1);
    expect((await as.admin.admin.categories.setActive({ id: row.id, is_active: false })).is_active).toBe(false);
    const storefront = await as.anonymous.catalog.categories();
    expect(storefront.map((c) => c.slug)).not.toContain('category-1');
    expect((await as.admin.admin.categories.setActive({ id: row.id, is_active: true })).is_active).toBe(true);
    const again = await as.anonymous.catalog.categories();
    expect(again.map((c) => c.slug)).toContain('category-1');
  });
});

describe('move up and move down', () => {
  it('swaps sort_order with the neighbour; at the ends nothing moves', async () => {
    const move = as.admin.admin.categories.move;
    const [a, b, c] = [await create('a'), await create('b'), await create('c')];
    expect(await move({ id: c.id, direction: 'up' })).toEqual({ moved: true });
    expect(await orderInDb()).toEqual([
      ['category-a', 1],
      ['category-c', 2],
      ['category-b', 3],
    ]);
    expect(await move({ id: a.id, direction: 'down' })).toEqual({ moved: true });
    expect(await orderInDb()).toEqual([
      ['category-c', 1],
      ['category-a', 2],
      ['category-b', 3],
    ]);
    expect(await move({ id: c.id, direction: 'up' })).toEqual({ moved: false });
    expect(await move({ id: b.id, direction: 'down' })).toEqual({ moved: false });
    expect((await http('move', { id: b.id, direction: 'sideways' })).statusCode).toBe(400);
    expect((await trpcFailure(move({ id: '00000000-0000-4000-8000-000000000000', direction: 'up' }))).message).toBe(
      messages.CATEGORY_NOT_FOUND,
    );
  });

  it('skips over gaps left by older data: the neighbour is the next row, not sort_order ± 1', async () => {
    const [a, b] = [await create('a'), await create('b')];
    await t.db.updateTable('categories').set({ sort_order: 10 }).where('id', '=', b.id).execute();
    await as.admin.admin.categories.move({ id: a.id, direction: 'down' });
    expect(await orderInDb()).toEqual([
      ['category-b', 1],
      ['category-a', 10],
    ]);
  });

  it('keeps sort_order unique and gap-free when many moves run at once, also from a second app process', async () => {
    const rows: { id: string }[] = [];
    for (let i = 0; i < 6; i++) rows.push(await create(i));
    // On PostgreSQL a second pool of its own plays the second admin's server process.
    const url = (t.database as DatabaseHandle & { url?: string }).url;
    const backendsBefore = await backendCount();
    const second = url ? await openDatabase({ databaseUrl: url }) : undefined;
    try {
      const other = second ? callerFor(second, t.config, as.users.admin).caller : as.admin;
      const moves = Array.from({ length: 20 }, (_, i) => {
        const row = rows[(i * 7) % rows.length]!;
        const input = { id: row.id, direction: i % 3 === 0 ? ('down' as const) : ('up' as const) };
        return (i % 2 === 1 ? other : as.admin).admin.categories.move(input);
      });
      const results = await Promise.allSettled(moves);
      expect(results.map((r) => r.status)).toEqual(Array(20).fill('fulfilled'));
      const order = (await orderInDb()).map(([, n]) => n);
      expect(order).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      if (second) {
        await second.close();
        // pg's pool.end() resolves before the server has ended its backends; wait for them, so
        // dropping the test database later does not kill them under the closed pool.
        await expect.poll(backendCount, { timeout: 5000 }).toBeLessThanOrEqual(backendsBefore);
      }
    }
  });
});

describe('delete', () => {
  it('deletes an empty category and closes the gap in the order', async () => {
    const [, b] = [await create('a'), await create('b'), await create('c')];
    expect(await as.admin.admin.categories.delete({ id: b.id })).toEqual({ deleted: true });
    expect(await orderInDb()).toEqual([
      ['category-a', 1],
      ['category-c', 2],
    ]);
    const next = await create('d');
    expect(next.sort_order).toBe(3);
  });

  it("takes a deleted category out of club members' choices, keeping their others", async () => {
    const [gone, kept] = [await create('gone'), await create('kept')];
    const plan = await createPlan(t.db);
    const member = (categoryIds: string[]) =>
      createCustomer(t.db).then((customer) =>
        createMembership(t.db, { customerId: customer.id, plan, startsOn: '2027-01-01', category_ids: categoryIds }),
      );
    const [both, onlyGone, onlyKept] = [await member([gone.id, kept.id]), await member([gone.id]), await member([kept.id])];
    await as.admin.admin.categories.delete({ id: gone.id });
    const choices = async (id: string) =>
      (await t.db.selectFrom('subscriptions').select('category_ids').where('id', '=', id).executeTakeFirstOrThrow()).category_ids;
    expect(await choices(both.id)).toEqual([kept.id]);
    // None left: shirts of every category, as for a member who chose none.
    expect(await choices(onlyGone.id)).toEqual([]);
    expect(await choices(onlyKept.id)).toEqual([kept.id]);
  });

  it('refuses a category that still has products, saying how many and what to do, and deletes nothing', async () => {
    const row = await create('busy');
    await addProduct(row.id, 'SKU-1');
    await addProduct(row.id, 'SKU-2');
    expect((await as.admin.admin.categories.list())[0]?.product_count).toBe(2);
    const res = await http('delete', { id: row.id });
    expect(res.statusCode).toBe(412);
    expect(res.error?.message).toBe(messages.categoryInUseMessage('Category busy', 2));
    expect(res.error?.message).toBe(
      '"Category busy" still has 2 products. Move them to another category or delete them first, or deactivate the category instead.',
    );
    expect(await orderInDb()).toEqual([['category-busy', 1]]);
    expect(await t.db.selectFrom('products').select('sku_number').orderBy('sku_number').execute()).toEqual([
      { sku_number: 'SKU-1' },
      { sku_number: 'SKU-2' },
    ]);
  });

  it('says "1 product" for one, and not found for an unknown id', async () => {
    const row = await create('one');
    await addProduct(row.id, 'SKU-3');
    const remove = as.admin.admin.categories.delete;
    expect((await trpcFailure(remove({ id: row.id }))).message).toContain('still has 1 product.');
    expect((await trpcFailure(remove({ id: '00000000-0000-4000-8000-000000000000' }))).message).toBe(messages.CATEGORY_NOT_FOUND);
  });
});

describe('permission', () => {
  it('refuses customers and anonymous callers and writes nothing', async () => {
    const asCustomer = await http('create', valid('x'), as.cookies.customer);
    expect([asCustomer.statusCode, asCustomer.error?.data.code]).toEqual([403, 'FORBIDDEN']);
    expect((await trpcFailure(as.anonymous.admin.categories.create(valid('y')))).code).toBe('UNAUTHORIZED');
    expect((await http('list', undefined, as.cookies.customer)).statusCode).toBe(403);
    expect(await orderInDb()).toEqual([]);
  });
});
