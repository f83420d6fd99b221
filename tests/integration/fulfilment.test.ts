import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { processFulfilmentJobs } from '../../src/server/fulfilment/jobs';
import { createPrintfulFulfilment } from '../../src/server/fulfilment/printful';
import type { RemoteFulfilment } from '../../src/server/fulfilment/provider';
import { callerFor, sharedTestApp } from '../support/app';
import { createAdmin, createCustomer, createOrder, createProduct } from '../support/factories';
import { FAKE_CATALOG_PRODUCT_ID, FAKE_CATALOG_VARIANTS, startFakePrintful, type SignedNotice } from '../support/fake-printful';
import { sharedBeforeAll } from '../support/hooks';

// Paid orders sent to Printful (docs/adr/0035) against a local fake of its API v2: queued in the
// transaction that makes the order paid, made once whatever fails or runs twice, held whole for a
// variant with no Printful variant, confirmed once costs are known, and moved by signed webhooks
// that are applied once, in any order.

const printful = sharedBeforeAll(
  () => startFakePrintful(),
  (fake) => fake.close(),
);
const t = sharedTestApp(() => ({
  PRINTFUL_API_TOKEN: printful.token,
  PRINTFUL_WEBHOOK_SECRET: printful.webhookSecret,
  PRINTFUL_API_URL: printful.url,
}));
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const data = sharedBeforeAll(async () => {
  const admin = await createAdmin(t.db);
  const buyer = await createCustomer(t.db, { email: 'pat@example.com' });
  const product = await createProduct(t.db, {
    name: 'Fast Tee',
    price: '25.00',
    front_art_url: '/storage/product-art/fast-front.png',
    back_art_url: '/storage/product-art/fast-back.png',
    printful_product_id: FAKE_CATALOG_PRODUCT_ID,
  });
  // The print files exist, for admins only.
  const artDir = path.join(t.config.dataDir, 'storage', 'product-art');
  fs.mkdirSync(artDir, { recursive: true });
  fs.writeFileSync(path.join(artDir, 'fast-front.png'), PNG);
  const variants = await t.db
    .selectFrom('product_variants')
    .innerJoin('product_colours', 'product_colours.id', 'product_variants.colour_id')
    .select(['product_variants.id', 'product_variants.size', 'product_variants.sku', 'product_colours.name as colour'])
    .where('product_variants.product_id', '=', product.id)
    .execute();
  for (const variant of variants) {
    const match = FAKE_CATALOG_VARIANTS.find((v) => v.color === variant.colour && v.size === variant.size);
    if (match) await t.db.updateTable('product_variants').set({ printful_variant_id: match.id }).where('id', '=', variant.id).execute();
  }
  const variant = (size: string) => variants.find((v) => v.size === size)!;
  return { admin, buyer, product, variant, adminCaller: callerFor(t.database, t.config, admin).caller };
});

/** A client of the fake as the store's, quick in tests: 20 requests a second, short timeouts. */
const quickRemote = (options: { timeoutMs?: number; minIntervalMs?: number } = {}): RemoteFulfilment =>
  createPrintfulFulfilment(
    { apiToken: printful.token, webhookSecret: printful.webhookSecret, apiUrl: printful.url },
    { minIntervalMs: options.minIntervalMs ?? 50, timeoutMs: options.timeoutMs ?? 2000, rateLimitBudgetMs: 5000 },
  ).remote!;

const run = (remote: RemoteFulfilment = quickRemote()) => processFulfilmentJobs(t.db, remote, t.config, { costsWaitMs: 0 });

