import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BillingInterval, Size } from '../../src/shared/constants';
import { markOrderPaid } from '../../src/server/orders/transitions';
import { FailedStepBackoff, renewDueSubscriptions, type RenewalServices } from '../../src/server/subscriptions/renewal';
import { callerAs, sharedTestApp } from '../support/app';
import { subscriptionCycles } from '../support/renewals';
import { createCategory, createCustomer, createMembership, createPlan, createProduct } from '../support/factories';

// The renewal engine on a real database (both kinds): one order per due cycle with the curated
// shirt, skips, pauses, cancellation at the period's end, missed cycles, a pass that dies half-way,
// and engines running side by side. Time comes from a clock the tests move.

const t = sharedTestApp();

let now = new Date('2027-01-31T09:00:00Z');
const clock = { now: () => now };
const setDay = (day: string) => (now = new Date(`${day}T09:00:00Z`));
const warnings: unknown[] = [];
const errors: unknown[] = [];
const services = (): RenewalServices => ({
  db: t.db,
  mail: t.config,
  clock,
  log: { warn: (entry) => warnings.push(entry), error: (entry) => errors.push(entry) },
  billing: null,
  dunning: t.config,
});
const renew = () => renewDueSubscriptions(services());
const NOTHING_DONE = { ordered: 0, skipped: 0, resumed: 0, ended: 0, reminded: 0, reactivated: 0, retried: 0, endedUnpaid: 0, failed: 0 };

interface MemberOptions {
  interval?: BillingInterval;
  size?: Size;
  categoryIds?: string[];
  startsOn?: string;
}

/** A member whose first cycle starts on `startsOn` (today by default), paid by hand. */
async function createMember(options: MemberOptions = {}) {
  const plan = await createPlan(t.db, { billing_interval: options.interval ?? 'monthly' });
  const customer = await createCustomer(t.db);
  const subscription = await createMembership(t.db, {
    customerId: customer.id,
    plan,
    startsOn: options.startsOn ?? now.toISOString().slice(0, 10),
    size: options.size ?? 'M',
    category_ids: options.categoryIds ?? [],
  });
  return { plan, customer, subscription };
}

const subscriptionRow = (id: string) => t.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const cyclesOf = (id: string) => subscriptionCycles(t.db, id);
const shirtsSent = (subscriptionId: string) =>
  t.db
    .selectFrom('orders')
    .innerJoin('order_items', 'order_items.order_id', 'orders.id')
    .select(['order_items.product_name', 'order_items.size', 'orders.total', 'orders.payment_status'])
    .where('orders.subscription_id', '=', subscriptionId)
    .orderBy('orders.created_at')
    .execute();

let theme: string;

beforeEach(async () => {
  setDay('2027-01-31');
  warnings.length = 0;
  errors.length = 0;
  // Members of earlier tests are finished with: nothing of theirs may be due in this one.
  await t.db.updateTable('subscriptions').set({ status: 'cancelled' }).execute();
  theme = (await createCategory(t.db)).id;
});

