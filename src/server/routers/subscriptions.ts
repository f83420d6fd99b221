import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  cancelInput,
  changeChoicesInput,
  joinInput,
  pauseInput,
  PLAN_UNAVAILABLE,
  subscriptionIdInput,
} from '../../shared/schemas/subscriptions';
import { cancelAtPeriodEnd, changeChoices, joinPlan, keepMembership, pause, resume, skipNext } from '../subscriptions/membership';
import { chosenCategoryNames, MEMBERSHIP_COLUMNS } from '../subscriptions/queries';
import type { RenewalServices } from '../subscriptions/renewal';
import { customerProcedure, emailsTheCaller, publicProcedure, rateLimited, router, type Context } from '../trpc/init';

// The subscription club: the plans, joining one, and the member's own memberships.

const PLAN_COLUMNS = ['id', 'name', 'slug', 'description', 'price', 'billing_interval', 'category_limit', 'features'] as const;

/** What the club's code needs from a request's context (the renewal engine gets the same from server.ts). */
export const membershipServices = (ctx: Context): RenewalServices => ({
  db: ctx.db,
  mail: ctx.config,
  clock: ctx.clock,
  log: ctx.log,
  billing: ctx.payments.subscriptions,
  dunning: ctx.config,
});
const member = (ctx: Context & { session: { user: { id: string; email: string } } }) => ctx.session.user;

/** A member's own change: each one emails the account's address, so a flood of them is refused. */
const membershipChange = customerProcedure.use(rateLimited('membership')).use(emailsTheCaller);

export const subscriptionsRouter = router({
  /** Active plans, cheapest first (docs/PRODUCT.md § Reads and writes). */
  plans: publicProcedure.query(({ ctx }) =>
    ctx.db.selectFrom('subscription_plans').select(PLAN_COLUMNS).where('is_active', '=', true).orderBy('price').orderBy('name').execute(),
  ),

  /** What the join page asks about: the plan and, when it limits them, the categories to choose from. */
  joinOptions: publicProcedure.input(z.object({ slug: z.string().trim().max(120) })).query(async ({ ctx, input }) => {
    const plan = await ctx.db
      .selectFrom('subscription_plans')
      .select(PLAN_COLUMNS)
      .where('slug', '=', input.slug)
      .where('is_active', '=', true)
      .executeTakeFirst();
    if (!plan) throw new TRPCError({ code: 'NOT_FOUND', message: PLAN_UNAVAILABLE });
    const categories = await ctx.db
      .selectFrom('categories')
      .select(['id', 'name'])
      .where('is_active', '=', true)
      .orderBy('sort_order')
      .execute();
    return { plan, categories, paymentProvider: ctx.payments.name };
  }),

  /** Starts a membership: paid by hand, its first cycle's order is made at once; by card, the member goes to Stripe Checkout. */
  join: customerProcedure
    .use(rateLimited('order'))
    .use(emailsTheCaller)
    .input(joinInput)
    .mutation(({ ctx, input }) => joinPlan(membershipServices(ctx), member(ctx), input, ctx.config.publicUrl)),

  /** The member's memberships, live ones first, each with its plan, chosen categories and past cycles' orders. */
  mine: customerProcedure.query(async ({ ctx }) => {
    const rows = await ctx.db
      .selectFrom('subscriptions')
      .innerJoin('subscription_plans', 'subscription_plans.id', 'subscriptions.plan_id')
      .select([
        ...MEMBERSHIP_COLUMNS,
        'subscriptions.category_ids',
        'subscriptions.cancelled_at',
        'subscriptions.checkout_url',
        'subscriptions.unpaid_invoice_url',
        'subscription_plans.name as plan_name',
        'subscription_plans.slug as plan_slug',
        'subscription_plans.category_limit',
      ])
      .select(chosenCategoryNames)
      .where('subscriptions.customer_id', '=', ctx.session.user.id)
      .orderBy(sql`subscriptions.status = 'cancelled'`)
      .orderBy('subscriptions.created_at', 'desc')
      .execute();
    const orders = await ctx.db
      .selectFrom('orders')
      .select([
        'orders.subscription_id',
        'orders.order_number',
        'orders.created_at',
        'orders.status',
        'orders.payment_status',
        'orders.total',
      ])
      .where('orders.customer_id', '=', ctx.session.user.id)
      .where('orders.subscription_id', 'is not', null)
      .orderBy('orders.created_at', 'desc')
      .execute();
    return rows.map((row) => ({
      ...row,
      category_names: row.category_names ?? [],
      orders: orders.filter((order) => order.subscription_id === row.id).map(({ subscription_id: _id, ...order }) => order),
    }));
  }),

  changeChoices: membershipChange
    .input(changeChoicesInput)
    .mutation(({ ctx, input }) => changeChoices(membershipServices(ctx), member(ctx), input)),
  skipNext: membershipChange
    .input(subscriptionIdInput)
    .mutation(({ ctx, input }) => skipNext(membershipServices(ctx), member(ctx), input.id)),
  pause: membershipChange.input(pauseInput).mutation(({ ctx, input }) => pause(membershipServices(ctx), member(ctx), input)),
  resume: membershipChange.input(subscriptionIdInput).mutation(({ ctx, input }) => resume(membershipServices(ctx), member(ctx), input.id)),
  cancel: membershipChange.input(cancelInput).mutation(({ ctx, input }) => cancelAtPeriodEnd(membershipServices(ctx), member(ctx), input)),
  /** Takes back a cancellation at the end of the paid period, before that day. */
  keep: membershipChange
    .input(subscriptionIdInput)
    .mutation(({ ctx, input }) => keepMembership(membershipServices(ctx), member(ctx), input.id)),
});
