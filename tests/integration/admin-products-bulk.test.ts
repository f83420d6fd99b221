import { beforeEach, describe, expect, it } from 'vitest';
import { callerAs, callTrpc, sharedTestApp, signInHttp, type Caller } from '../support/app';
import { createAdmin, createCategory, createCustomer, createOrder, createProduct } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';

// admin.products.bulk and bulkDeletePreview: each action over chosen products or every product the
// list's filters show, in one transaction; refusals change nothing; the storefront sees the change
// at once through the catalog cache.

const t = sharedTestApp();
const adminUser = sharedBeforeAll(() => createAdmin(t.db));
let admin: Caller;
let shirts: string;
let hoodies: string;
let ids: { moto: string; wave: string; faith: string };

beforeEach(async () => {
  admin = callerAs(t, adminUser);
  await t.db.deleteFrom('orders').execute();
  await t.db.deleteFrom('products').execute();
  await t.db.deleteFrom('categories').execute();
  shirts = (await createCategory(t.db, { name: 'Shirts', slug: 'shirts' })).id;
  hoodies = (await createCategory(t.db, { name: 'Hoodies', slug: 'hoodies' })).id;
  const product = (name: string, price: string, tags: string[]) =>
    createProduct(t.db, {
      name,
      description: `The ${name}`,
      slug: name.toLowerCase().replace(/ /g, '-'),
      price,
      tags,
      category_id: shirts,
    }).then((p) => p.id);
  ids = {
    moto: await product('Moto Tee', '19.99', ['moto']),
    wave: await product('Wave Tee', '10.00', []),
    faith: await product('Faith Hoodie', '0.50', ['faith']),
  };
});

const products = () => t.db.selectFrom('products').select(['name', 'price', 'is_active', 'category_id', 'tags']).orderBy('name').execute();
const byName = async () => Object.fromEntries((await products()).map((p) => [p.name, p]));

