import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../shared/constants';
import { SUBSCRIBERS_PAGE_SIZE, subscriberGetInput, subscribersListInput } from '../../../shared/schemas/admin-subscribers';
import { cancelInput, pauseInput, subscriptionIdInput } from '../../../shared/schemas/subscriptions';
import { countRows } from '../../db/count';
import type { Db } from '../../db/database';
import { cancelAtPeriodEnd, keepMembership, pause } from '../../subscriptions/membership';
import { chosenCategoryNames, MEMBERSHIP_COLUMNS } from '../../subscriptions/queries';
import { assertFound, containsPattern } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';
import { membershipServices } from '../subscriptions';
import { readPage } from '../../trpc/paging';

// The Subscribers screen: the club's members, server-paged newest first with a search
// by email and plan and status filters; one member with their cycles; and pause, cancel or keep
// on the member's behalf, through the very functions the member's own page calls (same rules,
// same emails).

const MEMBER_COLUMNS = [
  ...MEMBERSHIP_COLUMNS,
  'customers.email as customer_email',
  'customers.first_name as customer_first_name',
  'customers.last_name as customer_last_name',
  'subscription_plans.name as plan_name',
] as const;

/** Memberships with their customer and plan; a card join still waiting for its payment is no member yet. */
const members = (db: Db) =>
  db
    .selectFrom('subscriptions')
    .innerJoin('customers', 'customers.id', 'subscriptions.customer_id')
    .innerJoin('subscription_plans', 'subscription_plans.id', 'subscriptions.plan_id')
    .where('subscriptions.status', 'in', SUBSCRIPTION_STATUSES);

/** The status of a row from members(): one of a member's, as its where clause keeps only those. */
type MemberStatus = { status: SubscriptionStatus };

async function getMember(db: Db, id: string) {
  const member = assertFound(
    await members(db)
      .select([
        ...MEMBER_COLUMNS,
        'subscriptions.shipping_address',
        'subscriptions.payment_provider',
        'subscriptions.cancel_reason',
        'subscriptions.cancelled_at',
        'subscription_plans.category_limit',
      ])
      .select(chosenCategoryNames)
      .$narrowType<MemberStatus>()
      .where('subscriptions.id', '=', id)
      .executeTakeFirst(),
    'Subscription',
  );
  const cycles = await db
    .selectFrom('subscription_cycles')
    .leftJoin('orders', 'orders.id', 'subscription_cycles.order_id')
    .select([
      'subscription_cycles.cycle_start',
      'subscription_cycles.outcome',
      'orders.id as order_id',
      'orders.order_number',
      'orders.payment_status',
    ])
    .where('subscription_cycles.subscription_id', '=', id)
    .orderBy('subscription_cycles.cycle_start', 'desc')
    .execute();
  return { ...member, category_names: member.category_names ?? [], cycles };
}

/** The member a subscription belongs to: the membership functions act for them. */
async function memberOf(db: Db, id: string) {
  return assertFound(
    await members(db).select(['customers.id', 'customers.email']).where('subscriptions.id', '=', id).executeTakeFirst(),
    'Subscription',
  );
}

export const adminSubscribersRouter = router({
  /** One page of members, newest first, optionally searched by email and filtered by plan and status. */
  list: adminProcedure.input(subscribersListInput).query(async ({ ctx, input }) => {
    let filtered = members(ctx.db);
    if (input.search) filtered = filtered.where('customers.email', 'ilike', containsPattern(input.search));
    if (input.planId) filtered = filtered.where('subscriptions.plan_id', '=', input.planId);
    if (input.status !== 'all') filtered = filtered.where('subscriptions.status', '=', input.status);
    return readPage(await countRows(filtered), input.page, SUBSCRIBERS_PAGE_SIZE, () =>
      filtered
        .select(MEMBER_COLUMNS)
        .$narrowType<MemberStatus>()
        .orderBy('subscriptions.created_at', 'desc')
        .orderBy('subscriptions.id', 'desc'),
    );
  }),

  /** One member with their plan, chosen categories, address and cycles (newest first, with each cycle's order). */
  get: adminProcedure.input(subscriberGetInput).query(({ ctx, input }) => getMember(ctx.db, input.id)),

  /** Pauses for 1 to 3 cycles or until resumed, for the member; they get the same email as when they do it. */
  pause: adminProcedure.input(pauseInput).mutation(async ({ ctx, input }) => {
    await pause(membershipServices(ctx), await memberOf(ctx.db, input.id), input);
    return getMember(ctx.db, input.id);
  }),

  /** Cancels at the end of the paid period (at once while paused), for the member, with an optional reason. */
  cancel: adminProcedure.input(cancelInput).mutation(async ({ ctx, input }) => {
    await cancelAtPeriodEnd(membershipServices(ctx), await memberOf(ctx.db, input.id), input);
    return getMember(ctx.db, input.id);
  }),

  /** Takes back a cancellation at the end of the paid period before that day, for the member (asked by phone, say). */
  keep: adminProcedure.input(subscriptionIdInput).mutation(async ({ ctx, input }) => {
    await keepMembership(membershipServices(ctx), await memberOf(ctx.db, input.id), input.id);
    return getMember(ctx.db, input.id);
  }),
});
