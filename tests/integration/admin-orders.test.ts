import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OrderStatus, PrintStatus } from '../../src/shared/constants';
import { ORDERS_PAGE_SIZE } from '../../src/shared/schemas/admin-orders';
import { callerAs, callTrpc, sharedTestApp, signInHttp, type Caller } from '../support/app';
import { createAdmin, createCustomer, createOrder, createProduct } from '../support/factories';

// admin.orders.*: the server-paged list newest first with its status filter, one order with
// its items (SKU joined), and the status, tracking number and print status changes, each
// stamping updated_at; bad input changes nothing.

const t = sharedTestApp();
let admin: Caller;
let customerId: string;
let productId: string;

beforeAll(async () => {
  admin = callerAs(t, await createAdmin(t.db));
  customerId = (await createCustomer(t.db, { email: 'rider@example.com', first_name: 'Rita', last_name: 'Rider' })).id;
  productId = (await createProduct(t.db, { sku_number: 'MOTO-001', name: 'Ride Tee', price: '24.99' })).id;
});
beforeEach(async () => {
  await t.db.deleteFrom('orders').execute();
});

const HOUR = 3_600_000;
const longAgo = new Date(Date.now() - 48 * HOUR);

async function insertOrder(
  status: OrderStatus,
  hoursAgo: number,
  items: {
    name: string;
    printStatus?: PrintStatus;
    withProduct?: boolean;
  }[] = [],
) {
  const order = await createOrder(
    t.db,
    {
      customer_id: customerId,
      status,
      payment_status: 'paid',
      subtotal: '49.98',
      total: '49.98',
      created_at: new Date(Date.now() - hoursAgo * HOUR),
      updated_at: longAgo,
    },
    items.map((item, i) => ({
      product_id: item.withProduct === false ? null : productId,
      product_name: item.name,
      size: 'L',
      quantity: 2,
      unit_price: '24.99',
      total_price: '49.98',
      print_status: item.printStatus ?? 'pending',
      created_at: new Date(Date.now() - 10_000 + i),
      updated_at: longAgo,
    })),
  );
  return order;
}

