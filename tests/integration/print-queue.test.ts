import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OrderStatus, PaymentStatus, PrintStatus } from '../../src/shared/constants';
import { PRINT_QUEUE_COLUMNS, PRINT_QUEUE_PATH } from '../../src/shared/schemas/admin-orders';
import { sharedTestApp, signInHttp, TEST_ORIGIN } from '../support/app';
import { createAdmin, createCustomer, createOrder, createProduct } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';

// GET /api/admin/print-queue.csv: admins only; the items still to print (pending or printing),
// ordered by order, written by a CSV library so hostile names survive a round trip through a
// CSV parser, with formula-looking cells neutralised; 204 when nothing waits.

const t = sharedTestApp();
const data = sharedBeforeAll(async () => {
  const buyer = await createCustomer(t.db, { email: 'buyer@example.com', first_name: 'Bea', last_name: 'Buyer' });
  return {
    customerId: buyer.id,
    adminCookie: await signInHttp(t.app, (await createAdmin(t.db)).email),
    customerCookie: await signInHttp(t.app, buyer.email),
    // A SKU that looks like a formula, for the CSV's neutralising.
    productId: (await createProduct(t.db, { sku_number: '-SKU+1', name: 'Fast Tee', price: '20.00' })).id,
  };
});
beforeEach(async () => {
  await t.db.deleteFrom('orders').execute();
});

async function insertOrder(
  createdAt: Date,
  items: { name: string; printStatus: PrintStatus }[],
  { paymentStatus = 'paid', status = 'processing' }: { paymentStatus?: PaymentStatus; status?: OrderStatus } = {},
) {
  const order = await createOrder(
    t.db,
    { customer_id: data.customerId, status, payment_status: paymentStatus, created_at: createdAt },
    items.map((item, i) => ({
      product_id: data.productId,
      product_name: item.name,
      // The variant bought: its SKU (a formula-looking one, as its product's) and colour.
      variant_sku: '-SKU+1-BLK-M',
      colour_name: 'Black',
      size: 'M',
      quantity: i + 1,
      unit_price: '20.00',
      total_price: (20 * (i + 1)).toFixed(2),
      print_status: item.printStatus,
      created_at: new Date(createdAt.getTime() + i),
    })),
  );
  return order.order_number;
}

const download = (cookie?: string) =>
  t.app.inject({
    method: 'GET',
    url: PRINT_QUEUE_PATH,
    headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
  });

const HOSTILE_NAMES = ['=HYPERLINK("x")', 'a,b', 'line1\nline2', '"quoted"', '@SUM(1)', '+1 tee', 'Plain tee'];

describe('print queue CSV', () => {
  it('downloads the pending and printing items, ordered by order, surviving a CSV parser', async () => {
    const older = await insertOrder(new Date('2026-01-05T10:00:00Z'), [
      { name: HOSTILE_NAMES[0]!, printStatus: 'pending' },
      { name: 'Already printed', printStatus: 'ready' },
      { name: HOSTILE_NAMES[1]!, printStatus: 'printing' },
      { name: HOSTILE_NAMES[2]!, printStatus: 'pending' },
    ]);
    const newer = await insertOrder(new Date('2026-02-07T10:00:00Z'), [
      { name: HOSTILE_NAMES[3]!, printStatus: 'pending' },
      { name: HOSTILE_NAMES[4]!, printStatus: 'printing' },
      { name: HOSTILE_NAMES[5]!, printStatus: 'pending' },
      { name: HOSTILE_NAMES[6]!, printStatus: 'pending' },
    ]);

    const res = await download(data.adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="print-queue-${today}.csv"`);

    const [header, ...rows] = parse(res.body);
    expect(header).toEqual([...PRINT_QUEUE_COLUMNS]);
    expect(rows.map((r) => r[0])).toEqual([older, older, older, newer, newer, newer, newer]);
    // The same names, except that formula-looking ones start with a quote.
    expect(rows.map((r) => r[3])).toEqual(['\'=HYPERLINK("x")', 'a,b', 'line1\nline2', '"quoted"', "'@SUM(1)", "'+1 tee", 'Plain tee']);
    expect(rows[0]).toEqual([
      older,
      "'-SKU+1-BLK-M",
      'Bea Buyer <buyer@example.com>',
      '\'=HYPERLINK("x")',
      'Black',
      'M',
      '1',
      'pending',
      '2026-01-05',
      'processing',
    ]);
    expect(rows.map((r) => r[7])).toEqual(['pending', 'printing', 'pending', 'pending', 'printing', 'pending', 'pending']);
  });

  it('leaves out the items of unpaid, refunded and cancelled orders: only what was paid for is printed', async () => {
    await insertOrder(new Date(), [{ name: 'Awaiting payment', printStatus: 'pending' }], { paymentStatus: 'pending' });
    await insertOrder(new Date(), [{ name: 'Payment failed', printStatus: 'pending' }], { paymentStatus: 'failed' });
    await insertOrder(new Date(), [{ name: 'Refunded', printStatus: 'pending' }], { paymentStatus: 'refunded' });
    await insertOrder(new Date(), [{ name: 'Cancelled after paying', printStatus: 'pending' }], { status: 'cancelled' });
    expect((await download(data.adminCookie)).statusCode).toBe(204);
    const paid = await insertOrder(new Date(), [{ name: 'Paid for', printStatus: 'pending' }]);
    const [, ...rows] = parse((await download(data.adminCookie)).body);
    expect(rows.map((r) => [r[0], r[3]])).toEqual([[paid, 'Paid for']]);
  });

  it('answers 204 with no body when nothing waits', async () => {
    await insertOrder(new Date(), [{ name: 'Done', printStatus: 'ready' }]);
    const res = await download(data.adminCookie);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('is for admins only', async () => {
    await insertOrder(new Date(), [{ name: 'Secret tee', printStatus: 'pending' }]);
    const anonymous = await download();
    expect(anonymous.statusCode).toBe(401);
    const customer = await download(data.customerCookie);
    expect(customer.statusCode).toBe(403);
    expect(customer.body).not.toContain('Secret tee');
  });
});