/** A hand-paid order of two White M and one White L, waiting for payment. */
async function placeOrder(options: { size?: string; paid?: boolean } = {}) {
  const line = (size: string, quantity: number) => ({
    product_id: data.product.id,
    product_name: 'Fast Tee',
    variant_id: data.variant(size).id,
    variant_sku: data.variant(size).sku,
    colour_name: 'White',
    size: size as 'M',
    quantity,
    unit_price: '25.00',
    total_price: (25 * quantity).toFixed(2),
    front_print_url: data.product.front_art_url,
    back_print_url: data.product.back_art_url,
  });
  return createOrder(
    t.db,
    {
      customer_id: data.buyer.id,
      payment_status: options.paid ? 'paid' : 'pending',
      shipping_address: { name: 'Pat Buyer', street: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' },
    },
    [line(options.size ?? 'M', 2), line('L', 1)],
  );
}

const orderRow = (id: string) =>
  t.db
    .selectFrom('orders')
    .select(['status', 'fulfilment_state', 'fulfilment_reason', 'provider_order_id', 'fulfilment_cost', 'tracking_number'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const jobOf = (id: string) => t.db.selectFrom('fulfilment_jobs').selectAll().where('order_id', '=', id).executeTakeFirst();
const eventsOf = async (id: string) =>
  (await t.db.selectFrom('order_events').select('kind').where('order_id', '=', id).orderBy('created_at').orderBy('id').execute()).map(
    (e) => e.kind,
  );
const emailsTo = (to: string, subject: string) =>
  t.db.selectFrom('email_queue').select(['subject', 'text_body']).where('to_email', '=', to).where('subject', '=', subject).execute();
const creations = () => printful.requests.filter((r) => r.method === 'POST' && r.path === '/v2/orders');

const deliver = (notice: { body: string; signature?: string }) =>
  t.app.inject({
    method: 'POST',
    url: '/webhooks/printful',
    headers: { 'content-type': 'application/json', ...(notice.signature ? { 'x-pf-webhook-signature': notice.signature } : {}) },
    payload: notice.body,
  });

async function setMode(mode: 'automatic' | 'review') {
  await t.db.updateTable('store_settings').set({ fulfilment_mode: mode }).execute();
}

beforeEach(async () => {
  await t.db.deleteFrom('orders').execute();
  await t.db.deleteFrom('email_queue').execute();
  printful.requests.length = 0;
  printful.costsCalculatingFor(1);
  await setMode('review');
});

describe('queueing', () => {
  it('queues a job in the transaction that marks the order paid, and none before', async () => {
    const order = await placeOrder();
    expect(await jobOf(order.id)).toBeUndefined();
    expect((await orderRow(order.id)).fulfilment_state).toBeNull();
    await data.adminCaller.admin.orders.markPaid({ id: order.id });
    expect(await jobOf(order.id)).toMatchObject({ step: 'send', status: 'pending' });
    expect((await orderRow(order.id)).fulfilment_state).toBe('queued');
  });

  it('queues an order inserted paid (a $0.00 order, a paid club invoice) and never a cancelled one', async () => {
    const paid = await placeOrder({ paid: true });
    expect(await jobOf(paid.id)).toMatchObject({ status: 'pending' });
    const cancelled = await createOrder(t.db, { customer_id: data.buyer.id, status: 'cancelled', payment_status: 'paid' });
    expect(await jobOf(cancelled.id)).toBeUndefined();
  });

  it('queues nothing in a shop that prints its own orders', async () => {
    await t.db.updateTable('store_settings').set({ fulfilment_provider: 'self' }).execute();
    try {
      const order = await placeOrder({ paid: true });
      expect(await jobOf(order.id)).toBeUndefined();
      expect((await orderRow(order.id)).fulfilment_state).toBeNull();
    } finally {
      await t.db.updateTable('store_settings').set({ fulfilment_provider: 'printful' }).execute();
    }
  });
});

describe('sending', () => {
  it('makes a draft with ISO codes, the mapped variants, retail prices and signed print files; with review it waits', async () => {
    const order = await placeOrder({ paid: true });
    expect(await run()).toMatchObject({ sent: 1 });
    const row = await orderRow(order.id);
    expect(row.fulfilment_state).toBe('draft');
    const made = printful.orders.get(Number(row.provider_order_id))!;
    expect(made.external_id).toBe(order.order_number);
    expect(made.recipient).toMatchObject({
      name: 'Pat Buyer',
      country_code: 'US',
      state_code: 'TX',
      zip: '78701',
      email: 'pat@example.com',
    });
    const white = (size: string) => FAKE_CATALOG_VARIANTS.find((v) => v.color === 'White' && v.size === size)!.id;
    const items = made.order_items.map((item) => [item.catalog_variant_id, item.quantity, item.retail_price]);
    expect(items.sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [white('M'), 2, '25.00'],
      [white('L'), 1, '25.00'],
    ]);
    expect(made.order_items[0]!.placements.map((p) => p.placement)).toEqual(['front', 'back']);

    // The front file opens through its signed address with no session; unsigned or altered, it does not.
    const frontUrl = new URL(made.order_items[0]!.placements[0]!.layers[0]!.url);
    const expires = Number(frontUrl.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);
    const signed = await t.app.inject({ method: 'GET', url: `${frontUrl.pathname}${frontUrl.search}` });
    expect(signed.statusCode).toBe(200);
    expect(signed.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: frontUrl.pathname })).statusCode).toBe(401);
    const altered = frontUrl.search.replace(/expires=\d+/, `expires=${expires + 60}`);
    expect((await t.app.inject({ method: 'GET', url: `${frontUrl.pathname}${altered}` })).statusCode).toBe(401);

    // With review, nothing is confirmed until the admin says so.
    expect(await jobOf(order.id)).toMatchObject({ step: 'confirm', status: 'held' });
    expect(await run()).toMatchObject({ confirmed: 0 });
    expect(made.status).toBe('draft');
    expect(await eventsOf(order.id)).toEqual(['sent_to_printer']);
  });

  it('automatically: confirms only once Printful has worked out the costs, and records the cost', async () => {
    await setMode('automatic');
    printful.costsCalculatingFor(2);
    const order = await placeOrder({ paid: true });
    // Looked at again (at once, here) while the costs are calculating; the fake refuses a confirmation before.
    const result = await run();
    const paths = printful.requests.map((r) => `${r.method} ${r.path.replace(/\/\d+/, '/ID')}`);
    expect(paths.slice(1)).toEqual([
      'POST /v2/orders',
      'GET /v2/orders/ID',
      'GET /v2/orders/ID',
      'GET /v2/orders/ID',
      'POST /v2/orders/ID/confirmation',
    ]);
    expect(result).toMatchObject({ sent: 1, waiting: 2, confirmed: 1, held: 0 });
    const row = await orderRow(order.id);
    expect(row.fulfilment_state).toBe('in_production');
    expect(row.fulfilment_cost).toBe('36.49');
    expect(printful.orders.get(Number(row.provider_order_id))!.status).toBe('pending');
    expect(await eventsOf(order.id)).toEqual(['sent_to_printer', 'confirmed_for_printing']);
  });

  it('holds an order whole when a variant has no Printful variant, says which, and tells the store', async () => {
    await t.db.updateTable('product_variants').set({ printful_variant_id: null }).where('id', '=', data.variant('L').id).execute();
    try {
      const order = await placeOrder({ paid: true });
      expect(await run()).toMatchObject({ held: 1, sent: 0 });
      expect(creations()).toHaveLength(0);
      const row = await orderRow(order.id);
      expect(row.fulfilment_state).toBe('needs_attention');
      expect(row.fulfilment_reason).toBe('Not mapped to a Printful variant: Fast Tee (White, L)');
      expect(await emailsTo(t.config.storeEmail, `Order ${order.order_number} needs attention at Printful`)).toHaveLength(1);
      expect(await run()).toMatchObject({ held: 0, sent: 0 });
    } finally {
      const l = FAKE_CATALOG_VARIANTS.find((v) => v.color === 'White' && v.size === 'L')!.id;
      await t.db.updateTable('product_variants').set({ printful_variant_id: l }).where('id', '=', data.variant('L').id).execute();
    }
  });
});