const orderRow = (id: string) =>
  t.db.selectFrom('orders').select(['status', 'tracking_number', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();

describe('admin.orders.list', () => {
  it('pages newest first on the server and filters by status', async () => {
    const total = ORDERS_PAGE_SIZE + 3;
    for (let i = 0; i < total; i++) await insertOrder(i % 2 === 0 ? 'pending' : 'shipped', i + 1);

    const first = await admin.admin.orders.list({});
    expect(first).toMatchObject({
      total,
      page: 1,
      pageCount: 2,
      pageSize: ORDERS_PAGE_SIZE,
    });
    expect(first.orders).toHaveLength(ORDERS_PAGE_SIZE);
    const times = first.orders.map((o) => Date.parse(o.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(first.orders[0]).toMatchObject({
      customer_email: 'rider@example.com',
      customer_first_name: 'Rita',
      customer_last_name: 'Rider',
      payment_status: 'paid',
      total: '49.98',
    });

    const second = await admin.admin.orders.list({ page: 2 });
    expect(second.orders).toHaveLength(3);
    expect(new Set([...first.orders, ...second.orders].map((o) => o.id)).size).toBe(total);

    const shipped = await admin.admin.orders.list({ status: 'shipped' });
    expect(shipped.total).toBe(Math.floor(total / 2));
    expect(shipped.orders.every((o) => o.status === 'shipped')).toBe(true);

    // A page past the end shows the last one.
    expect((await admin.admin.orders.list({ page: 99 })).page).toBe(2);
  });

  it('refuses a bad filter or page', async () => {
    await expect(admin.admin.orders.list({ status: 'lost' as 'all' })).rejects.toThrow('Invalid status');
    await expect(admin.admin.orders.list({ page: 0 })).rejects.toThrow('Invalid page');
  });
});

describe('admin.orders.get', () => {
  it('returns the order with its customer and items, SKU joined', async () => {
    const order = await insertOrder('processing', 1, [{ name: 'Ride Tee' }, { name: 'Deleted product tee', withProduct: false }]);
    const detail = await admin.admin.orders.get({ id: order.id });
    expect(detail).toMatchObject({
      order_number: order.order_number,
      status: 'processing',
      customer_email: 'rider@example.com',
      subtotal: '49.98',
    });
    expect(detail.shipping_address.city).toBe('Austin');
    expect(
      detail.items.map((i) => [i.product_name, i.sku_number, i.size, i.quantity, i.unit_price, i.total_price, i.print_status]),
    ).toEqual([
      ['Ride Tee', 'MOTO-001', 'L', 2, '24.99', '49.98', 'pending'],
      ['Deleted product tee', null, 'L', 2, '24.99', '49.98', 'pending'],
    ]);
  });

  it('answers NOT_FOUND for an unknown order', async () => {
    const error = await admin.admin.orders.get({ id: crypto.randomUUID() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).message).toBe('Order not found');
  });
});

describe('admin.orders changes', () => {
  it('sets any status directly and stamps updated_at', async () => {
    const order = await insertOrder('delivered', 1);
    const updated = await admin.admin.orders.setStatus({
      id: order.id,
      status: 'pending',
    });
    expect(updated.status).toBe('pending');
    const row = await orderRow(order.id);
    expect(row.status).toBe('pending');
    expect(Date.parse(row.updated_at)).toBeGreaterThan(longAgo.getTime() + HOUR);
  });

  it('saves a trimmed tracking number, clears it when blank, and stamps updated_at', async () => {
    const order = await insertOrder('shipped', 1);
    await admin.admin.orders.setTrackingNumber({
      id: order.id,
      trackingNumber: '  1Z999AA10123456784 ',
    });
    let row = await orderRow(order.id);
    expect(row.tracking_number).toBe('1Z999AA10123456784');
    expect(Date.parse(row.updated_at)).toBeGreaterThan(longAgo.getTime() + HOUR);
    await admin.admin.orders.setTrackingNumber({
      id: order.id,
      trackingNumber: '   ',
    });
    row = await orderRow(order.id);
    expect(row.tracking_number).toBeNull();
  });

  it('sets an item print status and stamps the item’s updated_at', async () => {
    const order = await insertOrder('processing', 1, [{ name: 'Ride Tee' }]);
    const [item] = (await admin.admin.orders.get({ id: order.id })).items;
    const updated = await admin.admin.orders.setItemPrintStatus({
      itemId: item!.id,
      printStatus: 'ready',
    });
    expect(updated.items[0]!.print_status).toBe('ready');
    const row = await t.db
      .selectFrom('order_items')
      .select(['print_status', 'updated_at'])
      .where('id', '=', item!.id)
      .executeTakeFirstOrThrow();
    expect(row.print_status).toBe('ready');
    expect(Date.parse(row.updated_at)).toBeGreaterThan(longAgo.getTime() + HOUR);
  });

  it('refuses bad values and unknown ids, changing nothing', async () => {
    const order = await insertOrder('pending', 1, [{ name: 'Ride Tee' }]);
    await expect(
      admin.admin.orders.setStatus({
        id: order.id,
        status: 'lost' as OrderStatus,
      }),
    ).rejects.toThrow('Invalid status');
    await expect(
      admin.admin.orders.setTrackingNumber({
        id: order.id,
        trackingNumber: 'x'.repeat(101),
      }),
    ).rejects.toThrow('Tracking number must be at most 100 characters');
    await expect(
      admin.admin.orders.setTrackingNumber({ id: order.id, trackingNumber: '1Z999\nClick http://evil.example' }),
    ).rejects.toThrow('Tracking number must be a single line of text');
    const [item] = (await admin.admin.orders.get({ id: order.id })).items;
    await expect(
      admin.admin.orders.setItemPrintStatus({
        itemId: item!.id,
        printStatus: 'shipped' as PrintStatus,
      }),
    ).rejects.toThrow('Invalid print status');
    await expect(
      admin.admin.orders.setStatus({
        id: crypto.randomUUID(),
        status: 'shipped',
      }),
    ).rejects.toThrow('Order not found');
    await expect(
      admin.admin.orders.setItemPrintStatus({
        itemId: crypto.randomUUID(),
        printStatus: 'ready',
      }),
    ).rejects.toThrow('Order item not found');
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ status: 'pending', tracking_number: null });
    expect(row.updated_at).toBe(longAgo.toISOString());
  });

  it('answers the status change over HTTP to an admin only', async () => {
    const order = await insertOrder('pending', 1);
    const res = await callTrpc(t.app, 'admin.orders.setStatus', {
      input: { id: order.id, status: 'cancelled' },
      cookie: await signInHttp(t.app, 'rider@example.com'),
    });
    expect(res.statusCode).toBe(403);
    expect((await orderRow(order.id)).status).toBe('pending');
  });
});

describe('order counts kept by the database (migration 0009)', () => {
  /** The counts as a scan of every order gives them, and as order_stats keeps them (empty keys left out). */
  const scanned = () =>
    t.db
      .selectFrom('orders')
      .select([
        'status',
        'payment_status',
        sql<number>`count(*)::int`.as('orders'),
        sql<string>`sum(total)::numeric(14, 2)::text`.as('money'),
      ])
      .groupBy(['status', 'payment_status'])
      .orderBy('status')
      .orderBy('payment_status')
      .execute();
  const kept = () =>
    t.db
      .selectFrom('order_stats')
      .select([
        'status',
        'payment_status',
        sql<number>`order_count::int`.as('orders'),
        sql<string>`total::numeric(14, 2)::text`.as('money'),
      ])
      .where('order_count', '!=', sql<string>`0`)
      .orderBy('status')
      .orderBy('payment_status')
      .execute();

  it('match a scan of the orders through inserts, status, payment and total changes, and deletes', async () => {
    const ids = [];
    for (const total of ['10.00', '25.50', '99.99', '5.00']) ids.push((await createOrder(t.db, { customer_id: customerId, total })).id);
    expect(await kept()).toEqual(await scanned());

    await t.db.updateTable('orders').set({ status: 'shipped' }).where('id', '=', ids[0]!).execute();
    await t.db.updateTable('orders').set({ payment_status: 'paid' }).where('id', 'in', [ids[1]!, ids[2]!]).execute();
    await t.db.updateTable('orders').set({ total: '30.00' }).where('id', '=', ids[1]!).execute();
    await t.db.deleteFrom('orders').where('id', '=', ids[3]!).execute();
    expect(await kept()).toEqual(await scanned());

    // The admin list's total and the dashboard read them.
    const all = await admin.admin.orders.list({});
    expect(all.total).toBe((await scanned()).reduce((sum, row) => sum + row.orders, 0));
    const shipped = await admin.admin.orders.list({ status: 'shipped' });
    expect(shipped.total).toBe((await scanned()).filter((row) => row.status === 'shipped').reduce((sum, row) => sum + row.orders, 0));
  });
});
