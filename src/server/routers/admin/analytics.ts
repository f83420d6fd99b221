import { sql } from 'kysely';
import { addDays, analyticsInput, resolveRange, todayIn, type DayFigures, type DayRange } from '../../../shared/schemas/admin-analytics';
import { SUBSCRIPTION_STATUSES } from '../../../shared/constants';
import type { Db } from '../../db/database';
import { MONTHS_PER_CYCLE } from '../../subscriptions/dates';
import { adminProcedure, router } from '../../trpc/init';

// Admin → Analytics. Every figure of orders comes from the rollups the triggers of migration 0023
// keep by the store's day (sales_days, customer_sales_days, product_sales_days), never from a scan
// of the orders; the club's from the memberships, which are few. Definitions: ADR 0033.

const TOP_DESIGNS = 10;
const money = (expression: ReturnType<typeof sql>) => sql<string>`coalesce(${expression}, 0)::numeric(14, 2)::text`;

/** Each day of both periods, empty days included, oldest first. */
async function dailyFigures(db: Db, from: string, to: string): Promise<DayFigures[]> {
  const { rows } = await sql<DayFigures>`
    select d.day::date as day, coalesce(s.orders, 0)::int as orders, ${money(sql`s.sales`)} as sales,
      ${money(sql`s.refunds`)} as refunds, ${money(sql`s.sales - s.refunds`)} as net
    from generate_series(${from}::date, ${to}::date, interval '1 day') as d (day)
    left join sales_days s on s.day = d.day::date
    order by d.day`.execute(db);
  return rows;
}

/** Sums of one period, on numeric. */
async function salesTotals(db: Db, { from, to }: DayRange) {
  return db
    .selectFrom('sales_days')
    .select([
      sql<number>`coalesce(sum(orders), 0)::int`.as('orders'),
      money(sql`sum(sales - refunds)`).as('totalSales'),
      sql<string>`coalesce(round(sum(sales - refunds) / nullif(sum(orders), 0), 2), 0)::numeric(14, 2)::text`.as('averageOrderValue'),
      money(sql`sum(discounts)`).as('discountsGiven'),
    ])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .executeTakeFirstOrThrow();
}

/** Customers with a paid order in the period, and those of them who had one before it. */
async function customerCounts(db: Db, { from, to }: DayRange) {
  const { rows } = await sql<{ customers: number; returning: number }>`
    select count(*)::int as customers,
      (count(*) filter (where exists (
        select 1 from customer_sales_days before where before.customer_id = buyers.customer_id and before.day < ${from}::date
      )))::int as returning
    from (select distinct customer_id from customer_sales_days where day between ${from}::date and ${to}::date) as buyers`.execute(db);
  return rows[0]!;
}

