import type { SubscriptionStatus } from '../../shared/constants';
import { formatCalendarDay } from '../../shared/dates';

// A membership's schedule and choices in words, wherever a membership is shown.

interface Schedule {
  status: SubscriptionStatus;
  next_cycle_on: string;
  skip_next: boolean;
  paused_until: string | null;
  cancel_at: string | null;
}

/**
 * "Mar 31, 2027", "Mar 31, 2027 (skipped)", "Resumes Apr 30, 2027", `untilResumed` for a pause
 * with no end, or a dash when nothing more ships (cancelled, or ending with its paid period).
 */
export function nextShipmentText(membership: Schedule, untilResumed: string): string {
  if (membership.status === 'paused')
    return membership.paused_until ? `Resumes ${formatCalendarDay(membership.paused_until)}` : untilResumed;
  if (membership.status === 'cancelled' || membership.cancel_at !== null) return '—';
  return `${formatCalendarDay(membership.next_cycle_on)}${membership.skip_next ? ' (skipped)' : ''}`;
}

/** Cancelled for the end of its paid period, which has not come yet: the member (or an admin for them) can still keep it. */
export const setToEnd = (membership: { status: SubscriptionStatus | 'incomplete'; cancel_at: string | null }): boolean =>
  membership.status !== 'cancelled' && membership.status !== 'incomplete' && membership.cancel_at !== null;

/** The categories a member's shirts come from; none chosen (or a plan without a limit) is every category. */
export const chosenCategoriesText = (membership: { category_names: string[] }): string =>
  membership.category_names.length === 0 ? 'All categories' : membership.category_names.join(', ');
