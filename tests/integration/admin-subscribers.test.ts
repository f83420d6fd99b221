import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import type { SubscriptionsTable } from '../../src/server/db/schema';
import { SUBSCRIBERS_PAGE_SIZE } from '../../src/shared/schemas/admin-subscribers';
import { callerAs, callTrpc, sharedTestApp, signInHttp, type Caller } from '../support/app';
import { renewalPass } from '../support/renewals';
import { trpcFailure } from '../support/async';
import { createAdmin, createCategory, createCustomer, createProduct, type TestUser, RITAS_SHIPPING } from '../support/factories';

// admin.subscribers.* and the club's dashboard cards, with a clock the tests set: the server-paged
// list with its email search and plan and status filters, one member with their cycles, pause and
// cancel on the member's behalf (the member's own rules and emails; refused to anyone but an
// admin), and the exact figures of the cards.

const t = sharedTestApp();

let now = new Date('2027-01-31T09:00:00Z');
const clock = { now: () => now };
const setDay = (day: string) => (now = new Date(`${day}T09:00:00Z`));
const renew = renewalPass(t, clock);

const as = (user: TestUser | null): Caller => callerAs(t, user, { clock });
let admin: Caller;
let cars: { id: string; name: string };
let bikes: { id: string; name: string };

type Plan = { id: string; name: string; slug: string };
let planSequence = 0;
async function createPlan(billing_interval: 'monthly' | 'quarterly' | 'yearly', price: string, category_limit = 2): Promise<Plan> {
  const n = ++planSequence;
  return t.db
    .insertInto('subscription_plans')
    .values({ name: `Club ${n}`, slug: `club-${n}`, price, billing_interval, category_limit, features: [] })
    .returning(['id', 'name', 'slug'])
    .executeTakeFirstOrThrow();
}

const SHIPPING = RITAS_SHIPPING;

/** A member joining through the member's own procedure, on the clock's day (first cycle ordered at once). */
const join = (user: TestUser, plan: Plan, categoryIds = [cars.id]) =>
  as(user).subscriptions.join({ planSlug: plan.slug, size: 'L', categoryIds, shipping: SHIPPING });