describe('never twice', () => {
  it('a create that timed out after Printful made the order: the retry finds it by our number', async () => {
    const order = await placeOrder({ paid: true });
    printful.delayNextCreate(1500);
    expect(await run(quickRemote({ timeoutMs: 300 }))).toMatchObject({ failed: 1 });
    expect(printful.ordersMade()).toBeGreaterThan(0);
    const before = printful.ordersMade();
    await t.db.updateTable('fulfilment_jobs').set({ run_after: new Date() }).where('order_id', '=', order.id).execute();
    expect(await run()).toMatchObject({ sent: 1 });
    expect(printful.ordersMade()).toBe(before);
    expect(creations().filter((r) => (r.body as { external_id: string }).external_id === order.order_number)).toHaveLength(1);
    expect((await orderRow(order.id)).fulfilment_state).toBe('draft');
  });

  it('two processes at once make one order', async () => {
    const order = await placeOrder({ paid: true });
    const results = await Promise.all([run(quickRemote()), run(quickRemote())]);
    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(1);
    expect(creations().filter((r) => (r.body as { external_id: string }).external_id === order.order_number)).toHaveLength(1);
  });

  it('a process killed after Printful made the order: once its lease runs out, the next finds the order', async () => {
    const order = await placeOrder({ paid: true });
    // What the killed process got done: the order exists at Printful, nothing was recorded, the lease is held.
    await t.db
      .updateTable('fulfilment_jobs')
      .set({ locked_until: new Date(Date.now() + 60_000) })
      .where('order_id', '=', order.id)
      .execute();
    await fetch(`${printful.url}/v2/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${printful.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        external_id: order.order_number,
        recipient: { country_code: 'US' },
        order_items: [{ catalog_variant_id: 4011, quantity: 1 }],
      }),
    });
    expect(await run()).toMatchObject({ sent: 0 });
    await t.db
      .updateTable('fulfilment_jobs')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where('order_id', '=', order.id)
      .execute();
    expect(await run()).toMatchObject({ sent: 1 });
    expect(creations()).toHaveLength(1);
    expect((await orderRow(order.id)).provider_order_id).not.toBeNull();
  });
});

describe('rate limits', () => {
  it('waits out 429 by its Retry-After and never sends more than 2 requests a second', async () => {
    const order = await placeOrder({ paid: true });
    printful.rateLimitNext(1, 1);
    const remote = createPrintfulFulfilment({
      apiToken: printful.token,
      webhookSecret: printful.webhookSecret,
      apiUrl: printful.url,
    }).remote!;
    expect(await processFulfilmentJobs(t.db, remote, t.config, { costsWaitMs: 0 })).toMatchObject({ sent: 1 });
    expect((await orderRow(order.id)).fulfilment_state).toBe('draft');
    const times = printful.requests.map((r) => r.at);
    // The first request was refused; the next came after its Retry-After.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(990);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(490);
  });

  it('past its budget, a rate-limited job is tried again later and nothing is lost', async () => {
    const order = await placeOrder({ paid: true });
    printful.rateLimitNext(10, 3);
    expect(
      await run(
        createPrintfulFulfilment(
          { apiToken: printful.token, webhookSecret: printful.webhookSecret, apiUrl: printful.url },
          { minIntervalMs: 50, rateLimitBudgetMs: 2000 },
        ).remote!,
      ),
    ).toMatchObject({ failed: 1 });
    printful.rateLimitNext(0, 1);
    expect(await jobOf(order.id)).toMatchObject({ status: 'pending', attempts: 1, last_error: 'Printful is rate limiting the store' });
  });
});

describe('webhooks', () => {
  async function sentOrder() {
    const order = await placeOrder({ paid: true });
    await run();
    const providerId = Number((await orderRow(order.id)).provider_order_id);
    return { ...order, providerId };
  }

  it('refuses unsigned and wrongly signed notices with 401 and changes nothing', async () => {
    const order = await sentOrder();
    const [shipped] = printful.ship(order.providerId, [{ carrier: 'USPS', trackingNumber: '9400100000000000000001' }]);
    expect((await deliver({ body: shipped!.body })).statusCode).toBe(401);
    expect((await deliver({ body: shipped!.body, signature: 'ab'.repeat(32) })).statusCode).toBe(401);
    expect((await deliver({ body: shipped!.body.replace('USPS', 'UPS'), signature: shipped!.signature })).statusCode).toBe(401);
    expect((await orderRow(order.id)).fulfilment_state).toBe('draft');
  });

  it('shipment_sent: shipped with tracking, one email per package, repeats harmless, a second package beside the first', async () => {
    const order = await sentOrder();
    const [first, second] = printful.ship(order.providerId, [
      { carrier: 'USPS', trackingNumber: '9400100000000000000001' },
      { carrier: 'UPS', trackingNumber: '1Z999AA10123456784' },
    ]) as [SignedNotice, SignedNotice];
    const answer = await deliver(first);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ outcome: 'applied' });
    expect((await deliver(first)).json()).toMatchObject({ outcome: 'unchanged' });
    await deliver(second);
    await deliver(second);
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ status: 'shipped', fulfilment_state: 'shipped', tracking_number: '9400100000000000000001' });
    const packages = await t.db
      .selectFrom('order_shipments')
      .select(['carrier', 'tracking_number', 'tracking_url'])
      .where('order_id', '=', order.id)
      .orderBy('created_at')
      .execute();
    expect(packages).toEqual([
      { carrier: 'USPS', tracking_number: '9400100000000000000001', tracking_url: 'https://track.example/9400100000000000000001' },
      { carrier: 'UPS', tracking_number: '1Z999AA10123456784', tracking_url: 'https://track.example/1Z999AA10123456784' },
    ]);
    const emails = await emailsTo('pat@example.com', `Your order ${order.order_number} has shipped`);
    expect(emails).toHaveLength(2);
    expect(emails.map((e) => e.text_body.includes('https://track.example/'))).toEqual([true, true]);
    expect((await eventsOf(order.id)).filter((kind) => kind === 'shipped')).toHaveLength(1);
  });

  it('order_failed and order_put_hold: Needs attention with the reason and one email to the store; never after shipping', async () => {
    const order = await sentOrder();
    const failed = printful.notice('order_failed', order.providerId, { reason: 'Print file is too small' });
    await deliver(failed);
    await deliver(failed);
    expect(await orderRow(order.id)).toMatchObject({ fulfilment_state: 'needs_attention', fulfilment_reason: 'Print file is too small' });
    expect(await emailsTo(t.config.storeEmail, `Order ${order.order_number} needs attention at Printful`)).toHaveLength(1);

    const [shipped] = printful.ship(order.providerId, [{ carrier: 'USPS', trackingNumber: '9400100000000000000002' }]);
    await deliver(shipped!);
    // A hold that arrives late never moves a shipped order back.
    expect((await deliver(printful.notice('order_put_hold', order.providerId, { reason: 'Address check' }))).json()).toMatchObject({
      outcome: 'unchanged',
    });
    expect(await orderRow(order.id)).toMatchObject({ fulfilment_state: 'shipped', status: 'shipped', fulfilment_reason: null });
  });

  it('order_canceled: on the timeline once; an unknown order is acknowledged and changes nothing', async () => {
    const order = await sentOrder();
    const cancelled = printful.notice('order_canceled', order.providerId, { reason: 'Cancelled in the dashboard' });
    await deliver(cancelled);
    await deliver(cancelled);
    expect((await eventsOf(order.id)).filter((kind) => kind === 'printer_cancelled')).toHaveLength(1);
    expect((await orderRow(order.id)).fulfilment_state).toBe('cancelled');
    const unknown = await deliver(printful.notice('order_failed', 999_999, { reason: 'x' }));
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({ outcome: 'unknown_order' });
  });
});

describe('admin', () => {
  it('Test connection names the Printful store; a customer is refused every fulfilment procedure', async () => {
    expect(await data.adminCaller.admin.fulfilment.testConnection()).toEqual({ ok: true, storeName: printful.storeName });
    const customer = callerFor(t.database, t.config, data.buyer).caller;
    await expect(customer.admin.fulfilment.testConnection()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(customer.admin.fulfilment.mapProduct({ productId: data.product.id, catalogProductId: 1 })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it('linking a product to a blank matches variants by colour and size, and names what did not match', async () => {
    const other = await createProduct(t.db, { name: 'Odd Tee', available_sizes: ['M', '4XL'] });
    const result = await data.adminCaller.admin.fulfilment.mapProduct({ productId: other.id, catalogProductId: FAKE_CATALOG_PRODUCT_ID });
    expect(result).toEqual({ matched: 1, unmatched: ['White / 4XL'] });
    const mapping = await data.adminCaller.admin.fulfilment.productMapping({ productId: other.id });
    expect(mapping.catalogProductId).toBe(FAKE_CATALOG_PRODUCT_ID);
    expect(mapping.variants.map((v) => [v.size, v.printful_variant_id])).toEqual([
      ['4XL', null],
      ['M', FAKE_CATALOG_VARIANTS.find((v) => v.color === 'White' && v.size === 'M')!.id],
    ]);
    expect(await data.adminCaller.admin.fulfilment.unmappedProducts()).toContain(other.id);
    const fourXl = mapping.variants.find((v) => v.size === '4XL')!;
    await data.adminCaller.admin.fulfilment.mapVariant({ variantId: fourXl.id, catalogVariantId: 4099 });
    expect(await data.adminCaller.admin.fulfilment.unmappedProducts()).not.toContain(other.id);
    await expect(data.adminCaller.admin.fulfilment.mapVariant({ variantId: fourXl.id, catalogVariantId: -1 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('Confirm for printing sends a reviewed draft to production; Retry sends a held order again once it is fixed', async () => {
    const order = await placeOrder({ paid: true });
    await run();
    await expect(data.adminCaller.admin.fulfilment.retry({ id: order.id })).rejects.toMatchObject({ code: 'CONFLICT' });
    await data.adminCaller.admin.fulfilment.confirm({ id: order.id });
    expect(await run()).toMatchObject({ confirmed: 1 });
    expect((await orderRow(order.id)).fulfilment_state).toBe('in_production');
    await expect(data.adminCaller.admin.fulfilment.confirm({ id: order.id })).rejects.toMatchObject({ code: 'CONFLICT' });

    // Held for a state that is no state code; the admin fixes the address and retries.
    const held = await createOrder(t.db, {
      customer_id: data.buyer.id,
      payment_status: 'paid',
      shipping_address: { name: 'Pat', street: '1 Main St', city: 'Austin', state: 'Texas', zip: '78701', country: 'USA' },
    });
    await t.db
      .insertInto('order_items')
      .values({
        order_id: held.id,
        product_id: data.product.id,
        product_name: 'Fast Tee',
        variant_id: data.variant('M').id,
        colour_name: 'White',
        size: 'M',
        quantity: 1,
        unit_price: '25.00',
        total_price: '25.00',
        front_print_url: data.product.front_art_url,
      })
      .execute();
    await run();
    expect(await orderRow(held.id)).toMatchObject({ fulfilment_state: 'needs_attention' });
    const attention = await data.adminCaller.admin.orders.list({ status: 'needs_attention' });
    expect(attention.orders.map((o) => o.order_number)).toEqual([held.order_number]);
    expect(attention.total).toBe(1);
    await t.db
      .updateTable('orders')
      .set({
        shipping_address: JSON.stringify({ name: 'Pat', street: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' }),
      })
      .where('id', '=', held.id)
      .execute();
    await data.adminCaller.admin.fulfilment.retry({ id: held.id });
    expect(await run()).toMatchObject({ sent: 1 });
    expect((await orderRow(held.id)).fulfilment_state).toBe('draft');
    const detail = await data.adminCaller.admin.orders.get({ id: held.id });
    expect(detail).toMatchObject({ fulfilment_state: 'draft', fulfilment_reason: null });
    expect(detail.provider_order_url).toContain('printful.com');
  });

  it('Send to Printful queues a paid order made before Printful was set up, once', async () => {
    await t.db.updateTable('store_settings').set({ fulfilment_provider: 'self' }).execute();
    const order = await placeOrder({ paid: true });
    await t.db.updateTable('store_settings').set({ fulfilment_provider: 'printful' }).execute();
    expect(await jobOf(order.id)).toBeUndefined();
    await data.adminCaller.admin.fulfilment.send({ id: order.id });
    expect(await jobOf(order.id)).toMatchObject({ step: 'send', status: 'pending' });
    expect(await run()).toMatchObject({ sent: 1 });
    await expect(data.adminCaller.admin.fulfilment.send({ id: order.id })).rejects.toMatchObject({ code: 'CONFLICT' });
    const unpaid = await placeOrder();
    await expect(data.adminCaller.admin.fulfilment.send({ id: unpaid.id })).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});

describe('cancelling', () => {
  it('cancels at Printful while it is a draft, and says when it is too late', async () => {
    const draft = await placeOrder({ paid: true });
    await run();
    const cancelled = await data.adminCaller.admin.orders.setStatus({ id: draft.id, status: 'cancelled' });
    expect(cancelled.printfulCancellation).toBe('cancelled');
    expect(cancelled.fulfilment_state).toBe('cancelled');
    expect(printful.orders.get(Number(cancelled.provider_order_url!.split('=').at(-1)))!.status).toBe('canceled');
    expect(await eventsOf(draft.id)).toContain('printer_cancelled');

    await setMode('automatic');
    const printing = await placeOrder({ paid: true });
    await run();
    expect((await orderRow(printing.id)).fulfilment_state).toBe('in_production');
    printful.orders.get(Number((await orderRow(printing.id)).provider_order_id))!.status = 'inprocess';
    const late = await data.adminCaller.admin.orders.setStatus({ id: printing.id, status: 'cancelled' });
    expect(late.printfulCancellation).toBe('too_late');
    expect(late.fulfilment_state).toBe('in_production');
  });
});

describe("the customer's order page", () => {
  it('lists every package Printful sent with its tracking link', async () => {
    const order = await placeOrder({ paid: true });
    await run();
    const providerId = Number((await orderRow(order.id)).provider_order_id);
    for (const notice of printful.ship(providerId, [
      { carrier: 'USPS', trackingNumber: '9400100000000000000009' },
      { carrier: 'UPS', trackingNumber: '1Z999AA10123456799' },
    ]))
      await deliver(notice);
    const page = await callerFor(t.database, t.config, data.buyer).caller.orders.get({ orderNumber: order.order_number });
    expect(page.packages.map((p) => [p.carrier, p.tracking_url])).toEqual([
      ['USPS', 'https://track.example/9400100000000000000009'],
      ['UPS', 'https://track.example/1Z999AA10123456799'],
    ]);
  });
});
