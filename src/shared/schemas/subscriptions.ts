import { z } from 'zod';
import { BILLING_INTERVALS, COLOUR_CHOICE_LABELS, COLOUR_CHOICES, SIZES, type ColourChoice } from '../constants';
import { INVALID_REQUEST, shippingInput, shownAmount } from './checkout';

// The subscription club: joining a plan and what a member can change, with the messages shown.

export const PLAN_UNAVAILABLE = 'This plan is not available';
export const SUBSCRIPTION_NOT_FOUND = 'Subscription not found';
export const ALREADY_MEMBER = 'You already have a subscription to this plan';
export const UNKNOWN_CATEGORY = 'Choose from the listed categories';
export const CHOOSE_A_CATEGORY = 'Choose at least one category';
export const tooManyCategories = (limit: number) => `Choose at most ${limit} ${limit === 1 ? 'category' : 'categories'}`;
export const CHOOSE_A_SIZE = 'Choose a shirt size';
export const PLAN_CHANGED = 'This plan changed while you were joining. Please check its price and try again.';
export const JOIN_PAID = 'You have paid for this plan already. Your membership starts as soon as the payment is confirmed.';
export const CHOOSE_COLOURS = 'Choose which shirt colours you accept';
export const noShirtsInSize = (size: string, colours: ColourChoice = 'any') =>
  colours === 'any'
    ? `We have no shirts in size ${size} in the chosen categories yet. Please choose another size or other categories.`
    : `We have no shirts in size ${size} in ${COLOUR_CHOICE_LABELS[colours].toLowerCase()} in the chosen categories yet. Please choose another size, other colours or other categories.`;

const size = z.enum(SIZES, { error: CHOOSE_A_SIZE });
/** Any colour, light colours only or dark ones only (light: relative luminance, src/shared/colours.ts). */
const colourChoice = z.enum(COLOUR_CHOICES, { error: CHOOSE_COLOURS });
const categoryIds = z.array(z.uuid({ error: UNKNOWN_CATEGORY }), { error: UNKNOWN_CATEGORY }).max(50, { error: UNKNOWN_CATEGORY });

export const joinInput = z.object({
  planSlug: z.string().trim().min(1, { error: PLAN_UNAVAILABLE }).max(120, { error: PLAN_UNAVAILABLE }),
  size,
  colourChoice: colourChoice.default('any'),
  categoryIds: categoryIds.default([]),
  shipping: shippingInput,
  /**
   * The price and interval the member was shown: a plan changed meanwhile is refused rather than
   * joined on terms never shown.
   */
  expectedTerms: z
    .object(
      {
        price: shownAmount,
        billingInterval: z.enum(BILLING_INTERVALS, { error: INVALID_REQUEST }),
      },
      { error: INVALID_REQUEST },
    )
    .optional(),
});
export type JoinInput = z.input<typeof joinInput>;

export const subscriptionIdInput = z.object({ id: z.uuid({ error: SUBSCRIPTION_NOT_FOUND }) });

export const changeChoicesInput = subscriptionIdInput.extend({ size, colourChoice: colourChoice.default('any'), categoryIds });

/** Pause for 1, 2 or 3 cycles, or until resumed (null). */
export const PAUSE_CYCLES = [1, 2, 3] as const;
export const pauseInput = subscriptionIdInput.extend({
  cycles: z.union([z.literal(1), z.literal(2), z.literal(3), z.null()], { error: 'Choose how long to pause' }),
});

export const cancelInput = subscriptionIdInput.extend({
  reason: z.string().trim().max(500, { error: 'The reason must be at most 500 characters' }).default(''),
});