/** A membership row written directly, for lists and figures that need many states at once. */
async function insertMember(plan: Plan, row: Partial<Insertable<SubscriptionsTable>> = {}, email?: string) {
  const customer = await createCustomer(t.db, email ? { email } : {});
  const planRow = await t.db
    .selectFrom('subscription_plans')
    .select(['price', 'billing_interval'])
    .where('id', '=', plan.id)
    .executeTakeFirstOrThrow();
  return t.db
    .insertInto('subscriptions')
    .values({
      customer_id: customer.id,
      plan_id: plan.id,
      size: 'M',
      shipping_address: JSON.stringify({ street: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' }),
      price: planRow.price,
      billing_interval: planRow.billing_interval,
      anchor_day: 15,
      next_cycle_on: '2027-04-15',
      ...row,
    })
    .returning(['id', 'customer_id'])
    .executeTakeFirstOrThrow();
}

const emailsTo = async (email: string) =>
  (await t.db.selectFrom('email_queue').select('subject').where('to_email', '=', email).orderBy('created_at').execute()).map(
    (row) => row.subject,
  );

beforeAll(async () => {
  admin = as(await createAdmin(t.db));
  cars = await createCategory(t.db, { name: 'Cars' });
  bikes = await createCategory(t.db, { name: 'Bikes' });
  await createProduct(t.db, { category_id: cars.id, name: 'Hot Rod Tee' });
  await createProduct(t.db, { category_id: bikes.id, name: 'Chopper Tee' });
});
beforeEach(async () => {
  setDay('2027-01-31');
  // Cycles go with them; orders of earlier tests stay, unlinked.
  await t.db.deleteFrom('subscriptions').execute();
});

describe('admin.subscribers.list', () => {
  it('pages newest first on the server, and a page past the end shows the last one', async () => {
    const plan = await createPlan('monthly', '29.00');
    const total = SUBSCRIBERS_PAGE_SIZE + 2;
    const ids: string[] = [];
    for (let i = 0; i < total; i++) {
      ids.push((await insertMember(plan, { created_at: new Date(Date.UTC(2027, 0, 1, 0, i)) })).id);
    }
    const newestFirst = [...ids].reverse();

    const first = await admin.admin.subscribers.list({});
    expect(first).toMatchObject({ total, page: 1, pageCount: 2, pageSize: SUBSCRIBERS_PAGE_SIZE });
    expect(first.items.map((row) => row.id)).toEqual(newestFirst.slice(0, SUBSCRIBERS_PAGE_SIZE));
    const second = await admin.admin.subscribers.list({ page: 2 });
    expect(second.items.map((row) => row.id)).toEqual(newestFirst.slice(SUBSCRIBERS_PAGE_SIZE));
    expect((await admin.admin.subscribers.list({ page: 99 })).page).toBe(2);
  });

  it('shows each member with their plan, status, size, shirt colours, next shipment, price and interval', async () => {
    const plan = await createPlan('quarterly', '75.00');
    const { id } = await insertMember(
      plan,
      { status: 'active', size: 'XL', next_cycle_on: '2027-02-15', cancel_at: '2027-02-15', created_at: new Date('2026-11-15T10:30:00Z') },
      'lena@example.com',
    );
    const [row] = (await admin.admin.subscribers.list({})).items;
    expect(row).toEqual({
      id,
      status: 'active',
      size: 'XL',
      colour_choice: 'any',
      price: '75.00',
      billing_interval: 'quarterly',
      next_cycle_on: '2027-02-15',
      skip_next: false,
      paused_until: null,
      cancel_at: '2027-02-15',
      created_at: '2026-11-15T10:30:00.000Z',
      customer_email: 'lena@example.com',
      customer_first_name: '',
      customer_last_name: '',
      plan_name: plan.name,
    });
  });

  it('searches by email (case-insensitively, % and _ as themselves) and filters by plan and status', async () => {
    const monthly = await createPlan('monthly', '29.00');
    const yearly = await createPlan('yearly', '240.00');
    const ann = await insertMember(monthly, { status: 'active' }, 'ann_lee@example.com');
    const annie = await insertMember(yearly, { status: 'paused' }, 'annlee@example.com');
    const bob = await insertMember(monthly, { status: 'paused' }, 'bob@rider.example.com');
    const cy = await insertMember(yearly, { status: 'cancelled', cancelled_at: new Date() }, 'cy@rider.example.com');
    const ids = async (input: Parameters<Caller['admin']['subscribers']['list']>[0]) =>
      (await admin.admin.subscribers.list(input)).items.map((row) => row.id).sort();
    const sorted = (...rows: { id: string }[]) => rows.map((row) => row.id).sort();

    expect(await ids({ search: 'RIDER' })).toEqual(sorted(bob, cy));
    expect(await ids({ search: 'ann_' })).toEqual(sorted(ann));
    expect(await ids({ search: '%' })).toEqual([]);
    expect(await ids({ planId: monthly.id })).toEqual(sorted(ann, bob));
    expect(await ids({ status: 'paused' })).toEqual(sorted(annie, bob));
    expect(await ids({ status: 'cancelled' })).toEqual(sorted(cy));
    expect(await ids({ status: 'paused', planId: yearly.id, search: 'ann' })).toEqual(sorted(annie));
    const filtered = await admin.admin.subscribers.list({ search: 'rider' });
    expect([filtered.total, filtered.pageCount]).toEqual([2, 1]);
  });

  it('leaves out a card join still waiting for its payment', async () => {
    const plan = await createPlan('monthly', '29.00');
    const member = await insertMember(plan, { status: 'active' });
    const waiting = await insertMember(plan, { status: 'incomplete', payment_provider: 'stripe' });
    expect((await admin.admin.subscribers.list({})).items.map((row) => row.id)).toEqual([member.id]);
    expect((await trpcFailure(admin.admin.subscribers.get({ id: waiting.id }))).code).toBe('NOT_FOUND');
  });

  it('refuses bad filters with a 400', async () => {
    const cookie = await signInHttp(t.app, (await createAdmin(t.db)).email);
    const res = await callTrpc(t.app, 'admin.subscribers.list', { type: 'query', cookie, input: { status: 'sleeping' } });
    expect([res.statusCode, res.error?.data.fieldErrors?.status]).toEqual([400, ['Invalid status']]);
  });
});

describe('admin.subscribers.get', () => {
  it("gives the member's customer, plan, choices, address and cycles newest first with their orders", async () => {
    const plan = await createPlan('monthly', '29.00');
    const member = await createCustomer(t.db, { email: 'rita@example.com', first_name: 'Rita', last_name: 'Rider' });
    const { id } = await join(member, plan, [bikes.id, cars.id]);
    await as(member).subscriptions.skipNext({ id });
    setDay('2027-02-28');
    expect(await renew()).toMatchObject({ skipped: 1 });
    const order = await t.db
      .selectFrom('orders')
      .select(['id', 'order_number'])
      .where('subscription_id', '=', id)
      .executeTakeFirstOrThrow();

    expect(await admin.admin.subscribers.get({ id })).toMatchObject({
      id,
      status: 'active',
      customer_email: 'rita@example.com',
      customer_first_name: 'Rita',
      customer_last_name: 'Rider',
      plan_name: plan.name,
      category_limit: 2,
      // In the store's category order.
      category_names: ['Cars', 'Bikes'],
      size: 'L',
      price: '29.00',
      billing_interval: 'monthly',
      next_cycle_on: '2027-03-31',
      skip_next: false,
      payment_provider: 'manual',
      shipping_address: { street: '12 Piston Way', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' },
      cancel_at: null,
      cancel_reason: null,
      cancelled_at: null,
      cycles: [
        { cycle_start: '2027-02-28', outcome: 'skipped', order_id: null, order_number: null, payment_status: null },
        { cycle_start: '2027-01-31', outcome: 'ordered', order_id: order.id, order_number: order.order_number, payment_status: 'pending' },
      ],
    });
  });

  it('answers NOT_FOUND for a subscription that does not exist', async () => {
    expect(await trpcFailure(admin.admin.subscribers.get({ id: '00000000-0000-4000-8000-000000000000' }))).toEqual({
      code: 'NOT_FOUND',
      message: 'Subscription not found',
    });
  });
});

describe("pause and cancel on the member's behalf", () => {
  it('pauses for some cycles as the member would: the member sees it and is emailed', async () => {
    const plan = await createPlan('monthly', '29.00');
    const member = await createCustomer(t.db);
    const { id } = await join(member, plan);

    const paused = await admin.admin.subscribers.pause({ id, cycles: 2 });
    // Shipments of Feb 28 and Mar 31 are not made; it resumes on the member's day in April.
    expect(paused).toMatchObject({ id, status: 'paused', paused_until: '2027-04-30', next_cycle_on: '2027-04-30' });
    expect((await as(member).subscriptions.mine())[0]).toMatchObject({ id, status: 'paused', paused_until: '2027-04-30' });
    expect(await emailsTo(member.email)).toContain(`${plan.name} paused`);
    expect(await trpcFailure(admin.admin.subscribers.pause({ id, cycles: 1 }))).toEqual({
      code: 'CONFLICT',
      message: 'Only an active subscription can be paused',
    });
  });

  it('pauses until the member resumes', async () => {
    const plan = await createPlan('monthly', '29.00');
    const { id } = await join(await createCustomer(t.db), plan);
    expect(await admin.admin.subscribers.pause({ id, cycles: null })).toMatchObject({
      status: 'paused',
      paused_until: null,
      next_cycle_on: '2027-02-28',
    });
  });

  it('cancels at the end of the paid period with the reason given, keeps it when asked, and cancels at once while paused', async () => {
    const plan = await createPlan('monthly', '29.00');
    const member = await createCustomer(t.db);
    const { id } = await join(member, plan);
    setDay('2027-02-10');

    const cancelling = await admin.admin.subscribers.cancel({ id, reason: '  Asked by phone  ' });
    expect(cancelling).toMatchObject({ status: 'active', cancel_at: '2027-02-28', cancel_reason: 'Asked by phone', cancelled_at: null });
    expect((await admin.admin.subscribers.list({})).items[0]).toMatchObject({ id, cancel_at: '2027-02-28' });
    expect(await emailsTo(member.email)).toContain(`${plan.name} cancelled`);
    expect(await trpcFailure(admin.admin.subscribers.cancel({ id, reason: '' }))).toEqual({
      code: 'CONFLICT',
      message: 'This subscription is already cancelled',
    });
    // Cancelling, it cannot be paused any more.
    expect((await trpcFailure(admin.admin.subscribers.pause({ id, cycles: 1 }))).code).toBe('CONFLICT');

    // Asked by phone again: the member stays after all, and is told so.
    const kept = await admin.admin.subscribers.keep({ id });
    expect(kept).toMatchObject({ status: 'active', cancel_at: null, cancel_reason: null });
    expect(await emailsTo(member.email)).toContain(`${plan.name}: your membership continues`);
    expect(await trpcFailure(admin.admin.subscribers.keep({ id }))).toEqual({
      code: 'CONFLICT',
      message: 'This subscription is not set to end',
    });

    const other = await join(await createCustomer(t.db), plan);
    await admin.admin.subscribers.pause({ id: other.id, cycles: null });
    const ended = await admin.admin.subscribers.cancel({ id: other.id, reason: '' });
    expect(ended).toMatchObject({ status: 'cancelled', cancel_at: '2027-02-10', cancel_reason: null });
    expect(Date.parse(ended.cancelled_at!)).toBe(now.getTime());
    expect(await trpcFailure(admin.admin.subscribers.keep({ id: other.id }))).toEqual({
      code: 'CONFLICT',
      message: 'This subscription has ended',
    });
  });

  it('is refused to the member themselves and to anyone signed out, and changes nothing', async () => {
    const plan = await createPlan('monthly', '29.00');
    const member = await createCustomer(t.db);
    const { id } = await join(member, plan);

    expect((await trpcFailure(as(member).admin.subscribers.pause({ id, cycles: 1 }))).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as(member).admin.subscribers.cancel({ id, reason: '' }))).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as(member).admin.subscribers.keep({ id }))).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as(member).admin.subscribers.get({ id }))).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as(member).admin.subscribers.list({}))).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as(null).admin.subscribers.pause({ id, cycles: 1 }))).code).toBe('UNAUTHORIZED');
    const res = await callTrpc(t.app, 'admin.subscribers.cancel', { cookie: await signInHttp(t.app, member.email), input: { id } });
    expect(res.statusCode).toBe(403);
    expect(
      await t.db.selectFrom('subscriptions').select(['status', 'cancel_at', 'paused_until']).where('id', '=', id).executeTakeFirstOrThrow(),
    ).toEqual({ status: 'active', cancel_at: null, paused_until: null });
  });
});

