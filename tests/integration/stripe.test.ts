import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PRICES_CHANGED } from '../../src/server/orders/place';
import { createPaymentProvider } from '../../src/server/payments';
import { manualPayments } from '../../src/server/payments/manual';
import { createStripePayments } from '../../src/server/payments/stripe';
import { callerFor, callTrpc } from '../support/app';
import { trpcFailure } from '../support/async';
import { createAdmin, createCustomer, createProduct, type TestUser } from '../support/factories';
import { queuedEmailLink } from '../support/email';
import { membershipInvoice, paidSession, refundedCharge, signedEvent, type FakeSession } from '../support/fake-stripe';
import { sharedStripeApp } from '../support/stripe-app';

// Card payments through Stripe Checkout, against a local server that speaks the part of Stripe's
// API the store uses; webhooks are signed as Stripe signs them. The webhook is the source of
// truth: it alone completes an order, once, whatever order and however often events arrive.

const { stripe, t, event, deliver } = sharedStripeApp();
let buyer: TestUser;
let admin: TestUser;
let tee: string;

const callers = () => {
  const payments = createPaymentProvider(t.config);
  return {
    buyer: callerFor(t.database, t.config, buyer, { payments }).caller,
    admin: callerFor(t.database, t.config, admin, { payments }).caller,
  };
};
const shipping = { first_name: 'Ann', last_name: 'Card', street: '1 Pay St', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' };
const placeOrder = (key = randomUUID()) =>
  callers().buyer.checkout.placeOrder({ idempotencyKey: key, lines: [{ productId: tee, size: 'M', quantity: 2 }], shipping });

const orderOf = (sessionId: string) =>
  t.db
    .selectFrom('orders')
    .select(['id', 'order_number', 'status', 'payment_status', 'payment_intent_id', 'total'])
    .where('checkout_session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
const emailSubjects = async () =>
  (await t.db.selectFrom('email_queue').select('subject').orderBy('created_at').execute()).map((e) => e.subject);
const sessionOf = (url: string | null): FakeSession => {
  const session = [...stripe.sessions.values()].find((s) => s.url === url);
  if (!session) throw new Error(`no session for ${url}`);
  return session;
};

beforeAll(async () => {
  buyer = await createCustomer(t.db, { email: 'ann@example.com' });
  admin = await createAdmin(t.db);
  tee = (await createProduct(t.db, { name: 'Fast Tee', price: '24.99' })).id;
});
beforeEach(async () => {
  await t.db.deleteFrom('orders').execute();
  await t.db.deleteFrom('email_queue').execute();
  await t.db
    .updateTable('store_settings')
    .set({ flat_shipping_rate: '4.00', free_shipping_threshold: null, tax_rate_percent: '0' })
    .execute();
  stripe.requests.length = 0;
});

describe('a guest paying by card', () => {
  const placeAsGuest = (email: string) =>
    callTrpc<{ orderId: string; orderNumber: string; accessKey: string | null; redirectUrl: string | null }>(t.app, 'checkout.placeOrder', {
      input: { idempotencyKey: randomUUID(), lines: [{ productId: tee, size: 'M', quantity: 2 }], shipping, email },
    });
  const byKey = (orderNumber: string, key: string) =>
    callTrpc<{ order_number: string; payment_status: string; paymentUrl: string | null; guest: boolean }>(t.app, 'orders.byKey', {
      type: 'query',
      input: { orderNumber, key },
    });

  it('goes to Stripe with its address, is paid by the webhook, and its key opens it as Paid; the email links to it', async () => {
    const placed = await placeAsGuest('card.guest@example.com');
    expect(placed.statusCode).toBe(200);
    const { orderId, orderNumber, accessKey, redirectUrl } = placed.data!;
    const session = sessionOf(redirectUrl);
    expect(session).toMatchObject({ client_reference_id: orderId, customer_email: 'card.guest@example.com', amount_total: 5398 });
    // Stripe sends the buyer back to the store by order id; the tab that left kept the key for it.
    expect(stripe.requests[0]?.body).toMatchObject({
      success_url: `${t.config.publicUrl}/checkout/complete?order=${orderId}&payment=done`,
    });
    // Before the payment the page by key offers the Stripe page again, and nothing is emailed.
    expect((await byKey(orderNumber, accessKey!)).data).toMatchObject({ payment_status: 'pending', paymentUrl: redirectUrl, guest: true });
    expect(await emailSubjects()).toEqual([]);

    expect(await deliver(event('checkout.session.completed', paidSession(session, 'pi_guest')))).toEqual({
      status: 200,
      body: { received: true, outcome: 'applied' },
    });
    expect((await byKey(orderNumber, accessKey!)).data).toMatchObject({
      order_number: orderNumber,
      payment_status: 'paid',
      paymentUrl: null,
    });
    expect(await emailSubjects()).toEqual([`Order ${orderNumber} confirmed`]);
    expect(await queuedEmailLink(t.db, 'card.guest@example.com', orderNumber)).toBe(
      `${t.config.publicUrl}/orders/${orderNumber}?key=${accessKey}`,
    );
  });

  it('is not found on the way back without its key: not by a visitor, not by a signed-in customer', async () => {
    const { orderId, orderNumber } = (await placeAsGuest('lost.key@example.com')).data!;
    // The way back asks for the order's number by id, which only an account's own orders answer.
    const signedOut = await callTrpc(t.app, 'orders.numberOf', { type: 'query', input: { id: orderId } });
    expect(signedOut.statusCode).toBe(401);
    expect((await trpcFailure(callers().buyer.orders.numberOf({ id: orderId }))).code).toBe('NOT_FOUND');
    expect((await trpcFailure(callers().buyer.orders.get({ orderNumber }))).code).toBe('NOT_FOUND');
  });
});

describe('checking out with Stripe', () => {
  it('opens a Checkout Session priced by the server and sends the buyer to it; nothing is emailed yet', async () => {
    const placed = await placeOrder();
    const session = sessionOf(placed.redirectUrl);
    expect(placed.redirectUrl).toBe(session.url);
    const order = await orderOf(session.id);
    expect(order).toMatchObject({ order_number: placed.orderNumber, status: 'pending', payment_status: 'pending', total: '53.98' });
    expect(session).toMatchObject({ client_reference_id: order.id, customer_email: 'ann@example.com', amount_total: 5398 });
    expect(session.line_items).toEqual([
      { name: 'Fast Tee (White, M)', unitAmount: 2499, quantity: 2 },
      { name: 'Shipping', unitAmount: 400, quantity: 1 },
    ]);
    const [request] = stripe.requests;
    expect(request?.idempotencyKey).toMatch(new RegExp(`^checkout-session-${order.id}-[0-9a-f]{16}$`));
    expect(request?.body).toMatchObject({
      mode: 'payment',
      success_url: expect.stringContaining(`/checkout/complete?order=${order.id}`) as unknown,
    });
    expect(await emailSubjects()).toEqual([]);
  });

  it('lets the webhook alone complete an order whose buyer closed the browser after paying, once', async () => {
    const placed = await placeOrder();
    const session = paidSession(sessionOf(placed.redirectUrl), 'pi_closed_browser');
    const completed = event('checkout.session.completed', session);
    expect(await deliver(completed)).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
    expect(await orderOf(session.id)).toMatchObject({ payment_status: 'paid', payment_intent_id: 'pi_closed_browser' });
    // Stripe delivers again (a timeout on its side): nothing more happens.
    expect((await deliver(completed)).body.outcome).toBe('duplicate');
    expect(await emailSubjects()).toEqual([`Order ${placed.orderNumber} confirmed`]);
    // The buyer who comes back (before or after the webhook) reads the order's real state.
    expect(await callers().buyer.orders.numberOf({ id: (await orderOf(session.id)).id })).toBe(placed.orderNumber);
    expect(await callers().buyer.orders.get({ orderNumber: placed.orderNumber })).toMatchObject({
      payment_status: 'paid',
      paymentUrl: null,
    });
  });

  it('offers the session again to a buyer who has not paid yet, and repeats nothing for a repeated submission', async () => {
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => placeOrder(key)));
    expect(new Set(results.map((r) => r.orderNumber)).size).toBe(1);
    expect(new Set(results.map((r) => r.redirectUrl)).size).toBe(1);
    expect(stripe.sessions.size).toBeGreaterThan(0);
    const orders = await t.db.selectFrom('orders').select('order_number').execute();
    expect(orders).toHaveLength(1);
    const view = await callers().buyer.orders.get({ orderNumber: results[0]!.orderNumber });
    expect(view.paymentUrl).toBe(results[0]?.redirectUrl);
  });

  it('makes one paid transition and one email of 20 deliveries of one event at once', async () => {
    const placed = await placeOrder();
    const completed = event('checkout.session.completed', paidSession(sessionOf(placed.redirectUrl)));
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => deliver(completed)));
    expect(outcomes.filter((o) => o.body.outcome === 'applied')).toHaveLength(1);
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    expect(await emailSubjects()).toEqual([`Order ${placed.orderNumber} confirmed`]);
    const history = await t.db.selectFrom('order_events').select('kind').where('kind', '=', 'paid').execute();
    expect(history).toHaveLength(1);
  });

  it('cancels an unpaid order whose session expired, and ignores an expiry that arrives after payment', async () => {
    const abandoned = await placeOrder();
    const abandonedSession = sessionOf(abandoned.redirectUrl);
    await deliver(event('checkout.session.expired', { ...abandonedSession, status: 'expired' }));
    expect(await orderOf(abandonedSession.id)).toMatchObject({ status: 'cancelled', payment_status: 'failed' });

    const paid = await placeOrder();
    const paidOne = paidSession(sessionOf(paid.redirectUrl));
    await deliver(event('checkout.session.completed', paidOne));
    await deliver(event('checkout.session.expired', { ...paidOne, status: 'expired' }));
    expect(await orderOf(paidOne.id)).toMatchObject({ status: 'pending', payment_status: 'paid' });
  });

  it('waits for a delayed payment method, then completes or fails on its own events', async () => {
    const slow = await placeOrder();
    const session = sessionOf(slow.redirectUrl);
    await deliver(event('checkout.session.completed', { ...session, status: 'complete', payment_status: 'unpaid' }));
    expect(await orderOf(session.id)).toMatchObject({ payment_status: 'pending' });
    await deliver(event('checkout.session.async_payment_succeeded', paidSession(session)));
    expect(await orderOf(session.id)).toMatchObject({ payment_status: 'paid' });

    const failing = await placeOrder();
    const failingSession = sessionOf(failing.redirectUrl);
    await deliver(event('checkout.session.async_payment_failed', failingSession));
    expect(await orderOf(failingSession.id)).toMatchObject({ payment_status: 'failed' });
  });

  it('refunds in full through Stripe with an idempotency key, emails once, and a late refund event changes nothing', async () => {
    const placed = await placeOrder();
    const session = paidSession(sessionOf(placed.redirectUrl), 'pi_to_refund');
    await deliver(event('checkout.session.completed', session));
    const { id } = await orderOf(session.id);

    const refunded = await callers().admin.admin.orders.refund({ id });
    expect(refunded).toMatchObject({ payment_status: 'refunded', payment_provider: 'stripe' });
    const refundCall = stripe.requests.find((r) => r.path === '/v1/refunds');
    expect(refundCall).toMatchObject({ idempotencyKey: `refund-${id}`, body: { payment_intent: 'pi_to_refund' } });
    expect((await deliver(event('charge.refunded', refundedCharge('pi_to_refund', 5398)))).body.outcome).toBe('applied');
    expect(await emailSubjects()).toEqual([`Order ${placed.orderNumber} confirmed`, `Order ${placed.orderNumber} refunded`]);
  });

  it('keeps a refund that Stripe reports before the payment it refunds', async () => {
    const placed = await placeOrder();
    const session = paidSession(sessionOf(placed.redirectUrl), 'pi_out_of_order');
    // The refund's event names the payment intent only; the store asks Stripe which order it paid.
    expect((await deliver(event('charge.refunded', refundedCharge('pi_out_of_order', 5398)))).body.outcome).toBe('applied');
    await deliver(event('checkout.session.completed', session));
    expect(await orderOf(session.id)).toMatchObject({ payment_status: 'refunded' });
  });

  it('refuses a delivery with a bad signature with 400 and changes nothing; an unknown order is acknowledged', async () => {
    const placed = await placeOrder();
    const session = paidSession(sessionOf(placed.redirectUrl));
    const forged = signedEvent('whsec_someone_else', 'checkout.session.completed', session);
    const eventsBefore = await t.db.selectFrom('payment_events').select('event_id').execute();
    expect(await deliver(forged)).toEqual({ status: 400, body: { error: 'Invalid signature' } });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      headers: { 'content-type': 'application/json' },
      payload: forged.body,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await orderOf(session.id)).toMatchObject({ payment_status: 'pending' });
    expect(await t.db.selectFrom('payment_events').select('event_id').execute()).toEqual(eventsBefore);

    const stranger = await deliver(
      event('checkout.session.completed', { ...session, id: 'cs_unknown', metadata: { order_id: randomUUID() } }),
    );
    expect(stranger).toEqual({ status: 200, body: { received: true, outcome: 'unknown_order' } });
  });

  it('refuses a signature dated more than 5 minutes ahead of the store, which the SDK lets through', async () => {
    const placed = await placeOrder();
    const session = paidSession(sessionOf(placed.redirectUrl), 'pi_future');
    const now = Math.floor(Date.now() / 1000);
    const ahead = event('checkout.session.completed', session, undefined, now + 10 * 60);
    expect(await deliver(ahead)).toEqual({ status: 400, body: { error: 'Invalid signature' } });
    expect(await orderOf(session.id)).toMatchObject({ payment_status: 'pending' });
    // Clocks a little apart are fine.
    const skewed = event('checkout.session.completed', session, undefined, now + 4 * 60);
    expect(await deliver(skewed)).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
  });

  it('changes no order paid some other way, whatever a signed event names', async () => {
    const manual = callerFor(t.database, t.config, buyer, { payments: manualPayments }).caller;
    const placed = await manual.checkout.placeOrder({
      idempotencyKey: randomUUID(),
      lines: [{ productId: tee, size: 'M', quantity: 1 }],
      shipping,
    });
    const { id } = await t.db.selectFrom('orders').select('id').where('order_number', '=', placed.orderNumber).executeTakeFirstOrThrow();
    await callers().admin.admin.orders.markPaid({ id });
    const outcomes = [];
    for (const signed of [
      event('charge.refunded', { ...refundedCharge('pi_elsewhere', 2899), metadata: { order_id: id } }),
      event('checkout.session.completed', {
        id: 'cs_elsewhere',
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        payment_intent: 'pi_elsewhere',
        client_reference_id: id,
        metadata: { order_id: id },
      }),
    ]) {
      outcomes.push((await deliver(signed)).body);
    }
    expect(outcomes).toEqual([
      { received: true, outcome: 'ignored' },
      { received: true, outcome: 'ignored' },
    ]);
    const order = await t.db.selectFrom('orders').select(['status', 'payment_status']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(order).toEqual({ status: 'pending', payment_status: 'paid' });
  });

  it("acknowledges signed events that carry someone else's ids (a Payment Link's client_reference_id), changing nothing", async () => {
    const placed = await placeOrder();
    const session = sessionOf(placed.redirectUrl);
    const foreign = 'plink-ref-42';
    const events = [
      event('checkout.session.completed', { ...paidSession({ ...session }), id: 'cs_link', client_reference_id: foreign }),
      event('checkout.session.expired', { ...session, id: 'cs_link_2', client_reference_id: null, metadata: { order_id: foreign } }),
      event('checkout.session.completed', { ...session, id: 'cs_sub', mode: 'subscription', metadata: { subscription_id: foreign } }),
      event('charge.refunded', { ...refundedCharge('pi_link', 100), metadata: { order_id: foreign } }),
      event('invoice.payment_failed', {
        ...membershipInvoice({
          subscriptionId: foreign,
          stripeSubscription: 'sub_link',
          periodStart: '2027-01-01',
          periodEnd: '2027-02-01',
        }),
        status: 'open',
      }),
    ];
    for (const foreignEvent of events) expect((await deliver(foreignEvent)).status).toBe(200);
    expect(await orderOf(session.id)).toMatchObject({ status: 'pending', payment_status: 'pending' });
  });

  it('pays or cancels an order only on its own payment page, whatever order id another payment names', async () => {
    const placed = await placeOrder();
    const session = sessionOf(placed.redirectUrl);
    const { id } = await orderOf(session.id);
    // $1 through a Payment Link whose URL set client_reference_id to this order's id; and pages
    // on the account that carry the order's id in their metadata but are not the order's page.
    const paidDollar = { ...session, status: 'complete', payment_status: 'paid', payment_intent: 'pi_foreign', amount_total: 100 };
    const outcomes = [];
    for (const foreignEvent of [
      event('checkout.session.completed', { ...paidDollar, id: 'cs_link_1', client_reference_id: id, metadata: {} }),
      event('checkout.session.completed', { ...paidDollar, id: 'cs_other_1' }),
      event('checkout.session.async_payment_succeeded', { ...paidDollar, id: 'cs_other_2' }),
      event('checkout.session.expired', { ...session, id: 'cs_other_3', status: 'expired' }),
      event('checkout.session.async_payment_failed', { ...session, id: 'cs_other_4' }),
    ]) {
      outcomes.push((await deliver(foreignEvent)).body);
    }
    expect(outcomes).toEqual([
      { received: true, outcome: 'ignored' },
      { received: true, outcome: 'ignored' },
      { received: true, outcome: 'ignored' },
      { received: true, outcome: 'ignored' },
      { received: true, outcome: 'ignored' },
    ]);
    expect(await orderOf(session.id)).toMatchObject({ status: 'pending', payment_status: 'pending', payment_intent_id: null });
    expect(await emailSubjects()).toEqual([]);

    // Its own page still pays it.
    await deliver(event('checkout.session.completed', paidSession(session, 'pi_own')));
    expect(await orderOf(session.id)).toMatchObject({ status: 'pending', payment_status: 'paid', payment_intent_id: 'pi_own' });
  });

  it('opens a new session when a submission whose prices changed is sent again', async () => {
    const changing = (await createProduct(t.db, { name: 'Changing Tee', price: '20.00' })).id;
    const payments = createPaymentProvider(t.config);
    let firstSessionId = '';
    // The price changes while the first session is being opened.
    const racing: typeof payments = {
      ...payments,
      startPayment: async (request) => {
        const started = await payments.startPayment(request);
        firstSessionId = started?.sessionId ?? '';
        await t.db.updateTable('products').set({ price: '22.00' }).where('id', '=', changing).execute();
        return started;
      },
    };
    const submit = (provider: typeof payments) =>
      callerFor(t.database, t.config, buyer, { payments: provider }).caller.checkout.placeOrder({
        idempotencyKey: key,
        lines: [{ productId: changing, size: 'M', quantity: 1 }],
        shipping,
      });
    const key = randomUUID();
    expect(await trpcFailure(submit(racing))).toEqual({ code: 'CONFLICT', message: PRICES_CHANGED });

    const placed = await submit(payments);
    const session = sessionOf(placed.redirectUrl);
    expect(session.amount_total).toBe(2600);
    expect(await orderOf(session.id)).toMatchObject({ total: '26.00', payment_status: 'pending' });

    // The first page, never shown to the buyer, expires a day later: the order stays payable on its own.
    const firstSession = stripe.sessions.get(firstSessionId);
    expect(firstSession?.id).not.toBe(session.id);
    await deliver(event('checkout.session.expired', { ...firstSession, status: 'expired' }));
    expect(await orderOf(session.id)).toMatchObject({ status: 'pending', payment_status: 'pending' });
    await deliver(event('checkout.session.completed', paidSession(session, 'pi_second_page')));
    expect(await orderOf(session.id)).toMatchObject({ status: 'pending', payment_status: 'paid', payment_intent_id: 'pi_second_page' });
  });

  it("closes an order's open payment page when an admin cancels it; sent again, the submission is not sent to pay", async () => {
    const key = randomUUID();
    const placed = await placeOrder(key);
    const session = sessionOf(placed.redirectUrl);
    const { id } = await orderOf(session.id);
    await callers().admin.admin.orders.setStatus({ id, status: 'cancelled' });
    expect(stripe.requests.map((r) => `${r.method} ${r.path}`)).toContain(`POST /v1/checkout/sessions/${session.id}/expire`);
    expect(session.status).toBe('expired');
    expect(await placeOrder(key)).toEqual({ orderId: placed.orderId, orderNumber: placed.orderNumber, redirectUrl: null, accessKey: null });

    // Stripe's notice of the expiry finds the order cancelled already.
    await deliver(event('checkout.session.expired', { ...session }));
    expect(await orderOf(session.id)).toMatchObject({ status: 'cancelled', payment_status: 'failed' });
    const history = await t.db.selectFrom('order_events').select('kind').where('order_id', '=', id).orderBy('created_at').execute();
    expect(history.map((e) => e.kind)).toEqual(['placed', 'cancelled', 'payment_failed']);
    expect(await emailSubjects()).toEqual([`Order ${placed.orderNumber} was cancelled`]);
  });

  it('cancels an order whose payment page Stripe does not have or cannot be reached about', async () => {
    for (const payments of [
      createPaymentProvider(t.config),
      // Nothing listens there: every call fails.
      createStripePayments({ secretKey: 'sk_test_threadline', webhookSecret: 'whsec_unused', apiUrl: 'http://127.0.0.1:9' }),
    ]) {
      const placed = await placeOrder();
      const { id } = await orderOf(sessionOf(placed.redirectUrl).id);
      // A session made under other keys (test keys before live ones, say).
      await t.db
        .updateTable('orders')
        .set({ checkout_session_id: `cs_test_unknown_${id}` })
        .where('id', '=', id)
        .execute();
      const cancelled = await callerFor(t.database, t.config, admin, { payments }).caller.admin.orders.setStatus({
        id,
        status: 'cancelled',
      });
      expect(cancelled).toMatchObject({ status: 'cancelled' });
    }
  });

  it('refunds a payment made as the order was being cancelled, and tells the buyer it was refunded, not confirmed', async () => {
    const placed = await placeOrder();
    // Paid just before the admin cancels: there is no open page left to close.
    const session = paidSession(sessionOf(placed.redirectUrl), 'pi_paid_while_cancelled');
    const { id } = await orderOf(session.id);
    await callers().admin.admin.orders.setStatus({ id, status: 'cancelled' });
    expect(stripe.requests.some((r) => r.path.endsWith('/expire'))).toBe(false);

    expect(await deliver(event('checkout.session.completed', session))).toEqual({
      status: 200,
      body: { received: true, outcome: 'paid_after_cancel' },
    });
    expect(await orderOf(session.id)).toMatchObject({ status: 'cancelled', payment_status: 'refunded' });
    const refundCall = stripe.requests.find((r) => r.path === '/v1/refunds');
    expect(refundCall).toMatchObject({ idempotencyKey: `refund-${id}`, body: { payment_intent: 'pi_paid_while_cancelled' } });
    expect(await emailSubjects()).toEqual([`Order ${placed.orderNumber} was cancelled`, `Order ${placed.orderNumber} refunded`]);
  });

  it('refunds a payment whose notice came between the admin cancelling and the cancellation, as it does one after', async () => {
    const placed = await placeOrder();
    const session = sessionOf(placed.redirectUrl);
    const { id } = await orderOf(session.id);
    const payments = createPaymentProvider(t.config);
    // The buyer pays, and its notice is applied, while the admin's cancellation closes the page.
    const racing: typeof payments = {
      ...payments,
      closePayment: async (sessionId) => {
        await deliver(event('checkout.session.completed', paidSession(session, 'pi_paid_in_between')));
        await payments.closePayment(sessionId);
      },
    };
    await callerFor(t.database, t.config, admin, { payments: racing }).caller.admin.orders.setStatus({ id, status: 'cancelled' });

    expect(await orderOf(session.id)).toMatchObject({ status: 'cancelled', payment_status: 'refunded' });
    const refundCalls = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(refundCalls).toMatchObject([{ idempotencyKey: `refund-${id}`, body: { payment_intent: 'pi_paid_in_between' } }]);
    expect(await emailSubjects()).toEqual([
      `Order ${placed.orderNumber} confirmed`,
      `Order ${placed.orderNumber} was cancelled`,
      `Order ${placed.orderNumber} refunded`,
    ]);
  });

  it('keeps the status of an unpaid order an admin took further when its payment page expires, with the payment failed', async () => {
    const placed = await placeOrder();
    const session = sessionOf(placed.redirectUrl);
    const { id } = await orderOf(session.id);
    await callers().admin.admin.orders.setStatus({ id, status: 'shipped' });
    await deliver(event('checkout.session.expired', { ...session, status: 'expired' }));

    expect(await orderOf(session.id)).toMatchObject({ status: 'shipped', payment_status: 'failed' });
    const history = await t.db.selectFrom('order_events').select('kind').where('order_id', '=', id).orderBy('created_at').execute();
    expect(history.map((e) => e.kind)).toEqual(['placed', 'shipped', 'payment_failed']);
    expect(await emailSubjects()).toEqual([`Order ${placed.orderNumber} has shipped`]);
  });

  it('writes nothing when Stripe cannot open the session', async () => {
    stripe.failNextSession();
    const failure = await trpcFailure(placeOrder());
    expect(failure.code).toBe('INTERNAL_SERVER_ERROR');
    expect(await t.db.selectFrom('orders').select('id').execute()).toEqual([]);
  });
});

