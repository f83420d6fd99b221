// Dates as the store shows them, in US format (docs/PRODUCT.md § Limits): "Mar 5, 2025", with time "Mar 5, 2025, 3:07 PM".

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** "Mar 5, 2025" from an ISO timestamp. */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** "Mar 5, 2025, 3:07 PM" from an ISO timestamp. */
export const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));

const calendarDayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** "Mar 31, 2027" from a calendar day ('2027-03-31'), the same in every time zone. */
export const formatCalendarDay = (day: string) => calendarDayFormat.format(new Date(`${day}T00:00:00Z`));