describe('a due cycle', () => {
  it('makes one order with the newest shirt the member has not had, and moves to the same day next month', async () => {
    await createProduct(t.db, { category_id: theme, name: 'Older Tee', created_at: new Date('2026-01-01') });
    await createProduct(t.db, { category_id: theme, name: 'Newest Tee', created_at: new Date('2026-06-01') });
    await createProduct(t.db, {
      category_id: theme,
      name: 'No Small Tee',
      available_sizes: ['L'],
      created_at: new Date('2026-09-01'),
    });
    const { subscription, customer } = await createMember({ categoryIds: [theme], size: 'S' });

    expect(await renew()).toEqual({ ...NOTHING_DONE, ordered: 1 });
    expect(await shirtsSent(subscription.id)).toEqual([
      { product_name: 'Newest Tee', size: 'S', total: '29.00', payment_status: 'pending' },
    ]);
    expect((await subscriptionRow(subscription.id)).next_cycle_on).toBe('2027-02-28');
    const email = await t.db.selectFrom('email_queue').select('subject').where('to_email', '=', customer.email).executeTakeFirstOrThrow();
    expect(email.subject).toMatch(/^Order TL-\d+ confirmed$/);

    // Again the same day: nothing is due.
    expect(await renew()).toEqual(NOTHING_DONE);

    // February's cycle: the next shirt not yet sent; March's: every one sent, so the one sent longest ago.
    setDay('2027-02-28');
    await renew();
    setDay('2027-03-31');
    await renew();
    expect((await shirtsSent(subscription.id)).map((item) => item.product_name)).toEqual(['Newest Tee', 'Older Tee', 'Newest Tee']);
    expect((await cyclesOf(subscription.id)).map((cycle) => cycle.cycle_start)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31']);
    expect((await subscriptionRow(subscription.id)).next_cycle_on).toBe('2027-04-30');
  });

  it("leaves out shirts that left the store, and sends one of another category when none is left in the member's", async () => {
    await createProduct(t.db, { category_id: theme, name: 'Withdrawn Tee', is_active: false, available_sizes: ['2XL'] });
    const elsewhere = (await createCategory(t.db)).id;
    await createProduct(t.db, { category_id: elsewhere, name: 'Tee From Elsewhere', available_sizes: ['2XL'] });
    const { subscription } = await createMember({ categoryIds: [theme], size: '2XL' });
    await renew();
    expect(await shirtsSent(subscription.id)).toEqual([
      { product_name: 'Tee From Elsewhere', size: '2XL', total: '29.00', payment_status: 'pending' },
    ]);
    expect(warnings).toEqual([]);
  });

  it('still makes the order when no shirt is made in the size at all, and tells the store', async () => {
    const { subscription, plan } = await createMember({ categoryIds: [theme], size: 'XS' });
    await renew();
    const [order] = await t.db
      .selectFrom('orders')
      .select(['order_number', 'total'])
      .where('subscription_id', '=', subscription.id)
      .execute();
    expect(order?.total).toBe('29.00');
    expect(await shirtsSent(subscription.id)).toEqual([]);
    expect(warnings).toHaveLength(1);
    const notice = await t.db
      .selectFrom('email_queue')
      .select(['to_email', 'text_body'])
      .where('subject', '=', `Club order ${order!.order_number} has no shirt`)
      .executeTakeFirstOrThrow();
    expect(notice.to_email).toBe(t.config.storeEmail);
    expect(notice.text_body).toContain(`No active shirt is made in size XS, so order ${order!.order_number} of ${plan.name}`);
  });

  it('catches up cycles missed while the store was down, one order each', async () => {
    await createProduct(t.db, { category_id: theme });
    const { subscription } = await createMember({ categoryIds: [theme], interval: 'quarterly', startsOn: '2026-07-31' });
    const result = await renew();
    expect(result.ordered).toBe(3);
    expect((await cyclesOf(subscription.id)).map((cycle) => cycle.cycle_start)).toEqual(['2026-07-31', '2026-10-31', '2027-01-31']);
    expect((await subscriptionRow(subscription.id)).next_cycle_on).toBe('2027-04-30');
  });
});

describe('member choices', () => {
  it('skips the next shipment: no order that cycle, the one after as usual', async () => {
    await createProduct(t.db, { category_id: theme });
    const { subscription } = await createMember({ categoryIds: [theme] });
    await t.db.updateTable('subscriptions').set({ skip_next: true }).where('id', '=', subscription.id).execute();
    expect(await renew()).toMatchObject({ ordered: 0, skipped: 1 });
    expect(await cyclesOf(subscription.id)).toEqual([{ cycle_start: '2027-01-31', outcome: 'skipped', order_id: null }]);
    expect(await subscriptionRow(subscription.id)).toMatchObject({ skip_next: false, next_cycle_on: '2027-02-28' });
    setDay('2027-02-28');
    expect(await renew()).toMatchObject({ ordered: 1 });
  });

  it("makes nothing while paused and resumes on the chosen day with that day's cycle", async () => {
    await createProduct(t.db, { category_id: theme });
    const { subscription } = await createMember({ categoryIds: [theme] });
    await t.db
      .updateTable('subscriptions')
      .set({ status: 'paused', paused_until: '2027-03-31', next_cycle_on: '2027-03-31' })
      .where('id', '=', subscription.id)
      .execute();
    setDay('2027-02-28');
    expect(await renew()).toEqual(NOTHING_DONE);
    setDay('2027-03-31');
    expect(await renew()).toMatchObject({ resumed: 1, ordered: 1 });
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: 'active', paused_until: null, next_cycle_on: '2027-04-30' });

    // Paused until resumed: never due on its own.
    await t.db.updateTable('subscriptions').set({ status: 'paused', paused_until: null }).where('id', '=', subscription.id).execute();
    setDay('2027-09-30');
    // (The unpaid orders of the months before get their reminders; no cycle is made.)
    expect(await renew()).toMatchObject({ ordered: 0, skipped: 0, resumed: 0 });
  });

  it('ends at the end of the paid period: no cycle on or after the cancel day', async () => {
    await createProduct(t.db, { category_id: theme });
    const { subscription } = await createMember({ categoryIds: [theme] });
    await renew();
    await t.db
      .updateTable('subscriptions')
      .set({ cancel_at: '2027-02-28', cancel_reason: 'Too many tees' })
      .where('id', '=', subscription.id)
      .execute();
    setDay('2027-02-28');
    expect(await renew()).toMatchObject({ ordered: 0, ended: 1 });
    const ended = await subscriptionRow(subscription.id);
    expect(ended.status).toBe('cancelled');
    expect(ended.cancelled_at).not.toBeNull();
    expect(await cyclesOf(subscription.id)).toHaveLength(1);
  });
});