/** Units and line revenue per design over the period, with its name and category. */
async function designFigures(db: Db, { from, to }: DayRange) {
  return db
    .selectFrom('product_sales_days as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .innerJoin('categories as c', 'c.id', 'p.category_id')
    .select([
      'p.id',
      'p.name',
      'c.name as category',
      sql<number>`sum(s.units)::int`.as('units'),
      sql<string>`sum(s.revenue)::numeric(14, 2)::text`.as('revenue'),
    ])
    .where('s.day', '>=', from)
    .where('s.day', '<=', to)
    .groupBy(['p.id', 'p.name', 'c.name'])
    .execute();
}

/**
 * The club at moments in time: live memberships (joined by then, not ended by then, never a card
 * join still waiting to be paid), their prices brought to a month, and memberships that ended
 * between a moment and the next. Status history is not kept, so a membership paused at some
 * moment counts as live then.
 */
async function clubAt(db: Db, moments: Date[]) {
  const monthsPerCycle = sql.join(
    Object.entries(MONTHS_PER_CYCLE).map(([interval, months]) => sql`when ${interval} then ${months}::int`),
    sql` `,
  );
  const { rows } = await sql<{ at: string; members: number; mrr: string }>`
    select m.at, count(s.id)::int as members,
      coalesce(sum(s.price / case s.billing_interval ${monthsPerCycle} end), 0)::numeric(14, 2)::text as mrr
    from unnest(${[...new Set(moments.map((moment) => moment.toISOString()))]}::timestamptz[]) as m (at)
    left join subscriptions s on s.status in (${sql.join(SUBSCRIPTION_STATUSES.map((status) => sql`${status}`))})
      and s.created_at <= m.at and (s.cancelled_at is null or s.cancelled_at > m.at)
    group by m.at
    order by m.at`.execute(db);
  return rows;
}

async function endedBetween(db: Db, start: Date, end: Date) {
  const row = await db
    .selectFrom('subscriptions')
    .select(sql<number>`count(*)::int`.as('ended'))
    .where('cancelled_at', '>', start.toISOString())
    .where('cancelled_at', '<=', end.toISOString())
    .executeTakeFirstOrThrow();
  return row.ended;
}

/** Midnight starting a store day, as a moment. */
async function startOfDay(db: Db, day: string, timeZone: string): Promise<Date> {
  const { rows } = await sql<{ at: string }>`select (${day}::date::timestamp at time zone ${timeZone}) as at`.execute(db);
  return new Date(rows[0]!.at);
}

const churnPercent = (ended: number, liveAtStart: number) => (liveAtStart === 0 ? '0.0' : ((100 * ended) / liveAtStart).toFixed(1));

async function club(db: Db, current: DayRange, previous: DayRange, timeZone: string, now: Date) {
  const [previousStart, currentStart, currentEndDay] = await Promise.all([
    startOfDay(db, previous.from, timeZone),
    startOfDay(db, current.from, timeZone),
    startOfDay(db, addDays(current.to, 1), timeZone),
  ]);
  const currentEnd = new Date(Math.min(currentEndDay.getTime(), now.getTime()));
  // The last 12 months' ends (the current month's: now), then the periods' edges.
  const monthEnds = await sql<{ at: string; month: string }>`
    select least(date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${timeZone}) + make_interval(months => 1 - i),
      (${now.toISOString()}::timestamptz at time zone ${timeZone})) at time zone ${timeZone} as at,
      to_char(date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${timeZone}) - make_interval(months => i), 'YYYY-MM') as month
    from generate_series(11, 0, -1) as i`.execute(db);
  const moments = [...monthEnds.rows.map((row) => new Date(row.at)), previousStart, currentStart, currentEnd];
  const at = new Map((await clubAt(db, moments)).map((row) => [new Date(row.at).getTime(), row]));
  const figures = (moment: Date) => at.get(moment.getTime())!;
  const [endedBefore, endedNow] = await Promise.all([
    endedBetween(db, previousStart, currentStart),
    endedBetween(db, currentStart, currentEnd),
  ]);
  return {
    mrrByMonth: monthEnds.rows.map((row) => ({ month: row.month, mrr: figures(new Date(row.at)).mrr })),
    current: {
      mrr: figures(currentEnd).mrr,
      activeMembers: figures(currentEnd).members,
      churnPercent: churnPercent(endedNow, figures(currentStart).members),
    },
    previous: {
      mrr: figures(currentStart).mrr,
      activeMembers: figures(currentStart).members,
      churnPercent: churnPercent(endedBefore, figures(previousStart).members),
    },
  };
}

export const adminAnalyticsRouter = router({
  /** The range's cards against the period before it, its days, the club's year and the designs' figures. */
  overview: adminProcedure.input(analyticsInput).query(async ({ ctx, input }) => {
    const { time_zone: timeZone } = await ctx.db.selectFrom('store_settings').select('time_zone').executeTakeFirstOrThrow();
    const now = ctx.clock.now();
    const { current, previous } = resolveRange(input, todayIn(now, timeZone));
    const [days, salesNow, salesBefore, customersNow, customersBefore, designs, clubFigures] = await Promise.all([
      dailyFigures(ctx.db, previous.from, current.to),
      salesTotals(ctx.db, current),
      salesTotals(ctx.db, previous),
      customerCounts(ctx.db, current),
      customerCounts(ctx.db, previous),
      designFigures(ctx.db, current),
      club(ctx.db, current, previous, timeZone, now),
    ]);
    const returningRate = (counts: { customers: number; returning: number }) =>
      counts.customers === 0 ? '0.0' : ((100 * counts.returning) / counts.customers).toFixed(1);
    const length = days.length / 2;
    const byCents = (a: string, b: string) => Math.round(Number(b) * 100) - Math.round(Number(a) * 100);
    const categories = new Map<string, number>();
    for (const design of designs)
      categories.set(design.category, (categories.get(design.category) ?? 0) + Math.round(Number(design.revenue) * 100));
    return {
      timeZone,
      current,
      previous,
      cards: {
        current: { ...salesNow, returningCustomerRate: returningRate(customersNow), ...clubFigures.current },
        previous: { ...salesBefore, returningCustomerRate: returningRate(customersBefore), ...clubFigures.previous },
      },
      days: days.slice(length),
      previousDays: days.slice(0, length),
      mrrByMonth: clubFigures.mrrByMonth,
      topByUnits: [...designs].sort((a, b) => b.units - a.units || a.name.localeCompare(b.name)).slice(0, TOP_DESIGNS),
      topByRevenue: [...designs].sort((a, b) => byCents(a.revenue, b.revenue) || a.name.localeCompare(b.name)).slice(0, TOP_DESIGNS),
      salesByCategory: [...categories]
        .map(([category, cents]) => ({ category, sales: (cents / 100).toFixed(2) }))
        .sort((a, b) => byCents(a.sales, b.sales) || a.category.localeCompare(b.category)),
    };
  }),
});