describe('discount codes with Stripe', () => {
  const placeWithCode = (discountCode: string) =>
    callers().buyer.checkout.placeOrder({
      idempotencyKey: randomUUID(),
      lines: [{ productId: tee, size: 'M', quantity: 2 }],
      shipping,
      discountCode,
    });

  beforeAll(async () => {
    await t.db
      .insertInto('discount_codes')
      .values([
        { code: 'STRIPE25', kind: 'percent', value: 25 },
        { code: 'STRIPE301', kind: 'amount', value: 301 },
        { code: 'STRIPESHIP', kind: 'free_shipping' },
        { code: 'STRIPEFREE', kind: 'percent', value: 100 },
      ])
      .execute();
  });

  it('sends the payment page the discounted lines, charging exactly the order’s total', async () => {
    // 25 % of 2 × $24.99 = $12.495, rounded half up to $12.50: $6.25 a shirt.
    const even = await placeWithCode('STRIPE25');
    const evenSession = sessionOf(even.redirectUrl);
    expect(evenSession.line_items).toEqual([
      { name: 'Fast Tee (White, M), discounted', unitAmount: 1874, quantity: 2 },
      { name: 'Shipping', unitAmount: 400, quantity: 1 },
    ]);
    expect(await orderOf(evenSession.id)).toMatchObject({ total: '41.48' });
    expect(evenSession.amount_total).toBe(4148);

    // $3.01 off two shirts does not divide into whole cents a shirt: the line goes as one item.
    const odd = await placeWithCode('STRIPE301');
    const oddSession = sessionOf(odd.redirectUrl);
    expect(oddSession.line_items).toEqual([
      { name: 'Fast Tee (White, M) × 2, discounted', unitAmount: 4998 - 301, quantity: 1 },
      { name: 'Shipping', unitAmount: 400, quantity: 1 },
    ]);
    expect(await orderOf(oddSession.id)).toMatchObject({ total: '50.97' });
    expect(oddSession.amount_total).toBe(5097);

    // Free shipping: no shipping line to pay.
    const shipFree = sessionOf((await placeWithCode('STRIPESHIP')).redirectUrl);
    expect(shipFree.line_items).toEqual([{ name: 'Fast Tee (White, M)', unitAmount: 2499, quantity: 2 }]);
    expect(shipFree.amount_total).toBe(4998);
  });

  it('places an order that comes to $0.00 paid, without a payment page', async () => {
    await t.db.updateTable('store_settings').set({ flat_shipping_rate: '0' }).execute();
    const requestsBefore = stripe.requests.length;
    const placed = await placeWithCode('STRIPEFREE');
    expect(placed.redirectUrl).toBeNull();
    expect(stripe.requests.length).toBe(requestsBefore);
    const order = await t.db
      .selectFrom('orders')
      .select(['payment_status', 'total', 'checkout_session_id'])
      .where('order_number', '=', placed.orderNumber)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ payment_status: 'paid', total: '0.00', checkout_session_id: null });
    expect(await emailSubjects()).toEqual([`Order ${placed.orderNumber} confirmed`]);
  });
});