describe('faults and concurrency', () => {
  it('rolls back a cycle that fails half-way, goes on with the others, and does it once on the next pass', async () => {
    await createProduct(t.db, { category_id: theme });
    const first = await createMember({ categoryIds: [theme] });
    const second = await createMember({ categoryIds: [theme] });
    // The second member's order cannot be written: the pass fails there, as a killed process would.
    await sql`
      create function fail_order() returns trigger language plpgsql as $$
      begin raise exception 'disk full'; end $$;
      create trigger fail_order before insert on orders for each row
        when (new.subscription_id = ${sql.lit(second.subscription.id)}::uuid) execute function fail_order();
    `.execute(t.db);
    try {
      expect(await renew()).toMatchObject({ ordered: 1, failed: 1 });
    } finally {
      await sql`drop trigger fail_order on orders; drop function fail_order();`.execute(t.db);
    }
    expect(await cyclesOf(first.subscription.id)).toHaveLength(1);
    expect(await cyclesOf(second.subscription.id)).toEqual([]);
    expect((await subscriptionRow(second.subscription.id)).next_cycle_on).toBe('2027-01-31');

    expect(errors).toHaveLength(1);
    expect(await t.db.selectFrom('orders').select('id').where('subscription_id', '=', second.subscription.id).execute()).toEqual([]);

    expect(await renew()).toMatchObject({ ordered: 1, failed: 0 });
    expect(await cyclesOf(first.subscription.id)).toHaveLength(1);
    expect(await cyclesOf(second.subscription.id)).toHaveLength(1);
  });

  it('waits longer after each failure in a row before trying a failing step again, and forgets once it succeeds', async () => {
    await createProduct(t.db, { category_id: theme });
    const { subscription } = await createMember({ categoryIds: [theme] });
    await sql`
      create function fail_order() returns trigger language plpgsql as $$
      begin raise exception 'disk full'; end $$;
      create trigger fail_order before insert on orders for each row execute function fail_order();
    `.execute(t.db);
    const backoff = new FailedStepBackoff();
    const pass = () => renewDueSubscriptions(services(), { backoff });
    const later = (ms: number) => (now = new Date(now.getTime() + ms));
    const minute = 60_000;
    try {
      expect(await pass()).toEqual({ ...NOTHING_DONE, failed: 1 });
      expect(errors).toEqual([expect.objectContaining({ subscriptionId: subscription.id, retryAt: new Date(now.getTime() + minute) })]);
      // Passes within the wait leave it alone: no second try, no second error.
      expect(await pass()).toEqual(NOTHING_DONE);
      later(minute);
      expect(await pass()).toEqual({ ...NOTHING_DONE, failed: 1 });
      later(minute);
      expect(await pass()).toEqual(NOTHING_DONE);
      later(minute);
      expect(await pass()).toEqual({ ...NOTHING_DONE, failed: 1 });
      expect(errors).toHaveLength(3);
      // Many failures later the wait stops growing at an hour.
      for (let failures = 3; failures < 10; failures++) {
        later(60 * minute);
        expect(await pass()).toEqual({ ...NOTHING_DONE, failed: 1 });
      }
      later(60 * minute - 1);
      expect(await pass()).toEqual(NOTHING_DONE);
    } finally {
      await sql`drop trigger fail_order on orders; drop function fail_order();`.execute(t.db);
    }
    later(1);
    expect(await pass()).toEqual({ ...NOTHING_DONE, ordered: 1 });
    expect(backoff.waiting(now)).toEqual([]);
    expect(await cyclesOf(subscription.id)).toHaveLength(1);
  });

  it('lets several engines run at once and still makes one order per cycle', async () => {
    await createProduct(t.db, { category_id: theme });
    const members = await Promise.all(Array.from({ length: 8 }, () => createMember({ categoryIds: [theme] })));
    const results = await Promise.all([renew(), renew(), renew(), renew()]);
    expect(results.reduce((sum, result) => sum + result.ordered, 0)).toBe(8);
    for (const { subscription } of members) {
      expect(await cyclesOf(subscription.id)).toHaveLength(1);
      expect(await t.db.selectFrom('orders').select('id').where('subscription_id', '=', subscription.id).execute()).toHaveLength(1);
    }
  });
});

