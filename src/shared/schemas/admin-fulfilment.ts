import { z } from 'zod';
import { FULFILMENT_MODES } from '../constants';

// Inputs and texts of the Fulfilment settings card, the mapping of products to Printful's blanks
// and the order detail's printing buttons (docs/PRODUCT.md), shared by the procedures and screens.

export const PRINTFUL_NOT_CONFIGURED = 'Printful is not set up: set PRINTFUL_API_TOKEN and PRINTFUL_WEBHOOK_SECRET';
export const NOT_SENDABLE = 'Only paid orders that are not cancelled, and not at Printful already, can be sent';
export const NOT_A_DRAFT = 'Only an order that is a draft at Printful can be confirmed for printing';
export const NOTHING_TO_RETRY = 'This order is not waiting for a retry';
export const CANCELLED_AT_PRINTFUL = 'The order was cancelled at Printful too';
export const TOO_LATE_AT_PRINTFUL = 'Too late to cancel at Printful: the order is in production or shipped';

export const fulfilmentSettingsInput = z.object({
  mode: z.enum(FULFILMENT_MODES, { error: 'Choose automatically or after review' }),
  shippingMethod: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9_]{1,40}$/, { error: 'A Printful shipping method, such as STANDARD or EXPRESS' }),
});

export const mapProductInput = z.object({
  productId: z.uuid({ error: 'Invalid product' }),
  /** Printful's catalog product (the blank); null unlinks it. */
  catalogProductId: z
    .int({ error: 'A Printful catalog product number' })
    .positive({ error: 'A Printful catalog product number' })
    .nullable(),
});

export const mapVariantInput = z.object({
  variantId: z.uuid({ error: 'Invalid variant' }),
  catalogVariantId: z.int({ error: 'A Printful variant number' }).positive({ error: 'A Printful variant number' }).nullable(),
});
