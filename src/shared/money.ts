// Money arrives from the server as fixed two-decimal strings ("24.99"); the store shows USD with two decimals.

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  // No sign on values that round to zero, so a total never shows as "-$0.00".
  signDisplay: 'negative',
});

/** Parses a money value; blank or non-numeric input counts as 0. */
export function toAmount(value: string | number): number {
  if (typeof value === 'string' && value.trim() === '') return 0;
  const amount = typeof value === 'number' ? value : Number(value.trim());
  return Number.isFinite(amount) ? amount : 0;
}

/** "$24.99" from "24.99" or 24.99; thousands get separators ("$1,250.00"). */
export function formatMoney(value: string | number): string {
  return usd.format(toAmount(value));
}

/** Whole cents of a money value ("24.99" -> 2499), so sums and products are exact. */
export function toCents(value: string | number): number {
  return Math.round(toAmount(value) * 100);
}

/** The two-decimal string the database stores ("24.99") from whole cents. */
export function centsToAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}