describe('shutdown', () => {
  it('ends a pass after the step in hand once told to stop, leaving the rest for the next pass', async () => {
    await createProduct(t.db, { category_id: theme });
    const members = await Promise.all(Array.from({ length: 3 }, () => createMember({ categoryIds: [theme] })));
    // SIGTERM arrives while the first step runs (it reads the clock as it starts).
    const stop = new AbortController();
    const stopping = {
      now: () => {
        stop.abort();
        return now;
      },
    };
    expect(await renewDueSubscriptions({ ...services(), clock: stopping }, { signal: stop.signal })).toEqual({
      ...NOTHING_DONE,
      ordered: 1,
    });
    expect(await renew()).toEqual({ ...NOTHING_DONE, ordered: 2 });
    for (const { subscription } of members) expect(await cyclesOf(subscription.id)).toHaveLength(1);
  });
});

describe('cycle orders paid by hand and left unpaid', () => {
  const mailTo = (email: string) =>
    t.db.selectFrom('email_queue').select(['subject', 'text_body']).where('to_email', '=', email).orderBy('created_at').execute();
  const reminders = async (email: string) => (await mailTo(email)).filter((mail) => mail.subject.startsWith('Reminder:'));

  it('reminds every 7 days, holds shipments after the third reminder, and takes the member back once paid', async () => {
    const { customer, subscription } = await createMember({ startsOn: '2027-01-31' });
    await renew();
    const [cycle] = await cyclesOf(subscription.id);
    const order = await t.db
      .selectFrom('orders')
      .select(['id', 'order_number'])
      .where('id', '=', cycle!.order_id)
      .executeTakeFirstOrThrow();

    setDay('2027-02-06');
    await renew();
    expect(await reminders(customer.email)).toHaveLength(0);

    setDay('2027-02-07');
    await renew();
    await renew();
    const first = await reminders(customer.email);
    expect(first).toHaveLength(1);
    expect(first[0]!.subject).toContain(`order #${order.order_number}`);
    expect(first[0]!.text_body).toContain('$29.00');
    expect((await subscriptionRow(subscription.id)).status).toBe('active');

    setDay('2027-02-13');
    await renew();
    expect(await reminders(customer.email)).toHaveLength(1);
    setDay('2027-02-14');
    await renew();
    setDay('2027-02-21');
    await renew();
    const all = await reminders(customer.email);
    expect(all).toHaveLength(3);
    expect(all[2]!.text_body).toContain('your shipments are on hold until the payment arrives');
    expect((await subscriptionRow(subscription.id)).status).toBe('past_due');

    // On hold: no cycle is made, and no fourth reminder.
    setDay('2027-03-10');
    await renew();
    expect(await cyclesOf(subscription.id)).toHaveLength(1);
    expect(await reminders(customer.email)).toHaveLength(3);

    // Paid at last: active again from the next day of theirs; the cycle missed meanwhile is not made.
    await markOrderPaid(t.db, t.config, order.id);
    expect(await renew()).toMatchObject({ reactivated: 1, ordered: 0 });
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: 'active', next_cycle_on: '2027-03-31' });
    expect((await mailTo(customer.email)).at(-1)!.subject).toMatch(/resumed$/);
    setDay('2027-03-31');
    expect(await renew()).toMatchObject({ ordered: 1 });
  });

  it('ends at once a membership on hold that its member cancels, so it does not stay on hold for ever', async () => {
    const { customer, subscription } = await createMember({ startsOn: '2027-01-31' });
    await renew();
    for (const day of ['2027-02-07', '2027-02-14', '2027-02-21']) {
      setDay(day);
      await renew();
    }
    expect((await subscriptionRow(subscription.id)).status).toBe('past_due');

    await callerAs(t, customer, { clock }).subscriptions.cancel({ id: subscription.id, reason: '' });
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: 'cancelled', cancel_at: '2027-02-21', unpaid_since: null });
    setDay('2027-03-31');
    expect(await renew()).toEqual(NOTHING_DONE);
  });

  it("ends on its day a membership cancelled for the period's end that went on hold meanwhile", async () => {
    const { customer, subscription } = await createMember({ startsOn: '2027-01-31' });
    await renew();
    await callerAs(t, customer, { clock }).subscriptions.cancel({ id: subscription.id, reason: '' });
    expect((await subscriptionRow(subscription.id)).cancel_at).toBe('2027-02-28');
    for (const day of ['2027-02-07', '2027-02-14', '2027-02-21']) {
      setDay(day);
      await renew();
    }
    expect((await subscriptionRow(subscription.id)).status).toBe('past_due');
    setDay('2027-02-28');
    expect(await renew()).toMatchObject({ ended: 1, ordered: 0 });
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: 'cancelled', cancel_at: '2027-02-28', unpaid_since: null });
  });

  it('sends no reminder for a paid or cancelled cycle order', async () => {
    const paying = await createMember({ startsOn: '2027-01-31' });
    const cancelled = await createMember({ startsOn: '2027-01-31' });
    await renew();
    const [paid] = await cyclesOf(paying.subscription.id);
    const [dropped] = await cyclesOf(cancelled.subscription.id);
    await markOrderPaid(t.db, t.config, paid!.order_id!);
    await t.db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', dropped!.order_id!).execute();
    setDay('2027-02-14');
    await renew();
    expect(await reminders(paying.customer.email)).toHaveLength(0);
    expect(await reminders(cancelled.customer.email)).toHaveLength(0);
  });
});
