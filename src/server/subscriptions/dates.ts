import type { BillingInterval } from '../../shared/constants';

// The calendar of a subscription. Days are 'YYYY-MM-DD' strings in UTC: a cycle starts on a day,
// not at an instant, and the store's day turns over at midnight UTC.

/** Where the time comes from: the system clock in the app, a movable one in tests. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Today's date by the clock, 'YYYY-MM-DD' (UTC). */
export const today = (clock: Clock): string => clock.now().toISOString().slice(0, 10);

export const MONTHS_PER_CYCLE: Record<BillingInterval, number> = { monthly: 1, quarterly: 3, yearly: 12 };

const daysInMonth = (year: number, monthIndex: number) => new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();

function parseDay(day: string): { year: number; monthIndex: number; date: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new Error(`Not a calendar day: ${day}`);
  return { year: Number(match[1]), monthIndex: Number(match[2]) - 1, date: Number(match[3]) };
}

const formatDay = (year: number, monthIndex: number, date: number) =>
  `${String(year).padStart(4, '0')}-${String(monthIndex + 1).padStart(2, '0')}-${String(date).padStart(2, '0')}`;

/**
 * The start of the cycle `cycles` intervals after `day`, on the member's `anchorDay` of the month
 * or the month's last day when it is shorter: Jan 31 → Feb 28 → Mar 31.
 */
export function addCycles(day: string, interval: BillingInterval, cycles: number, anchorDay: number): string {
  const { year, monthIndex } = parseDay(day);
  const months = monthIndex + MONTHS_PER_CYCLE[interval] * cycles;
  const targetYear = year + Math.floor(months / 12);
  const targetMonth = ((months % 12) + 12) % 12;
  return formatDay(targetYear, targetMonth, Math.min(anchorDay, daysInMonth(targetYear, targetMonth)));
}

/** The day `days` after `day` (before it when negative). */
export function addDays(day: string, days: number): string {
  const { year, monthIndex, date } = parseDay(day);
  return new Date(Date.UTC(year, monthIndex, date + days)).toISOString().slice(0, 10);
}

/** Days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const start = parseDay(from);
  const end = parseDay(to);
  return Math.round((Date.UTC(end.year, end.monthIndex, end.date) - Date.UTC(start.year, start.monthIndex, start.date)) / 86_400_000);
}

/** The day of the month a cycle falls on. */
export const dayOfMonth = (day: string): number => parseDay(day).date;
