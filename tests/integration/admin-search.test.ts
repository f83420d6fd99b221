import { beforeAll, describe, expect, it } from 'vitest';
import { callerAs, sharedTestApp, type Caller } from '../support/app';
import { createAdmin, createCategory, createCustomer, createOrder, createProduct } from '../support/factories';

// The back office's searches: the Products list finds what the storefront's search finds (typos
// forgiven, name matches first) and what contains the text as typed; the Orders list finds an
// order by its number, its customer's name or email.

const t = sharedTestApp();
let admin: Caller;

beforeAll(async () => {
  admin = callerAs(t, await createAdmin(t.db));
});

describe('admin.products.list search', () => {
  it('forgives typos, ranks name matches first, and still finds text as typed', async () => {
    const category = await createCategory(t.db, { name: 'Motorcycle', slug: 'motorcycle' });
    await createProduct(t.db, { name: 'Open Road Tee', description: 'Made for the motorcycle life', category_id: category.id });
    await createProduct(t.db, { name: 'Motorcycle Club Tee', category_id: category.id, is_active: false });
    await createProduct(t.db, { name: '100% Cotton Plain', sku_number: 'PLAIN-1', description: 'Nothing else' });
    const names = async (search: string) => (await admin.admin.products.list({ search })).items.map((item) => item.name);
    // Inactive products too: it is the admin's list. The one named so comes first.
    expect(await names('motorcyle')).toEqual(['Motorcycle Club Tee', 'Open Road Tee']);
    expect(await names('%')).toEqual(['100% Cotton Plain']);
    expect((await admin.admin.products.list({ search: 'motorcyle' })).total).toBe(2);
  });
});

describe('admin.orders.list search', () => {
  it('finds orders by number, customer name or email, within the status filter', async () => {
    const rita = await createCustomer(t.db, { email: 'rita.rider@example.com', first_name: 'Rita', last_name: 'Rider' });
    const ben = await createCustomer(t.db, { email: 'ben@example.com', first_name: 'Ben', last_name: 'Carter' });
    const ritas = await createOrder(t.db, { customer_id: rita.id, status: 'pending' });
    const bens = await createOrder(t.db, { customer_id: ben.id, status: 'shipped' });
    const numbers = async (input: { search?: string; status?: 'all' | 'shipped' }) =>
      (await admin.admin.orders.list(input)).orders.map((order) => order.order_number).sort();

    expect(await numbers({ search: 'RITA.RIDER@' })).toEqual([ritas.order_number]);
    expect(await numbers({ search: 'ben carter' })).toEqual([bens.order_number]);
    expect(await numbers({ search: bens.order_number.replace('TL-', '') })).toEqual([bens.order_number]);
    expect(await numbers({ search: 'example.com' })).toEqual([ritas.order_number, bens.order_number].sort());
    expect(await numbers({ search: 'example.com', status: 'shipped' })).toEqual([bens.order_number]);
    expect(await numbers({ search: '%' })).toEqual([]);
    const { total, pageCount } = await admin.admin.orders.list({ search: 'rider' });
    expect({ total, pageCount }).toEqual({ total: 1, pageCount: 1 });
  });
});
