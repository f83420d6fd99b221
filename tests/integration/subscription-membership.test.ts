import { beforeEach, describe, expect, it } from 'vitest';
import type { Size } from '../../src/shared/constants';
import * as messages from '../../src/shared/schemas/subscriptions';
import { callerAs, callTrpc, sharedTestApp, signInHttp } from '../support/app';
import { renewalPass } from '../support/renewals';
import { holdsFor, trpcFailure } from '../support/async';
import { createCategory, createCustomer, createProduct, type TestUser, RITAS_SHIPPING } from '../support/factories';

// Joining a plan and what a member does with it, through the procedures the pages call, with a
// clock the tests move: join (the first cycle's order at once), change, skip, pause, resume and
// cancel at the end of the paid period, each with its email; bad input changes nothing.

const t = sharedTestApp();

let now = new Date('2027-01-31T09:00:00Z');
const clock = { now: () => now };
const setDay = (day: string) => (now = new Date(`${day}T09:00:00Z`));
const renew = renewalPass(t, clock);

const SHIPPING = RITAS_SHIPPING;

let slug: number;
async function createPlan(categoryLimit = 2, isActive = true) {
  return t.db
    .insertInto('subscription_plans')
    .values({
      name: `Tee Club ${++slug}`,
      slug: `tee-club-${slug}`,
      price: '29.00',
      billing_interval: 'monthly',
      category_limit: categoryLimit,
      is_active: isActive,
      features: [],
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

let member: TestUser;
let cars: string;
let bikes: string;
const as = (user: TestUser) => callerAs(t, user, { clock });
const emailsTo = async (email: string) =>
  (await t.db.selectFrom('email_queue').select('subject').where('to_email', '=', email).orderBy('created_at').execute()).map(
    (row) => row.subject,
  );

beforeEach(async () => {
  slug = Math.floor(Math.random() * 1e6);
  setDay('2027-01-31');
  // Earlier tests' members are done with: none of theirs may come due in this one.
  await t.db.updateTable('subscriptions').set({ status: 'cancelled' }).execute();
  member = await createCustomer(t.db);
  cars = (await createCategory(t.db, { name: 'Cars' })).id;
  bikes = (await createCategory(t.db, { name: 'Bikes' })).id;
  await createProduct(t.db, { category_id: cars, name: 'Hot Rod Tee' });
  await createProduct(t.db, { category_id: bikes, name: 'Chopper Tee', available_sizes: ['L', 'XL'] });
});

const join = (user: TestUser, planSlug: string, choices: { size?: Size; categoryIds?: string[] } = {}) =>
  as(user).subscriptions.join({ planSlug, size: choices.size ?? 'L', categoryIds: choices.categoryIds ?? [cars], shipping: SHIPPING });

describe('joining', () => {
  it('starts the membership today with its first order to pay by hand, and welcomes the member', async () => {
    const plan = await createPlan();
    const { id } = await join(member, plan.slug);
    const [mine] = await as(member).subscriptions.mine();
    expect(mine).toMatchObject({
      id,
      status: 'active',
      plan_name: plan.name,
      size: 'L',
      category_names: ['Cars'],
      next_cycle_on: '2027-02-28',
      cancel_at: null,
    });
    expect(mine?.orders).toHaveLength(1);
    expect(mine?.orders[0]).toMatchObject({ total: '29.00', payment_status: 'pending' });
    const items = await t.db
      .selectFrom('order_items')
      .innerJoin('orders', 'orders.id', 'order_items.order_id')
      .select(['product_name', 'size'])
      .where('orders.subscription_id', '=', id)
      .execute();
    expect(items).toEqual([{ product_name: 'Hot Rod Tee', size: 'L' }]);
    expect(await emailsTo(member.email)).toEqual([`Welcome to ${plan.name}`, `Order ${mine?.orders[0]?.order_number} confirmed`]);
  });

  // Two transactions at once need a PostgreSQL server; the embedded database has one session.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'refuses a plan an admin deleted while the join was being stored, as one deleted before',
    async () => {
      const plan = await createPlan(1);
      let joining: Promise<{ code: string; message: string }> | undefined;
      // The admin's delete has locked the plan and is about to remove it when the join comes.
      await t.db.transaction().execute(async (trx) => {
        await trx.selectFrom('subscription_plans').select('id').where('id', '=', plan.id).forUpdate().execute();
        joining = trpcFailure(join(member, plan.slug));
        let settled = false;
        void joining.finally(() => (settled = true));
        await holdsFor(() => !settled, 'the join waiting for the delete', 300);
        await trx.deleteFrom('subscription_plans').where('id', '=', plan.id).execute();
      });
      expect(await joining).toEqual({ code: 'NOT_FOUND', message: messages.PLAN_UNAVAILABLE });
    },
  );

  it('refuses a second membership of one plan, an inactive plan, and bad choices, and writes nothing', async () => {
    const plan = await createPlan(1);
    await join(member, plan.slug);
    expect((await trpcFailure(join(member, plan.slug))).message).toBe(messages.ALREADY_MEMBER);

    const other = await createCustomer(t.db);
    const inactive = await createPlan(1, false);
    expect((await trpcFailure(join(other, inactive.slug))).message).toBe(messages.PLAN_UNAVAILABLE);
    expect((await trpcFailure(join(other, 'no-such-plan'))).message).toBe(messages.PLAN_UNAVAILABLE);
    expect((await trpcFailure(join(other, plan.slug, { categoryIds: [cars, bikes] }))).message).toBe(messages.tooManyCategories(1));
    expect((await trpcFailure(join(other, plan.slug, { categoryIds: [] }))).message).toBe(messages.CHOOSE_A_CATEGORY);
    expect((await trpcFailure(join(other, plan.slug, { categoryIds: ['00000000-0000-4000-8000-000000000000'] }))).message).toBe(
      messages.UNKNOWN_CATEGORY,
    );

    const cookie = await signInHttp(t.app, other.email);
    const badSize = await callTrpc(t.app, 'subscriptions.join', {
      cookie,
      input: { planSlug: plan.slug, size: 'XXL', categoryIds: [cars], shipping: SHIPPING },
    });
    expect([badSize.statusCode, badSize.error?.data.fieldErrors?.size]).toEqual([400, ['Choose a shirt size']]);
    const noStreet = await callTrpc(t.app, 'subscriptions.join', {
      cookie,
      input: { planSlug: plan.slug, size: 'M', categoryIds: [cars], shipping: { ...SHIPPING, street: ' ' } },
    });
    expect(noStreet.error?.data.fieldErrors?.['shipping.street']).toEqual(['Street address is required']);
    expect(await t.db.selectFrom('subscriptions').select('id').where('customer_id', '=', other.id).execute()).toEqual([]);
    expect(await emailsTo(other.email)).toEqual([]);
  });

  it('refuses to join on terms the member was not shown, and joins on the ones now shown', async () => {
    const plan = await createPlan();
    const shown = { price: '29.00', billingInterval: 'monthly' } as const;
    await t.db.updateTable('subscription_plans').set({ price: '34.00' }).where('id', '=', plan.id).execute();
    const joinShown = (expectedTerms: { price: string; billingInterval: 'monthly' | 'quarterly' }) =>
      as(member).subscriptions.join({ planSlug: plan.slug, size: 'L', categoryIds: [cars], shipping: SHIPPING, expectedTerms });
    expect(await trpcFailure(joinShown(shown))).toEqual({ code: 'CONFLICT', message: messages.PLAN_CHANGED });
    await t.db.updateTable('subscription_plans').set({ price: '29.00', billing_interval: 'quarterly' }).where('id', '=', plan.id).execute();
    expect(await trpcFailure(joinShown(shown))).toEqual({ code: 'CONFLICT', message: messages.PLAN_CHANGED });
    expect(await t.db.selectFrom('subscriptions').select('id').where('customer_id', '=', member.id).execute()).toEqual([]);
    expect(await emailsTo(member.email)).toEqual([]);

    await joinShown({ price: '29.00', billingInterval: 'quarterly' });
    const [mine] = await as(member).subscriptions.mine();
    expect(mine?.orders[0]).toMatchObject({ total: '29.00' });
  });

  it('needs no categories for a plan of every category', async () => {
    const plan = await createPlan(0);
    await join(member, plan.slug, { categoryIds: [] });
    const [mine] = await as(member).subscriptions.mine();
    expect(mine).toMatchObject({ category_limit: 0, category_names: [] });
  });
});

describe('a member', () => {
  it('skips the next shipment: that cycle makes no order, the one after does', async () => {
    const { id } = await join(member, (await createPlan()).slug);
    expect(await as(member).subscriptions.skipNext({ id })).toMatchObject({ skip_next: true });
    expect((await trpcFailure(as(member).subscriptions.skipNext({ id }))).message).toBe('The next shipment is already skipped');
    setDay('2027-02-28');
    expect(await renew()).toMatchObject({ skipped: 1, ordered: 0 });
    setDay('2027-03-31');
    expect(await renew()).toMatchObject({ ordered: 1 });
    expect((await as(member).subscriptions.mine())[0]?.orders).toHaveLength(2);
    expect((await emailsTo(member.email)).some((subject) => subject.endsWith('shipment of Feb 28, 2027 skipped'))).toBe(true);
  });

  it('pauses for two cycles and resumes by itself; pauses until resumed and resumes on the next day of theirs', async () => {
    const { id } = await join(member, (await createPlan()).slug);
    expect(await as(member).subscriptions.pause({ id, cycles: 2 })).toMatchObject({ status: 'paused', paused_until: '2027-04-30' });
    setDay('2027-03-31');
    expect(await renew()).toMatchObject({ ordered: 0, resumed: 0 });
    setDay('2027-04-30');
    expect(await renew()).toMatchObject({ resumed: 1, ordered: 1 });

    await as(member).subscriptions.pause({ id, cycles: null });
    setDay('2027-08-02');
    expect(await renew()).toMatchObject({ ordered: 0 });
    // Back in August: the next cycle is August 31, none of the missed ones.
    expect(await as(member).subscriptions.resume({ id })).toMatchObject({ status: 'active', next_cycle_on: '2027-08-31' });
    expect(await renew()).toMatchObject({ ordered: 0 });
    expect((await trpcFailure(as(member).subscriptions.resume({ id }))).message).toBe('Only a paused subscription can be resumed');

    // Paused for three shipments but back early: the next of their days, not the pause's end.
    expect(await as(member).subscriptions.pause({ id, cycles: 3 })).toMatchObject({ paused_until: '2027-11-30' });
    setDay('2027-09-10');
    expect(await as(member).subscriptions.resume({ id })).toMatchObject({ status: 'active', next_cycle_on: '2027-09-30' });
  });

  it('keeps a skipped shipment skipped when it then pauses, and pauses the shipments after it', async () => {
    const { id } = await join(member, (await createPlan()).slug);
    await as(member).subscriptions.skipNext({ id });
    // February's shipment is skipped already: one shipment paused is March's, so it resumes in April.
    expect(await as(member).subscriptions.pause({ id, cycles: 1 })).toMatchObject({ status: 'paused', paused_until: '2027-04-30' });
    // Back before the skipped day: February's stays skipped, the next shipment is March's.
    setDay('2027-02-10');
    expect(await as(member).subscriptions.resume({ id })).toMatchObject({
      status: 'active',
      next_cycle_on: '2027-03-31',
      skip_next: false,
    });
    setDay('2027-02-28');
    expect(await renew()).toMatchObject({ ordered: 0 });
    setDay('2027-03-31');
    expect(await renew()).toMatchObject({ ordered: 1 });
    expect((await as(member).subscriptions.mine())[0]?.orders).toHaveLength(2);
  });

  it("resumed the day it joined, does not make that day's cycle again", async () => {
    const { id } = await join(member, (await createPlan()).slug);
    expect(await as(member).subscriptions.pause({ id, cycles: 2 })).toMatchObject({ next_cycle_on: '2027-04-30' });
    expect(await as(member).subscriptions.resume({ id })).toMatchObject({ status: 'active', next_cycle_on: '2027-02-28' });
    expect(await renew()).toMatchObject({ ordered: 0 });
    expect((await as(member).subscriptions.mine())[0]?.orders).toHaveLength(1);
  });

  it('cancels at the end of the paid period: it says when, and the engine ends it then', async () => {
    const plan = await createPlan();
    const { id } = await join(member, plan.slug);
    expect(await as(member).subscriptions.cancel({ id, reason: 'Too many tees' })).toMatchObject({
      status: 'active',
      cancel_at: '2027-02-28',
      cancel_reason: 'Too many tees',
    });
    expect((await trpcFailure(as(member).subscriptions.cancel({ id }))).message).toBe('This subscription is already cancelled');
    setDay('2027-02-28');
    expect(await renew()).toMatchObject({ ended: 1, ordered: 0 });
    expect((await as(member).subscriptions.mine())[0]).toMatchObject({ status: 'cancelled' });
    expect(await emailsTo(member.email)).toContain(`${plan.name} cancelled`);
  });

  it('keeps a membership it cancelled before the day it ends: no end, a short email, and it renews on its day', async () => {
    const plan = await createPlan();
    const { id } = await join(member, plan.slug);
    await as(member).subscriptions.cancel({ id, reason: 'Too many tees' });
    setDay('2027-02-27');
    expect(await as(member).subscriptions.keep({ id })).toMatchObject({
      status: 'active',
      cancel_at: null,
      cancel_reason: null,
      next_cycle_on: '2027-02-28',
    });
    expect((await as(member).subscriptions.mine())[0]).toMatchObject({ status: 'active', cancel_at: null });
    expect((await emailsTo(member.email)).filter((subject) => subject === `${plan.name}: your membership continues`)).toHaveLength(1);
    // Kept once is kept: a second click is refused and sends nothing more.
    expect(await trpcFailure(as(member).subscriptions.keep({ id }))).toEqual({
      code: 'CONFLICT',
      message: 'This subscription is not set to end',
    });

    // The day it would have ended, it renews instead.
    setDay('2027-02-28');
    expect(await renew()).toMatchObject({ ordered: 1, ended: 0 });
    const [mine] = await as(member).subscriptions.mine();
    expect(mine).toMatchObject({ status: 'active', cancel_at: null, next_cycle_on: '2027-03-31' });
    expect(mine?.orders).toHaveLength(2);
    // And it can be cancelled again.
    expect(await as(member).subscriptions.cancel({ id })).toMatchObject({ cancel_at: '2027-03-31' });
  });

  it("refuses to keep a membership not set to end, one that has ended, someone else's or a signed-out caller's, and changes nothing", async () => {
    const plan = await createPlan();
    const { id } = await join(member, plan.slug);
    const keep = (user: TestUser | null) => trpcFailure(callerAs(t, user, { clock }).subscriptions.keep({ id }));
    expect(await keep(member)).toEqual({ code: 'CONFLICT', message: 'This subscription is not set to end' });

    await as(member).subscriptions.cancel({ id, reason: 'Moving' });
    expect(await keep(await createCustomer(t.db))).toEqual({ code: 'NOT_FOUND', message: messages.SUBSCRIPTION_NOT_FOUND });
    expect(await keep(null)).toMatchObject({ code: 'UNAUTHORIZED' });
    // Its last day has come: over, even before the engine has been by to end it.
    setDay('2027-02-28');
    expect(await keep(member)).toEqual({ code: 'CONFLICT', message: 'This subscription has ended' });
    expect(await renew()).toMatchObject({ ended: 1 });
    expect(await keep(member)).toEqual({ code: 'CONFLICT', message: 'This subscription has ended' });

    const row = await t.db
      .selectFrom('subscriptions')
      .select(['status', 'cancel_at', 'cancel_reason'])
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row).toEqual({ status: 'cancelled', cancel_at: '2027-02-28', cancel_reason: 'Moving' });
    expect((await emailsTo(member.email)).filter((subject) => subject.endsWith('your membership continues'))).toEqual([]);
  });

  it("changes size and categories within the plan's limit", async () => {
    const { id } = await join(member, (await createPlan(1)).slug);
    expect(await as(member).subscriptions.changeChoices({ id, size: 'XL', categoryIds: [bikes] })).toMatchObject({
      size: 'XL',
      category_ids: [bikes],
    });
    expect((await trpcFailure(as(member).subscriptions.changeChoices({ id, size: 'XL', categoryIds: [cars, bikes] }))).message).toBe(
      messages.tooManyCategories(1),
    );
  });

  it('refuses a size no shirt of the chosen categories is made in, as cycles of it could ship nothing', async () => {
    const plan = await createPlan(1);
    const joining = await trpcFailure(join(member, plan.slug, { size: 'XS', categoryIds: [bikes] }));
    expect(joining).toEqual({ code: 'BAD_REQUEST', message: messages.noShirtsInSize('XS') });
    expect(await t.db.selectFrom('subscriptions').select('id').where('customer_id', '=', member.id).execute()).toEqual([]);

    const { id } = await join(member, plan.slug, { size: 'XL', categoryIds: [bikes] });
    const changing = await trpcFailure(as(member).subscriptions.changeChoices({ id, size: 'S', categoryIds: [bikes] }));
    expect(changing.message).toBe(messages.noShirtsInSize('S'));
    expect(await as(member).subscriptions.changeChoices({ id, size: 'L', categoryIds: [bikes] })).toMatchObject({ size: 'L' });
  });

  it('drops a chosen category that left the store, instead of refusing every change', async () => {
    const { id } = await join(member, (await createPlan(2)).slug, { categoryIds: [cars, bikes] });
    await t.db.updateTable('categories').set({ is_active: false }).where('id', '=', bikes).execute();
    expect(await as(member).subscriptions.changeChoices({ id, size: 'XL', categoryIds: [cars, bikes] })).toMatchObject({
      size: 'XL',
      category_ids: [cars],
    });
    // Choosing it anew is still refused.
    const again = await trpcFailure(as(member).subscriptions.changeChoices({ id, size: 'XL', categoryIds: [bikes] }));
    expect(again.message).toBe(messages.UNKNOWN_CATEGORY);
  });

  it("cannot see or change anyone else's membership", async () => {
    const { id } = await join(member, (await createPlan()).slug);
    const stranger = await createCustomer(t.db);
    expect(await as(stranger).subscriptions.mine()).toEqual([]);
    // Each attempt starts only when the one before has failed, so none is left unhandled meanwhile.
    for (const attempt of [
      () => as(stranger).subscriptions.skipNext({ id }),
      () => as(stranger).subscriptions.pause({ id, cycles: 1 }),
      () => as(stranger).subscriptions.cancel({ id }),
      () => as(stranger).subscriptions.keep({ id }),
      () => as(stranger).subscriptions.changeChoices({ id, size: 'S', categoryIds: [cars] }),
    ]) {
      expect(await trpcFailure(attempt())).toEqual({ code: 'NOT_FOUND', message: messages.SUBSCRIPTION_NOT_FOUND });
    }
    expect((await as(member).subscriptions.mine())[0]).toMatchObject({ status: 'active', skip_next: false, cancel_at: null, size: 'L' });
  });
});
