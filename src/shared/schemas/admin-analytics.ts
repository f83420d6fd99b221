import { z } from 'zod';
import { RANGE_VALUES, type RangePreset } from '../analytics-ranges';

// Admin → Analytics: the ranges its picker offers, the store's time zone setting, and the pure
// arithmetic client and server share (docs/PRODUCT.md § Analytics; ADR 0033 for the definitions).

/** Longest custom range: two years of days keeps every answer small. */
export const MAX_RANGE_DAYS = 731;
/** Ranges longer than this are charted by week. */
export const WEEKLY_AFTER_DAYS = 90;

export const RANGE_DATES_REQUIRED = 'Choose both dates';
export const RANGE_ORDER = 'The start date must be on or before the end date';
export const RANGE_TOO_LONG = `Choose at most ${MAX_RANGE_DAYS} days`;

const calendarDay = z.iso.date({ error: 'Enter a date as YYYY-MM-DD' });

export const analyticsInput = z
  .object({
    range: z.enum(RANGE_VALUES as [RangePreset, ...RangePreset[]]),
    from: calendarDay.optional(),
    to: calendarDay.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.range !== 'custom') return;
    if (!input.from || !input.to) ctx.addIssue({ code: 'custom', message: RANGE_DATES_REQUIRED, path: ['from'] });
    else if (input.from > input.to) ctx.addIssue({ code: 'custom', message: RANGE_ORDER, path: ['from'] });
    else if (daysBetween(input.from, input.to) + 1 > MAX_RANGE_DAYS)
      ctx.addIssue({ code: 'custom', message: RANGE_TOO_LONG, path: ['to'] });
  });
export type AnalyticsInput = z.input<typeof analyticsInput>;

// ---- The store's time zone

export const TIME_ZONE_SAVED = 'Time zone saved';
export const UNKNOWN_TIME_ZONE = 'Choose a time zone from the list';

/** Every zone this runtime knows (the IANA list), UTC first. */
export const timeZones = (): string[] => ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

export const timeZoneInput = z.object({
  time_zone: z.string().refine((zone) => timeZones().includes(zone), { error: UNKNOWN_TIME_ZONE }),
});

// ---- Calendar days ('YYYY-MM-DD', no zone)

const dayMs = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / dayMs;
export const addDays = (day: string, days: number) => new Date((dayNumber(day) + days) * dayMs).toISOString().slice(0, 10);
export const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from);

/** Today in a time zone, as a calendar day. */
export const todayIn = (now: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

export interface DayRange {
  from: string;
  to: string;
}

/** The range a preset names on `today`, and the range of the same length just before it. */
export function resolveRange(input: z.output<typeof analyticsInput>, today: string): { current: DayRange; previous: DayRange } {
  const lastDays = (days: number) => ({ from: addDays(today, 1 - days), to: today });
  const current: DayRange =
    input.range === 'custom' && input.from && input.to
      ? { from: input.from, to: input.to }
      : input.range === 'today'
        ? lastDays(1)
        : input.range === '7d'
          ? lastDays(7)
          : input.range === '90d'
            ? lastDays(90)
            : input.range === 'year'
              ? { from: `${today.slice(0, 4)}-01-01`, to: today }
              : lastDays(30);
  const length = daysBetween(current.from, current.to) + 1;
  return { current, previous: { from: addDays(current.from, -length), to: addDays(current.from, -1) } };
}

/** Change against the previous period in %, one decimal; null when there was nothing before to compare with. */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / Math.abs(previous)) * 1000) / 10;
}

/** "+12.5%", "-3.0%", or "—" with no previous figure. */
export const formatChange = (change: number | null) => (change === null ? '—' : `${change > 0 ? '+' : ''}${change.toFixed(1)}%`);

/** One day's figures: money as fixed two-decimal strings, as they leave the database. */
export interface DayFigures {
  day: string;
  orders: number;
  sales: string;
  refunds: string;
  net: string;
}

export interface ChartPoint {
  /** The first day of the point (a week starts on its first day in the range). */
  day: string;
  orders: number;
  net: number;
}

/** Days as chart points: one per day, or per 7 days counted from the range's start for long ranges. */
export function chartPoints(days: readonly DayFigures[]): ChartPoint[] {
  const step = days.length > WEEKLY_AFTER_DAYS ? 7 : 1;
  const points: ChartPoint[] = [];
  for (let i = 0; i < days.length; i += step) {
    const slice = days.slice(i, i + step);
    // Cents as integers, so sums of money stay exact.
    const cents = slice.reduce((sum, day) => sum + Math.round(Number(day.net) * 100), 0);
    points.push({ day: slice[0]!.day, orders: slice.reduce((sum, day) => sum + day.orders, 0), net: cents / 100 });
  }
  return points;
}

export const DAILY_CSV_HEADER = ['Day', 'Orders', 'Sales', 'Refunds', 'Net sales'] as const;
export const dailyCsvRows = (days: readonly DayFigures[]) =>
  days.map((day) => [day.day, String(day.orders), day.sales, day.refunds, day.net]);

/** Help text of each card: the definitions ADR 0033 writes down. */
export const CARD_HELP = {
  totalSales: 'Paid orders’ totals (shipping and tax included, discounts taken off) less refunds, by the day paid and the day refunded.',
  orders: 'Orders paid in the range (a later refund does not remove the order).',
  averageOrderValue: 'Total sales ÷ paid orders.',
  returningCustomerRate: 'Customers with a paid order in the range who had one before it ÷ customers with a paid order in the range.',
  discountsGiven: 'Discount codes’ amounts taken off the orders paid in the range (a later refund does not remove them), by the day paid.',
  mrr: 'What members live at the end of the range pay, each price brought to a month.',
  activeMembers: 'Memberships live at the end of the range (joined, not yet ended).',
  churn: 'Memberships ended in the range ÷ memberships live when it began.',
} as const;
