import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRows } from '../../src/server/db/count';
import { ORDER_TOO_LARGE, PRICES_CHANGED } from '../../src/server/orders/place';
import { CANCELLED_NOT_PAYABLE } from '../../src/server/routers/admin/orders';
import type { OrderStatus } from '../../src/shared/constants';
import { EMPTY_CART, QUANTITY_RANGE } from '../../src/shared/schemas/checkout';
import { INVALID_PHONE } from '../../src/shared/schemas/fields';
import { callerFor, callTrpc, sharedTestApp, signInHttp } from '../support/app';
import { holdsFor, trpcFailure } from '../support/async';
import { createAdmin, createCategory, createCustomer, createProduct, type TestUser } from '../support/factories';

// Placing an order paid by hand (the default provider): priced by the server, written with line
// snapshots in one transaction, one order per submission, confirmation emailed with the store's
// payment instructions; an admin marks it paid, ships, cancels or refunds it, each emailed.

const t = sharedTestApp();
let buyer: TestUser;
let other: TestUser;
let admin: TestUser;
let buyerCookie: string;
let tee: string;
let hoodie: string;
let retired: string;

const shipping = {
  first_name: 'Jake',
  last_name: 'Rider',
  phone: '(406) 555-0142',
  street: '218 W Main St',
  city: 'Bozeman',
  state: 'MT',
  zip: '59715',
  country: 'USA',
};
const caller = (user: { id: string; email: string }) => callerFor(t.database, t.config, user).caller;
const place = (lines: { productId: string; size: string; quantity: number }[], key = randomUUID(), user = buyer) =>
  caller(user).checkout.placeOrder({ idempotencyKey: key, lines: lines as never, shipping });
const orderCount = () => countRows(t.db.selectFrom('orders'));
const orderIdOf = async (orderNumber: string) =>
  (await t.db.selectFrom('orders').select('id').where('order_number', '=', orderNumber).executeTakeFirstOrThrow()).id;
/** The buyer's order of one tee, with its id for the admin's calls. */
const placeTeeOrder = async () => {
  const { orderNumber } = await place([{ productId: tee, size: 'M', quantity: 1 }]);
  return { orderNumber, id: await orderIdOf(orderNumber) };
};
/** The admin's calls on order `id`, one after another in the order given: a new status, or a tracking number. */
const moveOrder = async (id: string, ...steps: (OrderStatus | { trackingNumber: string })[]) => {
  const orders = caller(admin).admin.orders;
  for (const step of steps) {
    if (typeof step === 'string') await orders.setStatus({ id, status: step });
    else await orders.setTrackingNumber({ id, trackingNumber: step.trackingNumber });
  }
};
const emailsTo = (to: string) =>
  t.db.selectFrom('email_queue').select(['subject', 'text_body']).where('to_email', '=', to).orderBy('created_at').execute();

beforeAll(async () => {
  buyer = await createCustomer(t.db, { email: 'jake@example.com' });
  other = await createCustomer(t.db, { email: 'maria@example.com' });
  admin = await createAdmin(t.db, { email: 'boss@example.com' });
  buyerCookie = await signInHttp(t.app, buyer.email);
  const category = await createCategory(t.db);
  const product = async (
    sku: string,
    slug: string,
    name: string,
    price: string,
    extra: { is_active?: boolean; available_sizes?: ('S' | 'M' | 'L')[] } = {},
  ) =>
    (await createProduct(t.db, { sku_number: sku, slug, name, price, image_url: `/img/${slug}.png`, category_id: category.id, ...extra }))
      .id;
  tee = await product('T-1', 'ride-tee', 'Ride Tee', '24.99');
  hoodie = await product('T-2', 'road-tee', 'Road Tee', '30.00', { available_sizes: ['S', 'M'] });
  retired = await product('T-3', 'old-tee', 'Old Tee', '10.00', { is_active: false });
});
beforeEach(async () => {
  await t.db.deleteFrom('orders').execute();
  await t.db.deleteFrom('email_queue').execute();
  await t.db
    .updateTable('store_settings')
    .set({ flat_shipping_rate: 0, free_shipping_threshold: null, tax_rate_percent: 0, payment_instructions: 'Transfer to IBAN XX00 1234' })
    .execute();
});

