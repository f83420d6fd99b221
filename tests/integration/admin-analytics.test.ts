import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { callerAs, sharedTestApp, type Caller } from '../support/app';
import {
  createAdmin,
  createCategory,
  createCustomer,
  createMembership,
  createOrder,
  createPlan,
  createProduct,
} from '../support/factories';

// admin.analytics.overview on a hand-built store: paid, refunded, unpaid and discounted orders,
// orders on either side of midnight in UTC and in Tokyo, and club memberships joining and ending.
// Every figure is worked out by hand below; the rollups the triggers keep are also checked
// against a rebuild from the orders after inserts, updates and deletes.

const t = sharedTestApp();
const NOW = new Date('2026-03-15T12:00:00Z');
let admin: Caller;
let p1: string;
let p2: string;

const RANGE = { range: 'custom', from: '2026-03-01', to: '2026-03-10' } as const;

beforeAll(async () => {
  admin = callerAs(t, await createAdmin(t.db), { clock: { now: () => NOW } });
  const [a, b, c, d] = await Promise.all(['a', 'b', 'c', 'd'].map((name) => createCustomer(t.db, { email: `${name}@example.com` })));
  const shirts = await createCategory(t.db, { name: 'Shirts', slug: 'shirts' });
  const hoodies = await createCategory(t.db, { name: 'Hoodies', slug: 'hoodies' });
  p1 = (await createProduct(t.db, { name: 'Moto Tee', category_id: shirts.id, price: '20.00' })).id;
  p2 = (await createProduct(t.db, { name: 'Wave Hoodie', category_id: hoodies.id, price: '25.00' })).id;
  const line = (productId: string, quantity: number, total: string) => ({
    product_id: productId,
    product_name: 'x',
    size: 'M' as const,
    quantity,
    unit_price: '1.00',
    total_price: total,
  });
  const paid = (customerId: string, paidAt: string, total: string, lines: ReturnType<typeof line>[] = []) =>
    createOrder(
      t.db,
      { customer_id: customerId, payment_status: 'paid', paid_at: paidAt, created_at: paidAt, subtotal: total, total },
      lines,
    );

  await paid(a!.id, '2026-02-20T10:00:00Z', '50.00', [line(p1, 2, '40.00')]); // before the range: A returns
  await paid(a!.id, '2026-03-02T10:00:00Z', '30.00', [line(p1, 1, '20.00')]);
  const refunded = await paid(b!.id, '2026-03-03T10:00:00Z', '100.00', [line(p2, 3, '90.00')]);
  await t.db
    .updateTable('orders')
    .set({ payment_status: 'refunded', refunded_at: '2026-03-05T10:00:00Z' })
    .where('id', '=', refunded.id)
    .execute();
  await paid(c!.id, '2026-03-10T23:30:00Z', '25.00', [line(p2, 1, '25.00')]); // Mar 11 in Tokyo
  await createOrder(t.db, { customer_id: c!.id, payment_status: 'pending', created_at: '2026-03-04T10:00:00Z', total: '40.00' });
  // A $15 discount: the order's total is what was paid.
  await createOrder(
    t.db,
    { customer_id: b!.id, payment_status: 'paid', paid_at: '2026-03-04T10:00:00Z', subtotal: '60.00', discount: '15.00', total: '45.00' },
    [line(p1, 3, '60.00')],
  );
  await paid(d!.id, '2026-02-28T20:00:00Z', '10.00'); // Mar 1 in Tokyo

  const plan = await createPlan(t.db, { price: '20.00' });
  const quarterly = await createPlan(t.db, { price: '30.00', billing_interval: 'quarterly' });
  await createMembership(t.db, { customerId: a!.id, plan, startsOn: '2026-01-01', created_at: '2026-01-01T00:00:00Z' });
  await createMembership(t.db, {
    customerId: b!.id,
    plan: quarterly,
    startsOn: '2026-01-15',
    created_at: '2026-01-15T00:00:00Z',
    status: 'cancelled',
    cancelled_at: '2026-03-05T00:00:00Z',
  });
  await createMembership(t.db, {
    customerId: c!.id,
    plan: { ...plan, price: '15.00' },
    startsOn: '2026-03-02',
    created_at: '2026-03-02T00:00:00Z',
  });
});

async function rollups() {
  const [days, customers, products] = await Promise.all([
    t.db.selectFrom('sales_days').selectAll().where('orders', '<>', 0).orderBy('day').execute(),
    t.db.selectFrom('customer_sales_days').selectAll().orderBy('customer_id').orderBy('day').execute(),
    t.db.selectFrom('product_sales_days').selectAll().orderBy('day').orderBy('product_id').execute(),
  ]);
  // Days whose figures cancelled out are kept with zeros; a rebuild leaves them out.
  return { days: days.filter((day) => day.orders !== 0 || Number(day.refunds) !== 0), customers, products };
}

