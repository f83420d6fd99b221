import { z } from 'zod';
import { formatMoney } from '../money';
import { changedElsewhereInForm } from './fields';
import { discountCodeInput } from './discounts';

// The admin Discounts screen (docs/adr/0031-discount-rules-and-rounding.md): the list's search and
// status filter, and the form that creates and edits a code, shared by the procedures and the screen.

export const DISCOUNTS_PAGE_SIZE = 20;

export const DISCOUNT_KINDS = ['percent', 'amount', 'free_shipping'] as const;
export const DISCOUNT_TARGETS = ['order', 'categories', 'products'] as const;
/** A code's state now: switched off, past its end, out of uses, before its start, or usable. */
export const DISCOUNT_STATUSES = ['active', 'scheduled', 'expired', 'used_up', 'off'] as const;
export type DiscountStatus = (typeof DISCOUNT_STATUSES)[number];
export const DISCOUNT_FILTERS = ['all', ...DISCOUNT_STATUSES] as const;
export type DiscountFilter = (typeof DISCOUNT_FILTERS)[number];

export const DISCOUNT_STATUS_LABELS: Record<DiscountStatus, string> = {
  active: 'Active',
  scheduled: 'Scheduled',
  expired: 'Expired',
  used_up: 'Used up',
  off: 'Off',
};

export const DISCOUNT_SAVE_FAILED = 'Failed to save discount code. Please try again.';
export const DISCOUNT_CODE_TAKEN = 'Another discount already has this code';
export const DISCOUNT_CHANGED_ELSEWHERE = changedElsewhereInForm('discount code');
export const DISCOUNT_NOT_FOUND = 'Discount code not found';
export const PERCENT_RANGE = 'Percentage must be a whole number from 1 to 100';
export const AMOUNT_POSITIVE = 'Amount must be more than $0.00';
export const NEGATIVE_AMOUNT = 'Amount must not be negative';
export const MIN_SUBTOTAL_NEGATIVE = 'Minimum subtotal must not be negative';
export const END_BEFORE_START = 'The end must not be before the start';
export const USAGE_LIMIT_RANGE = 'Usage limit must be a whole number of 1 or more';
export const CLUB_CYCLES_RANGE = 'Cycles must be a whole number of 1 or more';
export const CHOOSE_CATEGORIES = 'Choose at least one category';
export const CHOOSE_PRODUCTS = 'Choose at least one product';
const WHOLE_CENTS = 'Amounts are in whole cents';
const INVALID_DAY = 'Enter a date';

const wholeCents = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
/** A number box left empty: null (the form's NumberField sends null for an empty optional box). */
const optionalNumber = z.number().nullable();
/** A calendar day (UTC) from a date input, or nothing. */
const optionalDay = z.union([z.literal(''), z.iso.date({ error: INVALID_DAY })]).nullable();

/**
 * A code as the form edits it. Amounts are in dollars; the days are calendar days (UTC): a code
 * starts at the start of its first day and ends after its last.
 */
const discountFields = z.object({
  code: discountCodeInput,
  kind: z.enum(DISCOUNT_KINDS),
  percent: optionalNumber,
  amount: optionalNumber,
  applies_to: z.enum(DISCOUNT_TARGETS),
  category_ids: z.array(z.uuid()).max(200),
  product_ids: z.array(z.uuid()).max(500),
  min_subtotal: optionalNumber,
  starts_on: optionalDay,
  ends_on: optionalDay,
  usage_limit: optionalNumber,
  once_per_customer: z.boolean(),
  applies_to_club: z.boolean(),
  club_cycles: optionalNumber,
});

/** The rules across fields: what the kind needs, the end after the start, the chosen targets. */
function checkDiscount(value: z.output<typeof discountFields>, context: z.RefinementCtx) {
  const refuse = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
  if (value.kind === 'percent') {
    const percent = value.percent;
    if (percent === null || !Number.isInteger(percent) || percent < 1 || percent > 100) refuse('percent', PERCENT_RANGE);
  }
  if (value.kind === 'amount') {
    const amount = value.amount;
    if (amount === null || Number.isNaN(amount)) refuse('amount', AMOUNT_POSITIVE);
    else if (amount < 0) refuse('amount', NEGATIVE_AMOUNT);
    else if (amount === 0 || amount > 100_000) refuse('amount', AMOUNT_POSITIVE);
    else if (!wholeCents(amount)) refuse('amount', WHOLE_CENTS);
  }
  const minimum = value.min_subtotal;
  if (minimum !== null && (Number.isNaN(minimum) || minimum < 0 || minimum > 100_000)) refuse('min_subtotal', MIN_SUBTOTAL_NEGATIVE);
  else if (minimum !== null && !wholeCents(minimum)) refuse('min_subtotal', WHOLE_CENTS);
  if (value.starts_on && value.ends_on && value.ends_on < value.starts_on) refuse('ends_on', END_BEFORE_START);
  const limit = value.usage_limit;
  if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000)) refuse('usage_limit', USAGE_LIMIT_RANGE);
  const cycles = value.club_cycles;
  if (value.applies_to_club && (cycles === null || !Number.isInteger(cycles) || cycles < 1 || cycles > 120)) {
    refuse('club_cycles', CLUB_CYCLES_RANGE);
  }
  if (value.applies_to === 'categories' && value.category_ids.length === 0) refuse('category_ids', CHOOSE_CATEGORIES);
  if (value.applies_to === 'products' && value.product_ids.length === 0) refuse('product_ids', CHOOSE_PRODUCTS);
}

export const discountInput = discountFields.superRefine(checkDiscount);
export type DiscountInput = z.input<typeof discountInput>;

export const discountIdInput = z.object({ id: z.uuid({ error: DISCOUNT_NOT_FOUND }) });

/** With the code's updated_at as the form loaded it: a code changed since is not written over. */
export const discountUpdateInput = discountFields
  .extend({ ...discountIdInput.shape, updatedAt: z.string().min(1).max(64) })
  .superRefine(checkDiscount);

/** Switches a code on or off; a code switched off is refused at checkout as not valid. */
export const discountSetActiveInput = discountIdInput.extend({ is_active: z.boolean() });

/** The list's search text, status and page; also the page's URL search params. */
export const discountsListInput = z.object({
  search: z.string().trim().max(200).optional(),
  status: z.enum(DISCOUNT_FILTERS, { error: 'Invalid status' }).default('all'),
  page: z.int({ error: 'Invalid page' }).min(1, { error: 'Invalid page' }).max(100_000, { error: 'Invalid page' }).default(1),
});

/** "20 % off", "$5.00 off", "Free shipping": what a code gives, in a list's words. */
export function discountOffer(code: { kind: (typeof DISCOUNT_KINDS)[number]; value: number | null }): string {
  if (code.kind === 'percent') return `${code.value ?? 0} % off`;
  if (code.kind === 'amount') return `${formatMoney((code.value ?? 0) / 100)} off`;
  return 'Free shipping';
}
