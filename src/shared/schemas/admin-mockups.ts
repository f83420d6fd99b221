import { z } from 'zod';
import { MAX_UPLOAD_PIXELS, MOCKUP_SIDES } from '../constants';
import { DPI_MIN } from '../placement';

// The mockup generator (docs/PRODUCT.md § Screens, States, Validation and Messages): the placement of each side and the save to product.

export const FRONT_MOCKUP_REQUIRED = 'Please generate at least a front mockup';
export const MOCKUP_SAVED = 'Mockups saved successfully! Product images have been updated.';
export const MOCKUP_SAVE_FAILED = 'Failed to save mockup. Please try again.';
const PRODUCT_NOT_FOUND = 'Product not found';
const TEMPLATE_NOT_FOUND = 'Mockup template not found';
export const DEFAULT_SIDE_MISSING = 'The default side needs a mockup';

/** How many products the generator's product list offers at once; a search finds the others. */
export const MOCKUP_PRODUCTS_SHOWN = 100;
export const mockupProductsInput = z.object({ search: z.string().trim().max(200, { error: 'Search must be at most 200 characters' }) });

export const missingArtMessage = (side: (typeof MOCKUP_SIDES)[number]) => `This product has no ${side} artwork`;
/** A stored template or artwork that does not decode as an image (old data, or a damaged file). */
export const unreadableSourceMessage = (what: string) =>
  `The ${what} image is damaged or incomplete and cannot be read. Please upload it again.`;
/** A stored template or artwork with more pixels than an upload may have (stored before uploads were checked). */
export const oversizedSourceMessage = (what: string) =>
  `The ${what} image has more than ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels. Please upload a smaller one.`;
export const lowDpiMessage = (side: (typeof MOCKUP_SIDES)[number], dpi: number) =>
  `The ${side} artwork would print at ${Math.floor(dpi)} DPI; at least ${DPI_MIN} DPI is needed. Make it smaller.`;

/**
 * The least contrast ratio (WCAG, 1 to 21) of the artwork's average colour with a shirt colour
 * that the generator accepts without a warning: below it the print is hard to see (white on white).
 */
export const MIN_ART_CONTRAST = 1.5;
export const lowContrastMessage = (side: (typeof MOCKUP_SIDES)[number], colour: string, ratio: number) =>
  `The ${side} artwork has too little contrast with ${colour} shirts (${ratio.toFixed(1)}:1): it will be hard to see.`;

const percent = z.number({ error: 'Position must be a number' }).min(0, { error: 'Position must be between 0 and 100' }).max(100, {
  error: 'Position must be between 0 and 100',
});
const size = z
  .number({ error: 'Size must be a number' })
  .min(5, { error: 'Size must be between 5 and 100 percent' })
  .max(100, { error: 'Size must be between 5 and 100 percent' })
  .multipleOf(5, { error: 'Size moves in steps of 5 percent' });

/** One side's placement: centre x, y and size in percent, rotation in degrees (docs/PRODUCT.md § Validation). */
const artPositionInput = z.object({
  x: percent,
  y: percent,
  width: size,
  height: size,
  rotation: z
    .number({ error: 'Rotation must be a number' })
    .min(0, { error: 'Rotation must be between 0 and 355 degrees' })
    .max(355, { error: 'Rotation must be between 0 and 355 degrees' })
    .multipleOf(5, { error: 'Rotation moves in steps of 5 degrees' }),
});

export const saveMockupsInput = z
  .object({
    productId: z.uuid({ error: PRODUCT_NOT_FOUND }),
    templateId: z.uuid({ error: TEMPLATE_NOT_FOUND }),
    front: artPositionInput.optional(),
    back: artPositionInput.optional(),
    defaultSide: z.enum(MOCKUP_SIDES),
  })
  .refine((input) => input.front !== undefined, { error: FRONT_MOCKUP_REQUIRED, path: ['front'] });
export type SaveMockupsInput = z.input<typeof saveMockupsInput>;