describe('admin.analytics.overview', () => {
  it('works out each card, in UTC, against the period before', async () => {
    const overview = await admin.admin.analytics.overview(RANGE);
    expect(overview.timeZone).toBe('UTC');
    expect(overview.previous).toEqual({ from: '2026-02-19', to: '2026-02-28' });
    expect(overview.cards.current).toEqual({
      orders: 4,
      totalSales: '100.00', // 30 + 100 + 25 + 45 paid, less the 100 refunded
      averageOrderValue: '25.00',
      returningCustomerRate: '33.3', // A of A, B, C
      discountsGiven: '15.00',
      mrr: '35.00', // 20 + 15 live at the end; the quarterly 30 ended on Mar 5
      activeMembers: 2,
      churnPercent: '50.0',
    });
    expect(overview.cards.previous).toEqual({
      orders: 2,
      totalSales: '60.00',
      averageOrderValue: '30.00',
      returningCustomerRate: '0.0',
      discountsGiven: '0.00',
      mrr: '30.00', // 20 + 30 / 3
      activeMembers: 2,
      churnPercent: '0.0',
    });
    expect(overview.days).toHaveLength(10);
    expect(overview.days.find((day) => day.day === '2026-03-03')).toEqual({
      day: '2026-03-03',
      orders: 1,
      sales: '100.00',
      refunds: '0.00',
      net: '100.00',
    });
    expect(overview.days.find((day) => day.day === '2026-03-05')).toMatchObject({ orders: 0, refunds: '100.00', net: '-100.00' });
    expect(overview.previousDays.map((day) => day.day)).toEqual(expect.arrayContaining(['2026-02-19', '2026-02-28']));
  });

  it('ranks designs by units and revenue and sums sales by category, leaving refunded and unpaid orders out', async () => {
    const overview = await admin.admin.analytics.overview(RANGE);
    expect(overview.topByUnits.map((d) => [d.name, d.units])).toEqual([
      ['Moto Tee', 4],
      ['Wave Hoodie', 1],
    ]);
    expect(overview.topByRevenue.map((d) => [d.name, d.revenue])).toEqual([
      ['Moto Tee', '80.00'],
      ['Wave Hoodie', '25.00'],
    ]);
    expect(overview.salesByCategory).toEqual([
      { category: 'Shirts', sales: '80.00' },
      { category: 'Hoodies', sales: '25.00' },
    ]);
  });

  it('gives the club’s MRR at the end of each of the last 12 months', async () => {
    const { mrrByMonth } = await admin.admin.analytics.overview(RANGE);
    expect(mrrByMonth).toHaveLength(12);
    expect(mrrByMonth[0]).toEqual({ month: '2025-04', mrr: '0.00' });
    expect(mrrByMonth.slice(-3)).toEqual([
      { month: '2026-01', mrr: '30.00' },
      { month: '2026-02', mrr: '30.00' },
      { month: '2026-03', mrr: '35.00' },
    ]);
  });

  it('counts days in the store’s time zone, rebuilt when it changes', async () => {
    await admin.admin.settings.saveTimeZone({ time_zone: 'Asia/Tokyo' });
    try {
      const overview = await admin.admin.analytics.overview(RANGE);
      expect(overview.timeZone).toBe('Asia/Tokyo');
      expect(overview.cards.current).toMatchObject({
        orders: 4, // D's order moves in (Mar 1, 05:00), C's moves out (Mar 11, 08:30)
        totalSales: '85.00',
        averageOrderValue: '21.25',
        returningCustomerRate: '33.3',
      });
      expect(overview.cards.previous).toMatchObject({ orders: 1, totalSales: '50.00', returningCustomerRate: '0.0' });
    } finally {
      await admin.admin.settings.saveTimeZone({ time_zone: 'UTC' });
    }
    expect((await admin.admin.analytics.overview(RANGE)).cards.current.totalSales).toBe('100.00');
  });

  it('resolves the presets on the store’s today', async () => {
    const week = await admin.admin.analytics.overview({ range: '7d' });
    expect(week.current).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(week.previous).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    const year = await admin.admin.analytics.overview({ range: 'year' });
    expect(year.current).toEqual({ from: '2026-01-01', to: '2026-03-15' });
    expect((await admin.admin.analytics.overview({ range: 'today' })).days).toHaveLength(1);
  });

  it('refuses custom ranges without both dates, backwards or too long', async () => {
    await expect(admin.admin.analytics.overview({ range: 'custom', from: '2026-03-01' })).rejects.toThrow('Choose both dates');
    await expect(admin.admin.analytics.overview({ range: 'custom', from: '2026-03-02', to: '2026-03-01' })).rejects.toThrow(
      'The start date must be on or before the end date',
    );
    await expect(admin.admin.analytics.overview({ range: 'custom', from: '2020-01-01', to: '2026-03-01' })).rejects.toThrow(
      'Choose at most 731 days',
    );
  });

  it('refuses an unknown time zone and keeps the one set', async () => {
    await expect(admin.admin.settings.saveTimeZone({ time_zone: 'Mars/Olympus' })).rejects.toThrow('Choose a time zone from the list');
    expect(await admin.admin.settings.timeZone()).toEqual({ time_zone: 'UTC' });
  });

  it('sums the discounts given on paid orders, refunded ones included, by the day paid', async () => {
    const customer = await createCustomer(t.db, { email: 'bargains@example.com' });
    const order = (paidAt: string, discount: string, payment_status: 'paid' | 'pending' = 'paid') =>
      createOrder(t.db, {
        customer_id: customer.id,
        payment_status,
        paid_at: payment_status === 'paid' ? paidAt : null,
        created_at: paidAt,
        subtotal: '50.00',
        discount,
        total: (50 - Number(discount)).toFixed(2),
      });
    // The range May 11-20; the period before it May 1-10.
    await order('2026-05-03T12:00:00Z', '10.00');
    await order('2026-05-11T00:30:00Z', '5.00');
    const refunded = await order('2026-05-15T12:00:00Z', '7.50');
    await t.db
      .updateTable('orders')
      .set({ payment_status: 'refunded', refunded_at: '2026-05-16T10:00:00Z' })
      .where('id', '=', refunded.id)
      .execute();
    await order('2026-05-20T23:59:00Z', '0.25');
    await order('2026-05-12T12:00:00Z', '20.00', 'pending'); // never paid: no discount given
    await order('2026-05-21T00:00:00Z', '4.00'); // the day after the range

    const overview = await admin.admin.analytics.overview({ range: 'custom', from: '2026-05-11', to: '2026-05-20' });
    expect(overview.cards.current.discountsGiven).toBe('12.75'); // 5.00 + 7.50 + 0.25
    expect(overview.cards.previous.discountsGiven).toBe('10.00');
    // Kept as orders change: the rollup matches a rebuild from the orders.
    const live = await rollups();
    await sql`select rebuild_sales_rollups()`.execute(t.db);
    expect(await rollups()).toEqual(live);
    expect(live.days.find((day) => day.day === '2026-05-15')).toMatchObject({ discounts: '7.50' });
  });

  it('is refused to customers', async () => {
    const customer = callerAs(t, await createCustomer(t.db, { email: 'nosy@example.com' }));
    await expect(customer.admin.analytics.overview(RANGE)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(customer.admin.settings.saveTimeZone({ time_zone: 'Asia/Tokyo' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('the sales rollups', () => {
  it('stamp a refund when it happens', async () => {
    const customer = await createCustomer(t.db, { email: 'stamp@example.com' });
    const order = await createOrder(t.db, { customer_id: customer.id, payment_status: 'paid', paid_at: '2026-03-01T00:00:00Z' });
    const before = Date.now();
    await t.db.updateTable('orders').set({ payment_status: 'refunded' }).where('id', '=', order.id).execute();
    const { refunded_at } = await t.db.selectFrom('orders').select('refunded_at').where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(Date.parse(refunded_at!)).toBeGreaterThanOrEqual(before - 1000);
    await t.db.deleteFrom('orders').where('id', '=', order.id).execute();
  });

  it('match a rebuild from the orders after payments, refunds, line changes, erasure and deletes', async () => {
    const customer = await createCustomer(t.db, { email: 'churn@example.com' });
    const order = await createOrder(t.db, { customer_id: customer.id, created_at: '2026-03-06T10:00:00Z', total: '44.00' }, [
      { product_id: p1, product_name: 'x', size: 'L', quantity: 2, unit_price: '22.00', total_price: '44.00' },
    ]);
    await t.db.updateTable('orders').set({ payment_status: 'paid', paid_at: '2026-03-07T10:00:00Z' }).where('id', '=', order.id).execute();
    await t.db
      .insertInto('order_items')
      .values({ order_id: order.id, product_id: p2, product_name: 'y', size: 'S', quantity: 1, unit_price: '5.00', total_price: '5.00' })
      .execute();
    await t.db.updateTable('order_items').set({ quantity: 3 }).where('order_id', '=', order.id).where('product_id', '=', p1).execute();
    await t.db.updateTable('orders').set({ total: '49.00' }).where('id', '=', order.id).execute();
    await t.db.updateTable('orders').set({ customer_id: null }).where('id', '=', order.id).execute();
    const live = await rollups();
    await sql`select rebuild_sales_rollups()`.execute(t.db);
    expect(await rollups()).toEqual(live);

    await t.db.deleteFrom('orders').where('id', '=', order.id).execute();
    const afterDelete = await rollups();
    await sql`select rebuild_sales_rollups()`.execute(t.db);
    expect(await rollups()).toEqual(afterDelete);
    expect((await admin.admin.analytics.overview(RANGE)).cards.current.totalSales).toBe('100.00');
  });
});
