import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyPaymentNotification } from '../../src/server/orders/notifications';
import { createPaymentProvider } from '../../src/server/payments';
import { addCycles, addDays, dayOfMonth, today, type Clock } from '../../src/server/subscriptions/dates';
import { JOIN_PAID } from '../../src/shared/schemas/subscriptions';
import { callerAs } from '../support/app';
import { trpcFailure } from '../support/async';
import { createAdmin, createCategory, createCustomer, createProduct, type TestUser } from '../support/factories';
import { completedSubscriptionSession, membershipInvoice, stripeSubscription, type FakeSession } from '../support/fake-stripe';
import { renewalPass, subscriptionCycles } from '../support/renewals';
import { sharedStripeApp } from '../support/stripe-app';

// Card memberships through Stripe Billing, against the local Stripe stand-in with signed events:
// joining through Checkout in subscription mode on a recurring Price made once per plan price,
// renewals that follow paid invoices (one order per invoice, whatever order and however often the
// events arrive), a failed payment that makes the member Past due with a link to pay, the store's
// retries and the cancellation after the last, and the member's changes made at Stripe too.

const { stripe, t, event, deliver: post } = sharedStripeApp();

// The webhook runs on the system clock; the engine's clock starts on the same day and moves.
const startDay = today({ now: () => new Date() });
let now = new Date();
const clock: Clock = { now: () => now };
const setDay = (day: string) => (now = new Date(`${day}T12:00:00Z`));