describe('admin.products.bulk', () => {
  it('sets chosen products inactive and active again', async () => {
    expect(
      await admin.admin.products.bulk({ target: { ids: [ids.moto, ids.wave] }, action: { kind: 'set_active', isActive: false } }),
    ).toEqual({
      changed: 2,
      deleted: 0,
      deactivated: 0,
    });
    expect((await products()).map((p) => [p.name, p.is_active])).toEqual([
      ['Faith Hoodie', true],
      ['Moto Tee', false],
      ['Wave Tee', false],
    ]);
    await admin.admin.products.bulk({ target: { ids: [ids.moto] }, action: { kind: 'set_active', isActive: true } });
    expect((await byName())['Moto Tee']!.is_active).toBe(true);
  });

  it('refuses to make active a product with no colour on offer in any size, and changes nothing', async () => {
    await admin.admin.products.bulk({ target: { ids: [ids.moto, ids.wave] }, action: { kind: 'set_active', isActive: false } });
    await t.db.updateTable('product_variants').set({ is_enabled: false }).where('product_id', '=', ids.wave).execute();
    await expect(
      admin.admin.products.bulk({ target: { ids: [ids.moto, ids.wave] }, action: { kind: 'set_active', isActive: true } }),
    ).rejects.toThrow('Wave Tee: An active product needs at least one colour in at least one size');
    expect((await products()).map((p) => [p.name, p.is_active])).toEqual([
      ['Faith Hoodie', true],
      ['Moto Tee', false],
      ['Wave Tee', false],
    ]);
  });

  it('applies to every product the filters show when asked for all matching', async () => {
    const result = await admin.admin.products.bulk({
      target: { matching: { search: 'tee' } },
      action: { kind: 'move_to_category', categoryId: hoodies },
    });
    expect(result.changed).toBe(2);
    const rows = await byName();
    expect([rows['Moto Tee']!.category_id, rows['Wave Tee']!.category_id, rows['Faith Hoodie']!.category_id]).toEqual([
      hoodies,
      hoodies,
      shirts,
    ]);
  });

  it('refuses a category that does not exist, changing nothing', async () => {
    const before = await products();
    await expect(
      admin.admin.products.bulk({
        target: { ids: [ids.moto] },
        action: { kind: 'move_to_category', categoryId: '00000000-0000-4000-8000-000000000000' },
      }),
    ).rejects.toThrow('Category is required');
    expect(await products()).toEqual(before);
  });

  it('changes prices: set, raise and lower by an amount or %, rounded to cents, never below $0.01', async () => {
    const target = { ids: [ids.moto, ids.wave, ids.faith] };
    const prices = async () => Object.fromEntries((await products()).map((p) => [p.name, p.price]));
    await admin.admin.products.bulk({ target, action: { kind: 'change_price', change: 'raise_percent', amount: 10 } });
    expect(await prices()).toEqual({ 'Moto Tee': '21.99', 'Wave Tee': '11.00', 'Faith Hoodie': '0.55' }); // 21.989 → 21.99
    await admin.admin.products.bulk({ target, action: { kind: 'change_price', change: 'lower_amount', amount: 1 } });
    expect(await prices()).toEqual({ 'Moto Tee': '20.99', 'Wave Tee': '10.00', 'Faith Hoodie': '0.01' });
    await admin.admin.products.bulk({ target, action: { kind: 'change_price', change: 'lower_percent', amount: 33 } });
    expect(await prices()).toEqual({ 'Moto Tee': '14.06', 'Wave Tee': '6.70', 'Faith Hoodie': '0.01' }); // 14.0633, 6.7
    await admin.admin.products.bulk({ target, action: { kind: 'change_price', change: 'raise_amount', amount: 0.5 } });
    expect(await prices()).toEqual({ 'Moto Tee': '14.56', 'Wave Tee': '7.20', 'Faith Hoodie': '0.51' });
    await admin.admin.products.bulk({ target: { ids: [ids.wave] }, action: { kind: 'change_price', change: 'set', amount: 25 } });
    expect((await prices())['Wave Tee']).toBe('25.00');
  });

  it('refuses a price change of nothing, of part of a cent, too large or over 1000%', async () => {
    const before = await products();
    const change = (changeKind: 'set' | 'raise_percent' | 'raise_amount', amount: number) =>
      admin.admin.products.bulk({ target: { ids: [ids.moto] }, action: { kind: 'change_price', change: changeKind, amount } });
    await expect(change('set', 0)).rejects.toThrow('Enter an amount above 0');
    await expect(change('set', 1.234)).rejects.toThrow('Use whole cents');
    await expect(change('raise_percent', 1001)).rejects.toThrow('Change prices by at most 1000%');
    await expect(change('raise_amount', 99_999_999)).rejects.toThrow('Price is too large');
    expect(await products()).toEqual(before);
  });

  it('adds a tag once and removes it', async () => {
    const target = { ids: [ids.moto, ids.wave] };
    await admin.admin.products.bulk({ target, action: { kind: 'add_tag', tag: ' moto ' } });
    let rows = await byName();
    expect([rows['Moto Tee']!.tags, rows['Wave Tee']!.tags, rows['Faith Hoodie']!.tags]).toEqual([['moto'], ['moto'], ['faith']]);
    await admin.admin.products.bulk({ target: { matching: {} }, action: { kind: 'remove_tag', tag: 'moto' } });
    rows = await byName();
    expect([rows['Moto Tee']!.tags, rows['Wave Tee']!.tags, rows['Faith Hoodie']!.tags]).toEqual([[], [], ['faith']]);
  });

  it('refuses an empty tag, and a tag that would be a product’s 51st', async () => {
    await t.db
      .updateTable('products')
      .set({ tags: Array.from({ length: 50 }, (_, i) => `t${i}`) })
      .where('id', '=', ids.wave)
      .execute();
    const before = await products();
    await expect(admin.admin.products.bulk({ target: { ids: [ids.moto] }, action: { kind: 'add_tag', tag: '  ' } })).rejects.toThrow(
      'Enter a tag',
    );
    await expect(
      admin.admin.products.bulk({ target: { ids: [ids.moto, ids.wave] }, action: { kind: 'add_tag', tag: 'new' } }),
    ).rejects.toThrow('1 product has 50 tags already');
    expect(await products()).toEqual(before);
  });

  it('deletes products without orders and makes those with orders inactive, as the preview says', async () => {
    const customer = await createCustomer(t.db, { email: 'buyer@example.com' });
    await createOrder(t.db, { customer_id: customer.id }, [
      { product_id: ids.moto, product_name: 'Moto Tee', size: 'M', quantity: 1, unit_price: '19.99', total_price: '19.99' },
    ]);
    const target = { ids: [ids.moto, ids.wave] };
    expect(await admin.admin.products.bulkDeletePreview(target)).toEqual({ total: 2, withOrders: 1 });
    expect(await admin.admin.products.bulk({ target, action: { kind: 'delete' } })).toEqual({ changed: 0, deleted: 1, deactivated: 1 });
    expect((await products()).map((p) => [p.name, p.is_active])).toEqual([
      ['Faith Hoodie', true],
      ['Moto Tee', false],
    ]);
  });

  it('refuses an empty choice and more ids than allowed', async () => {
    await expect(admin.admin.products.bulk({ target: { ids: [] }, action: { kind: 'delete' } })).rejects.toThrow(
      'Choose at least one product',
    );
    const many = Array.from({ length: 1001 }, () => crypto.randomUUID());
    await expect(admin.admin.products.bulk({ target: { ids: many }, action: { kind: 'delete' } })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await products()).toHaveLength(3);
  });

  it('is refused to customers and to visitors', async () => {
    const customer = callerAs(t, await createCustomer(t.db, { email: 'nosy@example.com' }));
    await expect(customer.admin.products.bulk({ target: { ids: [ids.moto] }, action: { kind: 'delete' } })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(callerAs(t, null).admin.products.bulkDeletePreview({ ids: [ids.moto] })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await products()).toHaveLength(3);
  });

  it('reaches the storefront’s cached catalog at once', async () => {
    const slug = 'moto-tee';
    const price = async () =>
      (await callTrpc<{ price: string } | null>(t.app, 'catalog.productBySlug', { type: 'query', input: { slug } })).data?.price;
    expect(await price()).toBe('19.99');
    const cookie = await signInHttp(t.app, adminUser.email);
    const res = await callTrpc(t.app, 'admin.products.bulk', {
      input: { target: { ids: [ids.moto] }, action: { kind: 'change_price', change: 'set', amount: 21 } },
      cookie,
    });
    expect(res.statusCode).toBe(200);
    expect(await price()).toBe('21.00');
  });
});