describe('placing an order paid by hand', () => {
  it('tells the buyer to ask how to pay when the store has written no instructions', async () => {
    await t.db.updateTable('store_settings').set({ payment_instructions: '' }).execute();
    await place([{ productId: tee, size: 'M', quantity: 1 }]);
    const [email] = await emailsTo(buyer.email);
    expect(email?.text_body).toContain('Reply to this email to ask how to pay.');
    expect(email?.text_body).not.toContain('How to pay:');
    // Replies reach the store, whatever address EMAIL_FROM sends from.
    const { reply_to } = await t.db
      .selectFrom('email_queue')
      .select('reply_to')
      .where('to_email', '=', buyer.email)
      .executeTakeFirstOrThrow();
    expect(reply_to).toBe(t.config.storeEmail);
  });

  it('prices it on the server, snapshots each line, and emails the confirmation with the payment instructions', async () => {
    // A price, a total and an order status sent along are not read.
    const result = await caller(buyer).checkout.placeOrder({
      idempotencyKey: randomUUID(),
      lines: [
        { productId: tee, size: 'M', quantity: 2, price: 0.01 },
        { productId: hoodie, size: 'S', quantity: 1 },
      ] as never,
      shipping,
      total: 1,
      status: 'shipped',
    } as never);
    expect(result.redirectUrl).toBeNull();
    expect(result.orderNumber).toMatch(/^TL-\d+$/);

    const order = await t.db.selectFrom('orders').selectAll().where('order_number', '=', result.orderNumber).executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      customer_id: buyer.id,
      status: 'pending',
      payment_status: 'pending',
      payment_provider: 'manual',
      subtotal: '79.98',
      shipping_cost: '0.00',
      tax: '0.00',
      total: '79.98',
      shipping_address: { name: 'Jake Rider', street: '218 W Main St', city: 'Bozeman', state: 'MT', zip: '59715', country: 'USA' },
    });
    const items = await t.db
      .selectFrom('order_items')
      .select(['product_id', 'product_name', 'product_image', 'size', 'quantity', 'unit_price', 'total_price', 'print_status'])
      .where('order_id', '=', order.id)
      .orderBy('product_name', 'desc')
      .execute();
    expect(items).toEqual([
      {
        product_id: hoodie,
        product_name: 'Road Tee',
        product_image: '/img/road-tee.png',
        size: 'S',
        quantity: 1,
        unit_price: '30.00',
        total_price: '30.00',
        print_status: 'pending',
      },
      {
        product_id: tee,
        product_name: 'Ride Tee',
        product_image: '/img/ride-tee.png',
        size: 'M',
        quantity: 2,
        unit_price: '24.99',
        total_price: '49.98',
        print_status: 'pending',
      },
    ]);
    expect(await t.db.selectFrom('order_events').select('kind').where('order_id', '=', order.id).execute()).toEqual([{ kind: 'placed' }]);

    const [email] = await emailsTo(buyer.email);
    expect(email?.subject).toBe(`Order ${result.orderNumber} confirmed`);
    expect(email?.text_body).toContain('Transfer to IBAN XX00 1234');
    expect(email?.text_body).toContain('Ride Tee (White, M) × 2');
    expect(email?.text_body).toContain('$79.98');
    expect(email?.text_body).toContain('218 W Main St');
  });

  it('charges the flat shipping rate below the free-shipping threshold and tax at the store rate', async () => {
    await t.db
      .updateTable('store_settings')
      .set({ flat_shipping_rate: '5.00', free_shipping_threshold: '50.00', tax_rate_percent: '8.25' })
      .execute();
    const small = await place([{ productId: tee, size: 'M', quantity: 1 }]);
    const large = await place([{ productId: hoodie, size: 'M', quantity: 2 }]);
    const totals = await t.db
      .selectFrom('orders')
      .select(['order_number', 'subtotal', 'shipping_cost', 'tax', 'total'])
      .where('order_number', 'in', [small.orderNumber, large.orderNumber])
      .orderBy('subtotal')
      .execute();
    // 24.99 + 5.00 shipping + 8.25% of 24.99 (2.06); 60.00 ships free, tax 4.95.
    expect(totals).toEqual([
      { order_number: small.orderNumber, subtotal: '24.99', shipping_cost: '5.00', tax: '2.06', total: '32.05' },
      { order_number: large.orderNumber, subtotal: '60.00', shipping_cost: '0.00', tax: '4.95', total: '64.95' },
    ]);
    const quote = await caller(buyer).checkout.quote({ lines: [{ productId: tee, size: 'M', quantity: 1 }] });
    expect(quote).toMatchObject({ subtotal: '24.99', shipping: '5.00', tax: '2.06', total: '32.05', payment: { provider: 'manual' } });
  });

  it('makes one order of one submission: a retry, a double click or 20 at once', async () => {
    const key = randomUUID();
    const lines = [{ productId: tee, size: 'M', quantity: 1 }];
    const results = await Promise.all(Array.from({ length: 20 }, () => place(lines, key)));
    expect(new Set(results.map((r) => r.orderNumber)).size).toBe(1);
    expect(await place(lines, key)).toEqual(results[0]);
    expect(await orderCount()).toBe(1);
    expect(await emailsTo(buyer.email)).toHaveLength(1);
    // The same key from another customer is another submission.
    const theirs = await place(lines, key, other);
    expect(theirs.orderNumber).not.toBe(results[0]?.orderNumber);
  });

  it('saves the address to the account only when asked', async () => {
    await caller(buyer).checkout.placeOrder({
      idempotencyKey: randomUUID(),
      lines: [{ productId: tee, size: 'M', quantity: 1 }],
      shipping: { ...shipping, street: '9 New Rd' },
      saveToAccount: true,
    });
    const saved = await t.db
      .selectFrom('customers')
      .select(['first_name', 'shipping_address'])
      .where('id', '=', buyer.id)
      .executeTakeFirstOrThrow();
    expect(saved).toEqual({
      first_name: 'Jake',
      shipping_address: { street: '9 New Rd', city: 'Bozeman', state: 'MT', zip: '59715', country: 'USA' },
    });
  });
});