const SHIPPING = { first_name: 'Carla', last_name: 'Card', street: '1 Pay St', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' };

let cars: string;
let member: TestUser;
let slug = 0;

const as = (user: TestUser) => callerAs(t, user, { clock, payments: createPaymentProvider(t.config) });
const renew = () => renewalPass(t, clock, { billing: createPaymentProvider(t.config).subscriptions })();

async function createPlan(price = '29.00') {
  slug++;
  return t.db
    .insertInto('subscription_plans')
    .values({ name: `Card Club ${slug}`, slug: `card-club-${slug}-${Date.now()}`, price, billing_interval: 'monthly', features: [] })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const join = (user: TestUser, planSlug: string) =>
  as(user).subscriptions.join({ planSlug, size: 'L', categoryIds: [cars], shipping: SHIPPING });

const deliver = async (type: string, object: object, eventId?: string) => {
  const signed = event(type, object, eventId);
  const res = await post(signed);
  expect(res.status).toBe(200);
  return { ...res.body, eventId: signed.id };
};

const sessionOf = (url: string | null): FakeSession => {
  const session = [...stripe.sessions.values()].find((s) => s.url === url);
  if (!session) throw new Error(`no session for ${url}`);
  return session;
};
const subscriptionRow = (id: string) => t.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const ordersOf = (subscriptionId: string) =>
  t.db
    .selectFrom('orders')
    .select(['payment_status', 'payment_provider', 'total', 'idempotency_key', 'payment_intent_id'])
    .where('subscription_id', '=', subscriptionId)
    .orderBy('created_at')
    .execute();
const mailTo = async (email: string) =>
  t.db
    .selectFrom('email_queue')
    .select(['subject', 'text_body', 'html_body'])
    .where('to_email', '=', email)
    .orderBy('created_at')
    .execute();
const cyclesOf = (subscriptionId: string) => subscriptionCycles(t.db, subscriptionId);
const requestsTo = (method: string, path: RegExp) => stripe.requests.filter((r) => r.method === method && path.test(r.path));

/** Joins by card and completes Checkout with the first invoice paid: an active card member. */
async function activeCardMember(user: TestUser, planSlug: string, invoiceOptions: { invoiceId?: string; payments?: false } = {}) {
  const { id, redirectUrl } = await join(user, planSlug);
  const session = completedSubscriptionSession(sessionOf(redirectUrl));
  await deliver('checkout.session.completed', session);
  const invoice = membershipInvoice({
    subscriptionId: id,
    stripeSubscription: session.subscription,
    periodStart: startDay,
    periodEnd: addDays(startDay, 30),
    ...invoiceOptions,
  });
  await deliver('invoice.paid', invoice);
  return { id, stripeId: session.subscription };
}

/** An active card member whose second invoice failed (notice delivered); `payUnpaid` delivers its payment after all. */
async function pastDueCardMember() {
  const plan = await createPlan();
  const { id, stripeId } = await activeCardMember(member, plan.slug);
  const period = { periodStart: addDays(startDay, 30), periodEnd: addDays(startDay, 60) };
  const unpaid = membershipInvoice({ ...period, subscriptionId: id, stripeSubscription: stripeId, paid: false });
  await deliver('invoice.payment_failed', unpaid);
  const payUnpaid = () =>
    deliver('invoice.paid', {
      ...unpaid,
      ...membershipInvoice({ ...period, subscriptionId: id, stripeSubscription: stripeId, invoiceId: unpaid.id }),
    });
  return { plan, id, stripeId, unpaid, payUnpaid };
}

beforeAll(async () => {
  cars = (await createCategory(t.db, { name: 'Cars' })).id;
  await createProduct(t.db, { category_id: cars, name: 'Card Tee' });
});
beforeEach(async () => {
  setDay(startDay);
  member = await createCustomer(t.db);
  stripe.requests.length = 0;
  stripe.invoicePayments = 'paid';
});

describe('joining by card', () => {
  it('sends the member to Checkout in subscription mode on a recurring Price, and waits for the payment', async () => {
    const plan = await createPlan();
    const { id, redirectUrl } = await join(member, plan.slug);
    const session = sessionOf(redirectUrl);
    expect(session).toMatchObject({ mode: 'subscription', client_reference_id: id, customer_email: member.email });
    expect(stripe.prices.get(session.price!)).toMatchObject({ unit_amount: 2900, interval: 'month', interval_count: 1 });
    expect(session.metadata).toEqual({ subscription_id: id });

    // Not a member yet: no order, no welcome; the page says what it is waiting for.
    const [mine] = await as(member).subscriptions.mine();
    expect(mine).toMatchObject({ id, status: 'incomplete', checkout_url: redirectUrl, orders: [] });
    expect(await mailTo(member.email)).toEqual([]);

    // Trying again (back from Checkout) reuses the waiting membership and the plan's Price.
    const again = await join(member, plan.slug);
    expect(again.id).toBe(id);
    expect(requestsTo('POST', /^\/v1\/prices$/)).toHaveLength(1);
  });

  it('makes one waiting membership of joins sent at once (a double click)', async () => {
    const plan = await createPlan();
    const joins = await Promise.all(Array.from({ length: 10 }, () => join(member, plan.slug)));
    expect(new Set(joins.map((joined) => joined.id)).size).toBe(1);
    const rows = await t.db.selectFrom('subscriptions').select('status').where('customer_id', '=', member.id).execute();
    expect(rows).toEqual([{ status: 'incomplete' }]);
  });

  it('drops the link to a payment page that expired unpaid, and a join after it gets a new page', async () => {
    const plan = await createPlan();
    const first = await join(member, plan.slug);
    const waiting = async () => (await as(member).subscriptions.mine())[0];
    const expire = async (url: string | null) => {
      const session = sessionOf(url);
      session.status = 'expired';
      await deliver('checkout.session.expired', session);
    };

    await expire(first.redirectUrl);
    expect(await waiting()).toMatchObject({ id: first.id, status: 'incomplete', checkout_url: null, orders: [] });
    expect(await mailTo(member.email)).toEqual([]);

    // Joining again makes a new page; the old one's expiry told again leaves it be.
    const second = await join(member, plan.slug);
    expect(second.id).toBe(first.id);
    expect(sessionOf(second.redirectUrl)).toMatchObject({ status: 'open', mode: 'subscription' });
    await expire(first.redirectUrl);
    expect(await waiting()).toMatchObject({ checkout_url: second.redirectUrl });
    // Back from that page, still open: the same page again, not a third.
    expect(await join(member, plan.slug)).toEqual(second);

    await deliver('checkout.session.completed', completedSubscriptionSession(sessionOf(second.redirectUrl)));
    expect(await subscriptionRow(first.id)).toMatchObject({ status: 'active', checkout_url: null });
  });

  it('makes a new page when the one it would send the member back to has expired, its notice not come', async () => {
    const plan = await createPlan();
    const first = await join(member, plan.slug);
    sessionOf(first.redirectUrl).status = 'expired';
    const again = await join(member, plan.slug);
    expect(again.redirectUrl).not.toBe(first.redirectUrl);
    expect(sessionOf(again.redirectUrl).status).toBe('open');
  });

  it('never sends the member back to a page made at an earlier price, even when the join after the change failed', async () => {
    const plan = await createPlan('29.00');
    const first = await join(member, plan.slug);
    await t.db.updateTable('subscription_plans').set({ price: '31.00' }).where('id', '=', plan.id).execute();
    stripe.failNextSession();
    await trpcFailure(join(member, plan.slug));
    expect(await subscriptionRow(first.id)).toMatchObject({ price: '31.00', checkout_url: null });
    // Nor can that page be paid on at Stripe (from the browser's history, say).
    expect(sessionOf(first.redirectUrl).status).toBe('expired');

    const again = await join(member, plan.slug);
    expect(again.redirectUrl).not.toBe(first.redirectUrl);
    expect(stripe.prices.get(sessionOf(again.redirectUrl).price!)).toMatchObject({ unit_amount: 3100 });
  });

  it('closes the page made at an earlier price at Stripe when the join after the change makes a new one', async () => {
    const plan = await createPlan('29.00');
    const first = await join(member, plan.slug);
    await t.db.updateTable('subscription_plans').set({ price: '33.00' }).where('id', '=', plan.id).execute();
    const again = await join(member, plan.slug);
    expect(sessionOf(first.redirectUrl).status).toBe('expired');
    expect(sessionOf(again.redirectUrl)).toMatchObject({ status: 'open' });
    expect(stripe.prices.get(sessionOf(again.redirectUrl).price!)).toMatchObject({ unit_amount: 3300 });
  });

  it('gives a second tab the page the first tab made while the second waited on Stripe, and makes no other', async () => {
    const plan = await createPlan('29.00');
    const first = await join(member, plan.slug);
    await t.db.updateTable('subscription_plans').set({ price: '31.00' }).where('id', '=', plan.id).execute();
    // The second tab asks Stripe about the old page and waits; the first tab's join runs through:
    // it closes the old page and makes one at the new price.
    const held = stripe.holdNextRequest();
    const secondTab = join(member, plan.slug);
    await held.arrived;
    const firstTab = await join(member, plan.slug);
    held.release();
    expect(await secondTab).toEqual(firstTab);
    const open = [...stripe.sessions.values()].filter((session) => session.client_reference_id === first.id && session.status === 'open');
    expect(open.map((session) => session.url)).toEqual([firstTab.redirectUrl]);
  });

  it('makes no second page for a member who paid on the first just as the join was closing it', async () => {
    const plan = await createPlan('29.00');
    const first = await join(member, plan.slug);
    await t.db.updateTable('subscription_plans').set({ price: '31.00' }).where('id', '=', plan.id).execute();
    // Paid on in the moment between the join's look at the page and its expiry.
    stripe.beforeExpiry = (session) => {
      completedSubscriptionSession(session);
    };
    const sessionsBefore = stripe.sessions.size;
    try {
      expect(await trpcFailure(join(member, plan.slug))).toMatchObject({ code: 'CONFLICT', message: JOIN_PAID });
    } finally {
      stripe.beforeExpiry = null;
    }
    expect(sessionOf(first.redirectUrl).status).toBe('complete');
    expect(stripe.sessions.size).toBe(sessionsBefore);
    // The membership keeps the terms of the page paid on, not the ones this join came with.
    expect(await subscriptionRow(first.id)).toMatchObject({ price: '29.00', checkout_url: first.redirectUrl });
  });

  it('makes no second page for a member who paid on the first, its notice not come yet', async () => {
    const plan = await createPlan();
    const first = await join(member, plan.slug);
    completedSubscriptionSession(sessionOf(first.redirectUrl));
    const sessionsBefore = stripe.sessions.size;

    const error = await trpcFailure(join(member, plan.slug));
    expect(error).toMatchObject({ code: 'CONFLICT', message: JOIN_PAID });
    expect(stripe.sessions.size).toBe(sessionsBefore);
    expect(await subscriptionRow(first.id)).toMatchObject({ status: 'incomplete', checkout_url: first.redirectUrl });
  });

  it("takes the member's day of the month from the first invoice's period, however late its notices are handled", async () => {
    const plan = await createPlan();
    const { id, redirectUrl } = await join(member, plan.slug);
    // Stripe billed on the day of the join; its notices are handled two days later (an outage, say),
    // as the webhook handles them but on this test's clock.
    setDay(addDays(startDay, 2));
    const payments = createPaymentProvider(t.config);
    const handleLate = async (type: string, object: object) => {
      const signed = event(type, object);
      const notification = await payments.readNotification(Buffer.from(signed.body), signed.signature);
      expect(await applyPaymentNotification({ db: t.db, mail: t.config, clock, log: t.app.log }, payments, notification)).toBe('applied');
    };
    const session = completedSubscriptionSession(sessionOf(redirectUrl));
    await handleLate('checkout.session.completed', session);
    const periodEnd = addDays(startDay, 30);
    await handleLate(
      'invoice.paid',
      membershipInvoice({ subscriptionId: id, stripeSubscription: session.subscription, periodStart: startDay, periodEnd }),
    );
    expect(await subscriptionRow(id)).toMatchObject({ anchor_day: dayOfMonth(startDay), next_cycle_on: periodEnd });
    // So a pause of one cycle ends on Stripe's next billing day after it.
    await as(member).subscriptions.pause({ id, cycles: 1 });
    expect((await subscriptionRow(id)).paused_until).toBe(addCycles(periodEnd, 'monthly', 1, dayOfMonth(startDay)));
  });

  it('makes a new Price when the plan price changes; members who joined before keep theirs', async () => {
    const plan = await createPlan('29.00');
    const first = await activeCardMember(member, plan.slug);
    const firstPrice = [...stripe.sessions.values()].find((session) => session.client_reference_id === first.id)?.price;

    await t.db.updateTable('subscription_plans').set({ price: '35.00' }).where('id', '=', plan.id).execute();
    const later = await join(await createCustomer(t.db), plan.slug);
    const laterPrice = sessionOf(later.redirectUrl).price!;
    expect(laterPrice).not.toBe(firstPrice);
    expect(stripe.prices.get(laterPrice)?.unit_amount).toBe(3500);
    expect((await subscriptionRow(first.id)).price).toBe('29.00');
    expect((await subscriptionRow(later.id)).price).toBe('35.00');
    // No call touched the first member's Stripe subscription.
    expect(requestsTo('POST', new RegExp(first.stripeId))).toEqual([]);
  });
});

describe('renewals follow paid invoices', () => {
  it('welcomes the member once and makes one paid order per invoice, whatever the order and repeats of events', async () => {
    const plan = await createPlan();
    const { id, redirectUrl } = await join(member, plan.slug);
    const session = completedSubscriptionSession(sessionOf(redirectUrl));
    const invoice = membershipInvoice({
      subscriptionId: id,
      stripeSubscription: session.subscription,
      periodStart: startDay,
      periodEnd: addDays(startDay, 31),
    });

    // The invoice's notice first, then Checkout's; then both again, and the invoice under a new event id.
    const paid = await deliver('invoice.paid', invoice);
    expect(paid.outcome).toBe('applied');
    await deliver('checkout.session.completed', session);
    expect((await deliver('invoice.paid', invoice, paid.eventId)).outcome).toBe('duplicate');
    await deliver('invoice.paid', invoice);

    expect(await subscriptionRow(id)).toMatchObject({
      status: 'active',
      stripe_subscription_id: session.subscription,
      next_cycle_on: addDays(startDay, 31),
    });
    const orders = await ordersOf(id);
    expect(orders).toEqual([
      expect.objectContaining({
        payment_status: 'paid',
        payment_provider: 'stripe',
        total: '29.00',
        idempotency_key: `invoice:${invoice.id}`,
      }),
    ]);
    expect(orders[0]?.payment_intent_id).toMatch(/^pi_/);
    const subjects = (await mailTo(member.email)).map((mail) => mail.subject);
    expect(subjects.filter((subject) => subject.startsWith('Welcome'))).toHaveLength(1);
    expect(subjects.filter((subject) => /^Order .* confirmed$/.test(subject))).toHaveLength(1);

    // The next cycle's invoice makes the next order; the engine makes none of its own for a card member.
    setDay(addDays(startDay, 31));
    expect(await renew()).toMatchObject({ ordered: 0 });
    await deliver(
      'invoice.paid',
      membershipInvoice({
        subscriptionId: id,
        stripeSubscription: session.subscription,
        periodStart: addDays(startDay, 31),
        periodEnd: addDays(startDay, 59),
      }),
    );
    expect(await ordersOf(id)).toHaveLength(2);
    expect((await subscriptionRow(id)).next_cycle_on).toBe(addDays(startDay, 59));
  });

  it("read the invoice's payment when the event leaves it out, so an admin can refund the cycle's order", async () => {
    const plan = await createPlan();
    const invoiceId = `in_test_refundable_${plan.id}`;
    stripe.paidInvoices.set(invoiceId, 'pi_test_first_cycle');
    // As Stripe sends it: no payments list unless one is asked for.
    const { id } = await activeCardMember(member, plan.slug, { invoiceId, payments: false });
    const order = await t.db
      .selectFrom('orders')
      .select(['id', 'payment_status', 'payment_intent_id'])
      .where('subscription_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ payment_status: 'paid', payment_intent_id: 'pi_test_first_cycle' });

    await as(await createAdmin(t.db)).admin.orders.refund({ id: order.id });
    expect(requestsTo('POST', /^\/v1\/refunds$/).map((request) => request.body.payment_intent)).toEqual(['pi_test_first_cycle']);
    expect((await ordersOf(id))[0]?.payment_status).toBe('refunded');
  });
});

describe('a failed payment', () => {
  it.each(['declined', 'no_payment_method'] as const)(
    'makes the member Past due with a link to pay, tries again every 3 days, and cancels after the third retry (retries %s)',
    async (retriesAnswer) => {
      const { plan, id, stripeId, unpaid } = await pastDueCardMember();
      await deliver('invoice.payment_failed', { ...unpaid, attempt_count: 2 });

      const [mine] = await as(member).subscriptions.mine();
      expect(mine).toMatchObject({ status: 'past_due', unpaid_invoice_url: unpaid.hosted_invoice_url });
      const failedMails = (await mailTo(member.email)).filter((mail) => mail.subject === `${plan.name}: your payment did not go through`);
      expect(failedMails).toHaveLength(1);
      expect(failedMails[0]!.text_body).toContain(unpaid.hosted_invoice_url);

      stripe.invoicePayments = retriesAnswer;
      const retries = () => requestsTo('POST', new RegExp(`/v1/invoices/${unpaid.id}/pay`));
      setDay(addDays(startDay, 2));
      await renew();
      expect(retries()).toHaveLength(0);
      for (const [days, count] of [
        [3, 1],
        [6, 2],
        [9, 3],
      ] as const) {
        setDay(addDays(startDay, days));
        await renew();
        await renew();
        expect(retries()).toHaveLength(count);
        expect((await subscriptionRow(id)).status).toBe('past_due');
      }
      // Each retry is its own operation at Stripe.
      expect(new Set(retries().map((r) => r.idempotencyKey)).size).toBe(3);

      setDay(addDays(startDay, 12));
      expect(await renew()).toMatchObject({ endedUnpaid: 1 });
      expect(await subscriptionRow(id)).toMatchObject({ status: 'cancelled', unpaid_invoice_id: null });
      expect(stripe.cancelled.has(stripeId)).toBe(true);
      const ended = (await mailTo(member.email)).filter((mail) => mail.subject === `${plan.name} cancelled: payment not received`);
      expect(ended).toHaveLength(1);

      // Stripe's own notice of the end changes nothing more and sends nothing.
      const before = (await mailTo(member.email)).length;
      await deliver('customer.subscription.deleted', stripeSubscription(stripeId, id, 'canceled'));
      expect((await mailTo(member.email)).length).toBe(before);
      expect(await ordersOf(id)).toHaveLength(1);
    },
  );

  it('is active again as soon as a retry is paid, and the paid invoice makes its order', async () => {
    const { id, payUnpaid } = await pastDueCardMember();
    setDay(addDays(startDay, 3));
    expect(await renew()).toMatchObject({ retried: 1 });
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', unpaid_invoice_id: null });
    await payUnpaid();
    expect(await ordersOf(id)).toHaveLength(2);
  });
});

describe('a failure notice that comes after the invoice was paid', () => {
  it('changes nothing: an earlier attempt failing is old news once the money is in', async () => {
    const plan = await createPlan();
    const { id, stripeId } = await activeCardMember(member, plan.slug);
    const second = {
      subscriptionId: id,
      stripeSubscription: stripeId,
      periodStart: addDays(startDay, 30),
      periodEnd: addDays(startDay, 60),
    };
    const paid = membershipInvoice(second);
    setDay(addDays(startDay, 30));
    await deliver('invoice.paid', paid);
    const mails = (await mailTo(member.email)).length;

    // Stripe delivers the first attempt's failure late (or again).
    await deliver('invoice.payment_failed', membershipInvoice({ ...second, paid: false, invoiceId: paid.id }));
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', unpaid_invoice_id: null });
    expect((await mailTo(member.email)).length).toBe(mails);
  });

  it('ends the retries of an invoice paid or voided at Stripe meanwhile: the member is active again, nothing is charged twice', async () => {
    const { id, unpaid } = await pastDueCardMember();
    stripe.invoiceStatus.set(unpaid.id, 'void');
    setDay(addDays(startDay, 3));
    expect(await renew()).toMatchObject({ retried: 1 });
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', unpaid_invoice_id: null });
    expect(requestsTo('POST', new RegExp(`/v1/invoices/${unpaid.id}/pay`))).toHaveLength(0);
  });
});

describe("a card member's changes", () => {
  it('move past a skipped cycle on its day, which Stripe does not bill, so the next skip or pause is about the cycle after', async () => {
    const plan = await createPlan();
    const { id } = await activeCardMember(member, plan.slug);
    const skipped = (await subscriptionRow(id)).next_cycle_on;
    await as(member).subscriptions.skipNext({ id });

    setDay(skipped);
    expect(await renew()).toMatchObject({ skipped: 1, ordered: 0 });
    const after = await subscriptionRow(id);
    expect(after).toMatchObject({ skip_next: false, next_cycle_on: addCycles(skipped, 'monthly', 1, after.anchor_day) });
    expect(await cyclesOf(id)).toContainEqual(expect.objectContaining({ cycle_start: skipped, outcome: 'skipped' }));
    // The next shipment can be skipped in its turn.
    await as(member).subscriptions.skipNext({ id });
    expect((await subscriptionRow(id)).skip_next).toBe(true);
  });

  it('ship a skipped cycle after all when Stripe charged its invoice anyway (made before the skip paused collection)', async () => {
    const plan = await createPlan();
    const { id, stripeId } = await activeCardMember(member, plan.slug);
    const skipped = (await subscriptionRow(id)).next_cycle_on;
    await as(member).subscriptions.skipNext({ id });
    setDay(skipped);
    expect(await renew()).toMatchObject({ skipped: 1 });

    await deliver(
      'invoice.paid',
      membershipInvoice({ subscriptionId: id, stripeSubscription: stripeId, periodStart: skipped, periodEnd: addDays(skipped, 30) }),
    );
    expect(await ordersOf(id)).toHaveLength(2);
    expect(await cyclesOf(id)).toContainEqual(expect.objectContaining({ cycle_start: skipped, outcome: 'ordered' }));
  });

  it('are made at Stripe too: skip and pause stop collection, resume restarts it, cancel ends at the period end', async () => {
    const plan = await createPlan();
    const { id, stripeId } = await activeCardMember(member, plan.slug);
    const updates = () => requestsTo('POST', new RegExp(`/v1/subscriptions/${stripeId}$`)).map((r) => r.body);
    const nextCycle = (await subscriptionRow(id)).next_cycle_on;
    const midnight = (day: string) => String(Date.parse(`${day}T00:00:00Z`) / 1000);

    await as(member).subscriptions.skipNext({ id });
    expect(updates().at(-1)).toEqual({ pause_collection: { behavior: 'void', resumes_at: midnight(addDays(nextCycle, 1)) } });

    await as(member).subscriptions.pause({ id, cycles: null });
    expect(updates().at(-1)).toEqual({ pause_collection: { behavior: 'void' } });
    // Back before the skipped shipment: it stays skipped, and Stripe charges from the one after it.
    await as(member).subscriptions.resume({ id });
    expect(updates().at(-1)).toEqual({ pause_collection: { behavior: 'void', resumes_at: midnight(addDays(nextCycle, 1)) } });
    // With no skipped shipment ahead, resuming restarts collection at once.
    setDay(addDays(nextCycle, 1));
    await as(member).subscriptions.pause({ id, cycles: null });
    await as(member).subscriptions.resume({ id });
    expect(updates().at(-1)).toEqual({ pause_collection: '' });

    await as(member).subscriptions.cancel({ id, reason: 'Too many shirts' });
    expect(updates().at(-1)).toEqual({ cancel_at_period_end: 'true' });
    expect((await subscriptionRow(id)).cancel_at).not.toBeNull();

    // Stripe ends it at the period end: cancelled, and no second goodbye.
    const goodbyes = async () =>
      (await mailTo(member.email)).filter((mail) => mail.subject.includes('cancelled') || mail.subject.includes('ended'));
    const before = (await goodbyes()).length;
    await deliver('customer.subscription.deleted', stripeSubscription(stripeId, id, 'canceled'));
    expect((await subscriptionRow(id)).status).toBe('cancelled');
    expect(await goodbyes()).toHaveLength(before);
  });

  it('keep a membership cancelled for the period end at Stripe too: Stripe bills the next period, which renews it', async () => {
    const plan = await createPlan();
    const { id, stripeId } = await activeCardMember(member, plan.slug);
    const updates = () => requestsTo('POST', new RegExp(`/v1/subscriptions/${stripeId}$`)).map((r) => r.body);
    const keptMails = async () => (await mailTo(member.email)).filter((mail) => mail.subject === `${plan.name}: your membership continues`);
    await as(member).subscriptions.cancel({ id, reason: 'Too many shirts' });
    expect(stripe.cancelAt.has(stripeId)).toBe(true);

    expect(await as(member).subscriptions.keep({ id })).toMatchObject({ status: 'active', cancel_at: null, cancel_reason: null });
    expect(updates().at(-1)).toEqual({ cancel_at_period_end: 'false' });
    expect(stripe.cancelAt.has(stripeId)).toBe(false);
    expect(await keptMails()).toHaveLength(1);
    // Stripe's notice of the change it was told changes nothing more and sends no second email.
    const mails = (await mailTo(member.email)).length;
    await deliver('customer.subscription.updated', stripeSubscription(stripeId, id, 'active'));
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', cancel_at: null });
    expect(await mailTo(member.email)).toHaveLength(mails);

    // The day it would have ended, Stripe bills the next period: its order is made, and it goes on.
    const nextCycle = (await subscriptionRow(id)).next_cycle_on;
    setDay(nextCycle);
    expect(await renew()).toMatchObject({ ended: 0 });
    await deliver(
      'invoice.paid',
      membershipInvoice({ subscriptionId: id, stripeSubscription: stripeId, periodStart: nextCycle, periodEnd: addDays(nextCycle, 30) }),
    );
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', cancel_at: null, next_cycle_on: addDays(nextCycle, 30) });
    expect(await ordersOf(id)).toHaveLength(2);
  });

  it('stay cancelled for the period end when Stripe refuses to keep it', async () => {
    const plan = await createPlan();
    const { id, stripeId } = await activeCardMember(member, plan.slug);
    await as(member).subscriptions.cancel({ id, reason: 'Too many shirts' });
    const cancelled = await subscriptionRow(id);
    stripe.cancelled.add(stripeId);
    await trpcFailure(as(member).subscriptions.keep({ id }));
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', cancel_at: cancelled.cancel_at, cancel_reason: 'Too many shirts' });
    expect((await mailTo(member.email)).filter((mail) => mail.subject.endsWith('your membership continues'))).toEqual([]);
  });

  it("made in Stripe's dashboard show here: a cancellation at the period end is Cancels on, with the member's email, once; taken back, it is gone", async () => {
    const plan = await createPlan();
    const { id, stripeId } = await activeCardMember(member, plan.slug);
    const cancelEmails = async () => (await mailTo(member.email)).filter((mail) => mail.subject === `${plan.name} cancelled`);
    // Another change at Stripe (a new card, say) is no cancellation.
    await deliver('customer.subscription.updated', stripeSubscription(stripeId, id, 'active'));
    expect((await subscriptionRow(id)).cancel_at).toBeNull();

    const endsOn = addDays(startDay, 30);
    stripe.cancelAt.set(stripeId, endsOn);
    await deliver('customer.subscription.updated', stripeSubscription(stripeId, id, 'active', endsOn));
    await deliver('customer.subscription.updated', stripeSubscription(stripeId, id, 'active', endsOn));
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', cancel_at: endsOn });
    expect(await cancelEmails()).toHaveLength(1);
    // An event made before the cancellation and delivered after it changes nothing: the
    // subscription as Stripe has it now decides.
    await deliver('customer.subscription.updated', stripeSubscription(stripeId, id, 'active'));
    expect((await subscriptionRow(id)).cancel_at).toBe(endsOn);
    // The member cannot cancel it a second time.
    await trpcFailure(as(member).subscriptions.cancel({ id, reason: '' }));

    // Taken back in the dashboard: the membership goes on, and the member can cancel it again.
    stripe.cancelAt.delete(stripeId);
    await deliver('customer.subscription.updated', stripeSubscription(stripeId, id, 'active'));
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', cancel_at: null, cancel_reason: null });
    await as(member).subscriptions.cancel({ id, reason: 'Changed my mind again' });
    expect((await subscriptionRow(id)).cancel_at).not.toBeNull();
  });

  it('are taken as the event carried them when Stripe no longer has the subscription, instead of refusing the event', async () => {
    const plan = await createPlan();
    const { id, stripeId } = await activeCardMember(member, plan.slug);
    stripe.removed.add(stripeId);
    const endsOn = addDays(startDay, 30);
    // deliver() expects Stripe's event to be accepted (200), not sent back to be retried.
    await deliver('customer.subscription.updated', stripeSubscription(stripeId, id, 'active', endsOn));
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', cancel_at: endsOn });
  });

  it('changes nothing here when Stripe refuses the change', async () => {
    const plan = await createPlan();
    const { id, stripeId } = await activeCardMember(member, plan.slug);
    stripe.cancelled.add(stripeId);
    await trpcFailure(as(member).subscriptions.pause({ id, cycles: 1 }));
    expect((await subscriptionRow(id)).status).toBe('active');
  });
});

describe('a slow Stripe', () => {
  // On the embedded database a transaction holds the only connection, so one waiting on Stripe
  // would hold every request of the store; on PostgreSQL it would hold the member's row.
  const lockRow = (id: string) => t.db.selectFrom('subscriptions').select('id').where('id', '=', id).forUpdate().execute();

  /** Whether the member's row can be locked while Stripe keeps `call`'s first request unanswered. */
  async function rowFreeWhileStripeWaits(id: string, call: () => Promise<unknown>): Promise<boolean> {
    const held = stripe.holdNextRequest();
    const calling = call();
    await held.arrived;
    const free = await Promise.race([
      lockRow(id).then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 3000)),
    ]);
    held.release();
    await calling;
    return free;
  }

  it("keeps no transaction open while a card member's change waits on it", async () => {
    const plan = await createPlan();
    const { id } = await activeCardMember(member, plan.slug);
    expect(await rowFreeWhileStripeWaits(id, () => as(member).subscriptions.skipNext({ id }))).toBe(true);
    expect((await subscriptionRow(id)).skip_next).toBe(true);
  });

  it('tells Stripe what the change has become when a notice handled meanwhile moved the membership', async () => {
    const plan = await createPlan();
    const { id, stripeId } = await activeCardMember(member, plan.slug);
    const held = stripe.holdNextRequest();
    const cancelling = as(member).subscriptions.cancel({ id, reason: '' });
    await held.arrived;
    // The next invoice fails while Stripe is told to end at the period's end: Past due, which ends at once.
    await deliver(
      'invoice.payment_failed',
      membershipInvoice({
        subscriptionId: id,
        stripeSubscription: stripeId,
        periodStart: addDays(startDay, 30),
        periodEnd: addDays(startDay, 60),
        paid: false,
      }),
    );
    held.release();
    await cancelling;
    expect(await subscriptionRow(id)).toMatchObject({ status: 'cancelled', cancel_at: startDay, unpaid_invoice_id: null });
    expect(stripe.cancelled.has(stripeId)).toBe(true);
  });

  it('keeps no transaction open while the renewal pass retries an unpaid invoice', async () => {
    const { id } = await pastDueCardMember();
    setDay(addDays(startDay, 3));
    expect(await rowFreeWhileStripeWaits(id, renew)).toBe(true);
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', unpaid_invoice_id: null });
  });

  it('takes a Stripe notice handled meanwhile over what the retry found', async () => {
    const { id, payUnpaid } = await pastDueCardMember();
    stripe.invoicePayments = 'declined';
    setDay(addDays(startDay, 3));
    const held = stripe.holdNextRequest();
    const renewing = renew();
    await held.arrived;
    // The member paid on Stripe's invoice page while the store's retry was on its way.
    await payUnpaid();
    held.release();
    await renewing;
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', unpaid_invoice_id: null, unpaid_retries: 0 });
    expect(await ordersOf(id)).toHaveLength(2);
  });
});