describe('the club on the dashboard', () => {
  const march = (day: number, hour = 12) => new Date(Date.UTC(2027, 2, day, hour));
  const before = new Date(Date.UTC(2027, 0, 10));

  it('counts members being billed, their MRR, this month churn and the shipments of the next 7 days', async () => {
    setDay('2027-03-15');
    const monthly = await createPlan('monthly', '29.00');
    const quarterly = await createPlan('quarterly', '80.00');
    const cheapQuarterly = await createPlan('quarterly', '50.00');
    const yearly = await createPlan('yearly', '240.00');

    // Billed (active or past due), live when March began unless said otherwise:
    await insertMember(monthly, { created_at: before, next_cycle_on: '2027-03-18' }); // ships in 3 days
    await insertMember(quarterly, { created_at: before, next_cycle_on: '2027-03-22' }); // 7 days away: not this week
    await insertMember(cheapQuarterly, { created_at: before, next_cycle_on: '2027-03-15' }); // ships today
    await insertMember(yearly, { created_at: before, status: 'past_due', next_cycle_on: '2027-03-16' }); // on hold: ships nothing
    await insertMember(monthly, { created_at: march(3), next_cycle_on: '2027-03-17', skip_next: true }); // skips it
    await insertMember(monthly, { created_at: march(3), next_cycle_on: '2027-03-19', cancel_at: '2027-03-19' }); // ends instead
    // Not billed:
    await insertMember(monthly, { created_at: before, status: 'paused', paused_until: '2027-03-20', next_cycle_on: '2027-03-20' }); // ships when it resumes
    await insertMember(monthly, { created_at: before, status: 'paused', next_cycle_on: '2027-03-16' }); // until resumed
    await insertMember(monthly, { created_at: before, status: 'cancelled', cancelled_at: march(5) }); // churned
    await insertMember(monthly, { created_at: march(2), status: 'cancelled', cancelled_at: march(10) }); // churned, joined in March
    await insertMember(monthly, { created_at: before, status: 'cancelled', cancelled_at: new Date(Date.UTC(2027, 1, 20)) }); // gone before March
    await insertMember(monthly, { created_at: before, status: 'incomplete', payment_provider: 'stripe', next_cycle_on: '2027-03-16' });

    const { club } = await admin.admin.dashboard.overview();
    expect(club).toEqual({
      activeMembers: 6,
      // 29 + 80/3 + 50/3 + 240/12 + 29 + 29 = 150.333..., rounded once at the end (per member it would be 150.34).
      mrr: '150.33',
      // 2 ended in March of the 7 live on March 1.
      churnPercent: '28.6',
      shipmentsDue: 3,
    });

    // The clock decides the month: in April, March's cancellations are last month's.
    setDay('2027-04-02');
    expect((await admin.admin.dashboard.overview()).club).toMatchObject({ activeMembers: 6, churnPercent: '0.0' });
  });

  it('shows zeros, and 0.0% churn when nobody was a member when the month began', async () => {
    setDay('2027-03-15');
    expect((await admin.admin.dashboard.overview()).club).toEqual({ activeMembers: 0, mrr: '0.00', churnPercent: '0.0', shipmentsDue: 0 });
    const plan = await createPlan('monthly', '29.00');
    await insertMember(plan, { created_at: march(2), status: 'cancelled', cancelled_at: march(4) });
    expect((await admin.admin.dashboard.overview()).club).toEqual({ activeMembers: 0, mrr: '0.00', churnPercent: '0.0', shipmentsDue: 0 });
  });
});
