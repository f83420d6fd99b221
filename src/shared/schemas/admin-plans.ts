import { z } from 'zod';
import { BILLING_INTERVALS, type BillingInterval } from '../constants';
import { SLUG_PATTERN } from '../slug';
import { changedElsewhereInForm, INVALID_SLUG, requiredLine, requiredText } from './fields';

// Subscription plan modal and procedures (docs/PRODUCT.md § Validation, Messages and Limits).

export const PLAN_SLUG_TAKEN = 'A plan with this slug already exists';
export const PLAN_NOT_FOUND = 'Plan not found';
export const PLAN_HAS_MEMBERS = 'This plan has members, so it cannot be deleted. Deactivate it instead.';
export const PLAN_CHANGED_ELSEWHERE = changedElsewhereInForm('plan');
const MAX_PRICE = 99_999_999.99; // numeric(10, 2)

/** docs/PRODUCT.md § Validation: the slug is lowercased with spaces turned into hyphens on save. */
const normalizePlanSlug = (slug: string) => slug.trim().toLowerCase().replace(/\s+/g, '-');

const hasAtMostTwoDecimals = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

export const planInput = z.object({
  name: requiredLine('Name', 100),
  slug: requiredText('Slug', 100)
    .transform(normalizePlanSlug)
    // What is left after lowercasing and hyphenating must be a plain slug; anything else is refused, not guessed at.
    .pipe(z.string().regex(SLUG_PATTERN, { error: INVALID_SLUG })),
  description: z.string().trim().max(2000, { error: 'Description must be at most 2000 characters' }).default(''),
  price: z
    .number({ error: 'Price is required' })
    .min(0, { error: 'Price must be 0 or more' })
    .max(MAX_PRICE, { error: 'Price is too large' })
    .refine(hasAtMostTwoDecimals, { error: 'Price can have at most 2 decimal places' }),
  billing_interval: z.enum(BILLING_INTERVALS, { error: 'Choose a billing interval' }),
  category_limit: z
    .number({ error: 'Category limit is required' })
    .int({ error: 'Category limit must be a whole number' })
    .min(0, { error: 'Category limit must be 0 or more' })
    .max(1000, { error: 'Category limit is too large' }),
  is_active: z.boolean(),
  /** Trimmed; blank lines are dropped (docs/PRODUCT.md § Validation: features are trimmed and non-empty). */
  features: z
    .array(z.string().max(200, { error: 'A feature must be at most 200 characters' }), { error: 'Features must be a list' })
    .max(50, { error: 'A plan can have at most 50 features' })
    .transform((features) => features.map((feature) => feature.trim()).filter((feature) => feature !== '')),
});
export type PlanInput = z.input<typeof planInput>;

export const planIdInput = z.object({ id: z.uuid({ error: PLAN_NOT_FOUND }) });
/** With the plan's updated_at as the form loaded it: a plan changed since is not written over. */
export const planUpdateInput = planInput.extend({ ...planIdInput.shape, updatedAt: z.string().min(1).max(64) });
export const planSetActiveInput = planIdInput.extend({ is_active: z.boolean() });

/** A new plan starts monthly, limited to 1 category, active (docs/PRODUCT.md § Limits). */
export const NEW_PLAN_DEFAULTS: PlanInput = {
  name: '',
  slug: '',
  description: '',
  price: Number.NaN,
  billing_interval: 'monthly',
  category_limit: 1,
  is_active: true,
  features: [],
};

/** The admin's interval labels (docs/PRODUCT.md § Limits): mo, qtr, yr. */
export const ADMIN_INTERVAL_LABELS: Record<BillingInterval, string> = { monthly: 'mo', quarterly: 'qtr', yearly: 'yr' };

export const planSaveError = (message: string) => `Error saving plan: ${message}`;
export const planDeleteError = (message: string) => `Error deleting plan: ${message}`;
