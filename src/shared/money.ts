// Money arrives from the server as fixed two-decimal strings ("24.99"); the store shows USD with two decimals.

/** Parses a money value; blank or non-numeric input counts as 0. */
export function toAmount(value: string | number): number {
  if (typeof value === 'string' && value.trim() === '') return 0;
  const amount = typeof value === 'number' ? value : Number(value.trim());
  return Number.isFinite(amount) ? amount : 0;
}

/**
 * US dollars as en-US writes them ("$1,250.00", "-$5.00"), rounded half up on the amount's
 * shortest decimal form (1.005 -> "$1.01"), as Intl.NumberFormat does for any amount below 10^13
 * dollars (past that, cents pass 2^53 and lose precision: no store sells that much). Written out because the
 * first Intl.NumberFormat a page builds costs Chromium 30-60 ms (100-250 ms on a phone) loading
 * its locale data, in the middle of the storefront's start-up. No sign on values that round to
 * zero, so a total never shows as "-$0.00".
 */
export function formatUsd(value: string | number, fractionDigits: 0 | 2): string {
  const amount = toAmount(value);
  const scale = 10 ** fractionDigits;
  const decimal = String(Math.abs(amount));
  // "1.005e2" is 100.5 exactly, where 1.005 * 100 is 100.49999999999999.
  const units = decimal.includes('e') ? Math.round(Math.abs(amount) * scale) : Math.round(Number(`${decimal}e${fractionDigits}`));
  const whole = String(Math.floor(units / scale)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = fractionDigits ? `.${String(units % scale).padStart(fractionDigits, '0')}` : '';
  return `${amount < 0 && units > 0 ? '-' : ''}$${whole}${fraction}`;
}

/** "$24.99" from "24.99" or 24.99; thousands get separators ("$1,250.00"). */
export function formatMoney(value: string | number): string {
  return formatUsd(value, 2);
}

/** Whole cents of a money value ("24.99" -> 2499), so sums and products are exact. */
export function toCents(value: string | number): number {
  return Math.round(toAmount(value) * 100);
}

/** The two-decimal string the database stores ("24.99") from whole cents. */
export function centsToAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}
