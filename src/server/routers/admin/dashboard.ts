import { sql } from 'kysely';
import { RECENT_CONTACT_LIMIT, SUBSCRIPTION_STATUSES } from '../../../shared/constants';
import type { Db } from '../../db/database';
import { MONTHS_PER_CYCLE, today } from '../../subscriptions/dates';
import { adminProcedure, router } from '../../trpc/init';

/**
 * The subscription club's cards, by the clock's today (tests move it):
 * - active members: those being billed, active or past due (still members, their payment late);
 *   a paused member is not billed, so not counted;
 * - MRR: what those members pay, each at their own price brought to a month, summed in SQL on numeric;
 * - churn this month: memberships ended this calendar month (UTC) over those live when it began,
 *   as a percentage with one decimal ("0.0" when none were live); status history is not kept, so
 *   "live then" means joined before the month and not yet ended at its start;
 * - shipments due: cycles the renewal engine makes in the next 7 days, today's (and any it has not
 *   reached yet) included: active members, and paused ones resuming in that time (they ship on the
 *   day they resume), not skipping it, and not ending by then.
 */
async function clubFigures(db: Db, day: string) {
  const monthStart = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  const nextMonthStart = new Date(Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth() + 1, 1));
  const billed = sql`status in ('active', 'past_due')`;
  const monthsPerCycle = sql.join(
    Object.entries(MONTHS_PER_CYCLE).map(([interval, months]) => sql`when ${interval} then ${months}::int`),
    sql` `,
  );
  const counts = db
    .selectFrom('subscriptions')
    .select([
      sql<number>`(count(*) filter (where ${billed}))::int`.as('activeMembers'),
      sql<string>`coalesce(sum(price / case billing_interval ${monthsPerCycle} end) filter (where ${billed}), 0)::numeric(12, 2)::text`.as(
        'mrr',
      ),
      sql<number>`(count(*) filter (where cancelled_at >= ${monthStart} and cancelled_at < ${nextMonthStart}))::int`.as(
        'cancelledThisMonth',
      ),
      sql<number>`(count(*) filter (where created_at < ${monthStart} and (cancelled_at is null or cancelled_at >= ${monthStart})))::int`.as(
        'liveAtMonthStart',
      ),
      sql<number>`(count(*) filter (
        where (status = 'active' or (status = 'paused' and paused_until is not null))
          and not skip_next
          and next_cycle_on < ${day}::date + 7
          and (cancel_at is null or next_cycle_on < cancel_at)
      ))::int`.as('shipmentsDue'),
    ])
    // A card join still waiting for its payment is no member yet.
    .where('status', 'in', SUBSCRIPTION_STATUSES)
    .as('club');
  return db
    .selectFrom(counts)
    .select([
      'club.activeMembers',
      'club.mrr',
      'club.shipmentsDue',
      sql<string>`coalesce(round(100.0 * club."cancelledThisMonth" / nullif(club."liveAtMonthStart", 0), 1)::text, '0.0')`.as(
        'churnPercent',
      ),
    ])
    .executeTakeFirstOrThrow();
}

export const adminDashboardRouter = router({
  /** Stat cards and recent contact submissions; revenue is summed in SQL on numeric, never in floats. */
  overview: adminProcedure.query(async ({ ctx }) => {
    const [counts, club, recentContacts] = await Promise.all([
      ctx.db
        .selectNoFrom([
          sql<number>`(select count(*) from products)::int`.as('totalProducts'),
          // Orders and revenue from the counts a trigger keeps (migration 0009): no scan of every order.
          sql<number>`(select coalesce(sum(order_count), 0) from order_stats)::int`.as('totalOrders'),
          sql<number>`(select count(*) from customers)::int`.as('totalCustomers'),
          // Revenue is money received: paid orders only.
          sql<string>`(select coalesce(sum(total), 0)::numeric(12, 2)::text from order_stats where payment_status = 'paid')`.as(
            'totalRevenue',
          ),
        ])
        .executeTakeFirstOrThrow(),
      clubFigures(ctx.db, today(ctx.clock)),
      ctx.db
        .selectFrom('contact_submissions')
        .select(['id', 'name', 'email', 'subject', 'status', 'created_at'])
        .orderBy('created_at', 'desc')
        .limit(RECENT_CONTACT_LIMIT)
        .execute(),
    ]);
    return { ...counts, club, recentContacts };
  }),
});