describe('bad input gets a clear error and changes nothing', () => {
  // Two transactions at once need a PostgreSQL server; the embedded database has one session.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'refuses a product an admin deleted while the order was being placed, as one deleted before',
    async () => {
      const doomed = (await createProduct(t.db, { name: 'Last Call Tee', price: '20.00' })).id;
      const ordersBefore = await orderCount();
      let placing: Promise<{ code: string; message: string }> | undefined;
      // The admin's delete has locked the product and is about to remove it when the order comes.
      await t.db.transaction().execute(async (trx) => {
        await trx.selectFrom('products').select('id').where('id', '=', doomed).forUpdate().execute();
        placing = trpcFailure(place([{ productId: doomed, size: 'M', quantity: 1 }]));
        let settled = false;
        void placing.finally(() => (settled = true));
        await holdsFor(() => !settled, 'the order waiting for the delete', 300);
        await trx.deleteFrom('products').where('id', '=', doomed).execute();
      });
      // As for any product the store no longer has: its name went with it.
      expect(await placing).toEqual({
        code: 'BAD_REQUEST',
        message: '"Unknown product" is no longer available. Please remove it from your cart.',
      });
      expect(await orderCount()).toBe(ordersBefore);
    },
  );

  it.each([
    ['an empty cart', [], EMPTY_CART],
    ['a quantity of 0', [{ size: 'M', quantity: 0 }], QUANTITY_RANGE],
    ['a quantity of 100', [{ size: 'M', quantity: 100 }], QUANTITY_RANGE],
    [
      'two lines of one product and size adding up to 100',
      [
        { size: 'M', quantity: 99 },
        { size: 'M', quantity: 1 },
      ],
      QUANTITY_RANGE,
    ],
    ['a size that does not exist', [{ size: 'XXL', quantity: 1 }], 'Unknown size'],
  ])('refuses %s', async (_case, lines, message) => {
    // Over HTTP: the client reads input errors as the errorFormatter writes them.
    const res = await callTrpc(t.app, 'checkout.placeOrder', {
      cookie: buyerCookie,
      input: { idempotencyKey: randomUUID(), lines: (lines as object[]).map((line) => ({ productId: tee, ...line })), shipping },
    });
    expect([res.statusCode, res.error?.message]).toEqual([400, message]);
    expect(await orderCount()).toBe(0);
  });

  it('refuses an order whose total is no longer the one the buyer was shown, and places it for the total shown again', async () => {
    const lines = [{ productId: tee, size: 'M' as const, quantity: 1 }];
    const shown = await caller(buyer).checkout.quote({ lines });
    expect(shown.total).toBe('24.99');
    await t.db.updateTable('store_settings').set({ flat_shipping_rate: 9.99, tax_rate_percent: 10 }).execute();

    const order = (expectedTotal: string) =>
      caller(buyer).checkout.placeOrder({ idempotencyKey: randomUUID(), lines, shipping, expectedTotal });
    expect(await trpcFailure(order(shown.total))).toEqual({ code: 'CONFLICT', message: PRICES_CHANGED });
    expect(await orderCount()).toBe(0);

    const now = await caller(buyer).checkout.quote({ lines });
    expect(now.total).toBe('37.48');
    await order(now.total);
    expect(await t.db.selectFrom('orders').select('total').execute()).toEqual([{ total: '37.48' }]);
  });

  it('refuses an order larger than one payment can take, instead of failing on it', async () => {
    const costly = (await createProduct(t.db, { sku_number: 'T-9', slug: 'gold-tee', name: 'Gold Tee', price: '60000000.00' })).id;
    expect(await trpcFailure(place([{ productId: costly, size: 'M', quantity: 2 }]))).toEqual({
      code: 'BAD_REQUEST',
      message: ORDER_TOO_LARGE,
    });
    expect(await orderCount()).toBe(0);
  });

  it('refuses a product that left the store, one that never existed, and a size no longer made', async () => {
    expect(await trpcFailure(place([{ productId: retired, size: 'M', quantity: 1 }]))).toEqual({
      code: 'BAD_REQUEST',
      message: '"Old Tee" is no longer available. Please remove it from your cart.',
    });
    expect((await trpcFailure(place([{ productId: randomUUID(), size: 'M', quantity: 1 }]))).message).toContain('is no longer available');
    expect(await trpcFailure(place([{ productId: hoodie, size: 'L', quantity: 1 }]))).toEqual({
      code: 'BAD_REQUEST',
      message: '"Road Tee" is not available in size L. Please remove it from your cart.',
    });
    expect(await orderCount()).toBe(0);
    expect(await emailsTo(buyer.email)).toEqual([]);
  });

  it('names each missing address field, as the checkout form names it', async () => {
    const res = await callTrpc(t.app, 'checkout.placeOrder', {
      cookie: buyerCookie,
      input: {
        idempotencyKey: randomUUID(),
        lines: [{ productId: tee, size: 'M', quantity: 1 }],
        // Blank, empty, invisible (a zero-width space), a second line slipped into one, no number.
        shipping: { ...shipping, street: ' ', zip: '', first_name: '\u200B', city: 'Bozeman\nBcc: x@example.com', phone: 'call me' },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.error?.data.fieldErrors).toMatchObject({
      'shipping.street': ['Street address is required'],
      'shipping.zip': ['ZIP code is required'],
      'shipping.first_name': ['First name is required'],
      'shipping.city': ['City must be a single line of text'],
      'shipping.phone': [INVALID_PHONE],
    });
    expect(await orderCount()).toBe(0);
  });

  it('lets anyone price a cart, but a signed-out visitor place an order only with an address to send it to', async () => {
    const anonymous = callerFor(t.database, t.config, null).caller;
    expect((await anonymous.checkout.quote({ lines: [{ productId: tee, size: 'M', quantity: 1 }] })).total).toBe('24.99');
    const attempt = anonymous.checkout.placeOrder({
      idempotencyKey: randomUUID(),
      lines: [{ productId: tee, size: 'M', quantity: 1 }],
      shipping,
    });
    expect((await trpcFailure(attempt)).code).toBe('BAD_REQUEST');
    expect(await orderCount()).toBe(0);
  });
});

describe("a customer's orders", () => {
  it('lists only their own, newest first, and hides the others', async () => {
    const first = await place([{ productId: tee, size: 'M', quantity: 1 }]);
    const second = await place([{ productId: hoodie, size: 'S', quantity: 3 }]);
    const theirs = await place([{ productId: tee, size: 'S', quantity: 1 }], randomUUID(), other);

    const list = await caller(buyer).orders.list({ page: 1 });
    expect(list.orders.map((o) => o.order_number)).toEqual([second.orderNumber, first.orderNumber]);
    expect(list.orders[0]?.items).toEqual({ item_count: 3, image: '/img/road-tee.png' });
    expect((await caller(buyer).orders.recent()).map((o) => o.order_number)).toEqual([second.orderNumber, first.orderNumber]);

    const detail = await caller(buyer).orders.get({ orderNumber: first.orderNumber });
    expect(detail).toMatchObject({
      status: 'pending',
      payment_status: 'pending',
      paymentInstructions: 'Transfer to IBAN XX00 1234',
      paymentUrl: null,
    });
    expect(detail.events.map((e) => e.kind)).toEqual(['placed']);
    expect(await trpcFailure(caller(buyer).orders.get({ orderNumber: theirs.orderNumber }))).toEqual({
      code: 'NOT_FOUND',
      message: 'Order not found',
    });
  });
});

describe('an admin moving an order along', () => {
  it('marks a hand-paid order paid once, refunds it once, and the customer hears of each', async () => {
    const { orderNumber, id } = await placeTeeOrder();
    const adminCaller = caller(admin);

    expect(await adminCaller.admin.orders.markPaid({ id })).toMatchObject({ payment_status: 'paid', payment_provider: 'manual' });
    expect(await trpcFailure(adminCaller.admin.orders.markPaid({ id }))).toEqual({
      code: 'CONFLICT',
      message: 'This order is not waiting for payment',
    });
    const refunded = await adminCaller.admin.orders.refund({ id });
    expect(refunded.payment_status).toBe('refunded');
    expect(refunded.events.map((e) => e.kind)).toEqual(['placed', 'paid', 'refunded']);
    expect((await trpcFailure(adminCaller.admin.orders.refund({ id }))).code).toBe('CONFLICT');
    expect((await emailsTo(buyer.email)).map((e) => e.subject)).toEqual([
      `Order ${orderNumber} confirmed`,
      `Payment received for order ${orderNumber}`,
      `Order ${orderNumber} refunded`,
    ]);
  });

  it('emails a tracking link when the order ships, and a notice when it is cancelled', async () => {
    const { orderNumber, id } = await placeTeeOrder();
    await moveOrder(id, { trackingNumber: '1Z 999' }, 'shipped', 'shipped', 'cancelled');
    const emails = await emailsTo(buyer.email);
    expect(emails.map((e) => e.subject)).toEqual([
      `Order ${orderNumber} confirmed`,
      `Order ${orderNumber} has shipped`,
      `Order ${orderNumber} was cancelled`,
    ]);
    expect(emails[1]?.text_body).toContain('https://parcelsapp.com/en/tracking/1Z%20999');
    const customerView = await caller(buyer).orders.get({ orderNumber });
    expect(customerView.trackingUrl).toBe('https://parcelsapp.com/en/tracking/1Z%20999');
    expect(customerView.events.map((e) => e.kind)).toEqual(['placed', 'shipped', 'cancelled']);
  });

  it('emails a tracking number given after shipping, and tells of shipping and cancelling once', async () => {
    const { orderNumber, id } = await placeTeeOrder();
    // As the order screen invites: the status first, then the tracking number.
    await moveOrder(id, 'shipped', { trackingNumber: '1Z 777' }, { trackingNumber: '1Z 777' });
    // Moved back and forth: nothing more is announced.
    await moveOrder(id, 'processing', 'shipped', 'cancelled', 'pending', 'cancelled');
    const emails = await emailsTo(buyer.email);
    expect(emails.map((e) => e.subject)).toEqual([
      `Order ${orderNumber} confirmed`,
      `Order ${orderNumber} has shipped`,
      `Tracking number for order ${orderNumber}`,
      `Order ${orderNumber} was cancelled`,
    ]);
    expect(emails[2]?.text_body).toContain('https://parcelsapp.com/en/tracking/1Z%20777');
  });

  it('emails a tracking number given while a shipped order was moved back when it ships again, once', async () => {
    const { orderNumber, id } = await placeTeeOrder();
    await moveOrder(id, 'shipped', 'processing', { trackingNumber: '1Z 555' }, 'shipped');
    // Back and forth again with the same number: the customer has it.
    await moveOrder(id, 'processing', 'shipped', { trackingNumber: '1Z 556' });
    const emails = await emailsTo(buyer.email);
    expect(emails.map((e) => e.subject)).toEqual([
      `Order ${orderNumber} confirmed`,
      `Order ${orderNumber} has shipped`,
      `Tracking number for order ${orderNumber}`,
      `Tracking number for order ${orderNumber}`,
    ]);
    expect(emails[2]?.text_body).toContain('https://parcelsapp.com/en/tracking/1Z%20555');
    expect(emails[3]?.text_body).toContain('https://parcelsapp.com/en/tracking/1Z%20556');
  });

  it('refuses to mark a cancelled order paid, which would tell the buyer it goes to print', async () => {
    const { orderNumber, id } = await placeTeeOrder();
    await caller(admin).admin.orders.setStatus({ id, status: 'cancelled' });
    expect(await trpcFailure(caller(admin).admin.orders.markPaid({ id }))).toEqual({
      code: 'PRECONDITION_FAILED',
      message: CANCELLED_NOT_PAYABLE,
    });
    expect(await t.db.selectFrom('orders').select('payment_status').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({
      payment_status: 'pending',
    });
    expect((await emailsTo(buyer.email)).map((e) => e.subject)).not.toContain(`Payment received for order ${orderNumber}`);
  });

  it('counts revenue from paid orders only', async () => {
    const paid = await place([{ productId: hoodie, size: 'M', quantity: 1 }]);
    await place([{ productId: tee, size: 'M', quantity: 1 }]);
    const id = await orderIdOf(paid.orderNumber);
    await caller(admin).admin.orders.markPaid({ id });
    expect(await caller(admin).admin.dashboard.overview()).toMatchObject({ totalOrders: 2, totalRevenue: '30.00' });
  });
});
