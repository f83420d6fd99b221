import { z } from 'zod';
import { CHEST_POSITIONS, DEFAULT_CHEST_POSITION, DEFAULT_SIZES, MOCKUP_SIDES, SIZES, type Size } from '../constants';
import { requiredLine, requiredText, slugText } from './fields';
import { isImageUrl } from './urls';

// The admin product form and the admin.products procedures share these rules (docs/PRODUCT.md § Records and Validation).
// Texts of the spec, word for word.
export const ARTWORK_REQUIRED = 'Please provide artwork for either the front or back (or both).';
export const PRODUCT_SAVE_FAILED = 'Failed to save product. Please try again.';
export const DUPLICATE_SKU = 'A product with this SKU already exists';
export const DUPLICATE_SLUG = 'A product with this slug already exists';
export const PRODUCT_NOT_FOUND = 'Product not found';
/** A product whose artwork and SKU the print queue still needs. */
export function productToPrintMessage(name: string, lines: number): string {
  const count = lines === 1 ? '1 order line' : `${lines} order lines`;
  return `"${name}" has ${count} still to print. Deactivate it instead, or delete it once they are printed.`;
}
export const CATEGORY_REQUIRED = 'Category is required';

/** Largest value numeric(10, 2) holds. */
const MAX_PRICE = 99_999_999.99;
export const ADMIN_PRODUCTS_PAGE_SIZE = 25;

/** An optional image URL: blank means none (null); anything else must be a valid URL. */
const optionalUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(2000, { error: `${label} must be a valid URL` })
    .nullish()
    .transform((value) => value || null)
    .refine((value) => value === null || isImageUrl(value), { error: `${label} must be a valid URL` });

/** Sizes from the full set, each once, in the set's order (XS first). */
const sizesField = z
  .array(z.enum(SIZES, { error: 'Choose sizes from XS to 4XL' }), { error: 'Choose at least one size' })
  .max(SIZES.length)
  .transform((sizes) => SIZES.filter((size) => sizes.includes(size)))
  .refine((sizes) => sizes.length > 0, { error: 'Choose at least one size' });

/** Tags trimmed, blanks dropped, each kept once (docs/PRODUCT.md § Validation). */
export function cleanTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}
const tagsField = z
  .array(z.string().max(50, { error: 'A tag must be at most 50 characters' }))
  .max(50, { error: 'At most 50 tags' })
  .transform(cleanTags);

// ---- Colours (docs/adr/0029): each with its name, hex value, the admin's optional blank photos,
// and the sizes it does not come in (its variants switched off).

export const COLOUR_HEX_INVALID = 'Enter the colour as a hex value, e.g. #1b1b1d';
export const COLOURS_REQUIRED = 'A product needs at least one colour';
export const NOTHING_ON_OFFER = 'An active product needs at least one colour in at least one size';
export const MAX_COLOURS = 12;
export const duplicateColourMessage = (name: string) => `This product already has a colour named "${name}"`;

export const colourInput = z.object({
  /** An existing colour's id; absent for a colour added in the form. */
  id: z.uuid().optional(),
  name: requiredLine('Colour name', 40),
  hex: z
    .string({ error: COLOUR_HEX_INVALID })
    .trim()
    .regex(/^#?[0-9a-fA-F]{6}$/, { error: COLOUR_HEX_INVALID })
    .transform((hex) => `#${hex.replace('#', '').toLowerCase()}`),
  /** Sizes this colour does not come in. */
  off_sizes: z.array(z.enum(SIZES)).max(SIZES.length).default([]),
  front_blank_url: optionalUrl('Front blank photo URL'),
  back_blank_url: optionalUrl('Back blank photo URL'),
});
export type ColourFormValues = z.input<typeof colourInput>;

const coloursField = z
  .array(colourInput, { error: COLOURS_REQUIRED })
  .min(1, { error: COLOURS_REQUIRED })
  .max(MAX_COLOURS, { error: `A product can have at most ${MAX_COLOURS} colours` })
  .superRefine((colours, ctx) => {
    const seen = new Set<string>();
    colours.forEach((colour, index) => {
      const key = colour.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: duplicateColourMessage(colour.name), path: [index, 'name'] });
      seen.add(key);
    });
  });

const productFields = z.object({
  name: requiredLine('Name', 200),
  slug: slugText(200),
  sku_number: requiredLine('SKU', 64),
  description: requiredText('Description', 5000),
  price: z
    .number({ error: 'Price is required' })
    .min(0, { error: 'Price must be 0 or more' })
    .max(MAX_PRICE, { error: 'Price is too large' })
    // step 0.01: whole cents only (a float tolerance, since 0.1 + 0.2 is not exact)
    .refine((price) => Math.abs(price * 100 - Math.round(price * 100)) < 1e-6, { error: 'Price must be in whole cents' }),
  category_id: z.uuid({ error: CATEGORY_REQUIRED }),
  image_url: optionalUrl('Image URL'),
  front_art_url: optionalUrl('Front artwork URL'),
  back_art_url: optionalUrl('Back artwork URL'),
  front_mockup_url: optionalUrl('Front mockup URL'),
  back_mockup_url: optionalUrl('Back mockup URL'),
  chest_position: z.enum(CHEST_POSITIONS).default(DEFAULT_CHEST_POSITION),
  default_mockup_side: z.enum(MOCKUP_SIDES).default('front'),
  available_sizes: sizesField,
  tags: tagsField.default([]),
  is_featured: z.boolean().default(false),
  is_active: z.boolean().default(true),
  /** Absent: the colours stay as they are (a new product gets White). */
  colours: coloursField.optional(),
});

function requireArtwork(
  product: {
    front_art_url: string | null;
    back_art_url: string | null;
    is_active: boolean;
    available_sizes: Size[];
    colours?: { off_sizes: Size[] }[] | undefined;
  },
  ctx: z.RefinementCtx,
) {
  if (!product.front_art_url && !product.back_art_url) {
    ctx.addIssue({ code: 'custom', message: ARTWORK_REQUIRED, path: ['front_art_url'] });
  }
  const onOffer = product.colours?.some((colour) => product.available_sizes.some((size) => !colour.off_sizes.includes(size)));
  if (product.is_active && product.colours && !onOffer) ctx.addIssue({ code: 'custom', message: NOTHING_ON_OFFER, path: ['colours'] });
}

/** A product as the form submits it and admin.products.create receives it. */
export const productInput = productFields.superRefine(requireArtwork);
export type ProductFormValues = z.input<typeof productInput>;
export type ProductInput = z.output<typeof productInput>;

export const PRODUCT_CHANGED_ELSEWHERE =
  'This product was changed elsewhere since you opened it (in another tab, or by another admin). Reload the page to see the changes, then save again.';

/**
 * The same fields plus the id (field errors name the same paths as on create) and the product's
 * updated_at as the form loaded it: a save over a change made meanwhile is refused, not lost.
 */
export const productUpdateInput = productFields.extend({ id: z.uuid(), updatedAt: z.string().min(1).max(64) }).superRefine(requireArtwork);

export const productIdInput = z.object({ id: z.uuid() });

export const productSetActiveInput = z.object({ id: z.uuid(), isActive: z.boolean() });

/** The products list: search text, category and page number, also the list page's URL search params. */
export const productListSearch = z.object({
  search: z.string().trim().max(200).optional(),
  categoryId: z.uuid().optional(),
  page: z.number().int().min(1).max(100_000).default(1),
});
export type ProductListSearch = z.input<typeof productListSearch>;

/** What a new product starts with (docs/PRODUCT.md § Validation and Limits: sizes S to 4XL, full chest, front side, active). */
export function newProductValues(): ProductFormValues {
  return {
    name: '',
    slug: '',
    sku_number: '',
    description: '',
    price: Number.NaN,
    category_id: '',
    image_url: '',
    front_art_url: '',
    back_art_url: '',
    front_mockup_url: '',
    back_mockup_url: '',
    chest_position: DEFAULT_CHEST_POSITION,
    default_mockup_side: 'front',
    available_sizes: [...DEFAULT_SIZES] as Size[],
    tags: [],
    is_featured: false,
    is_active: true,
    colours: [{ name: 'White', hex: '#ffffff', off_sizes: [], front_blank_url: '', back_blank_url: '' }],
  };
}

// ---- Bulk edits on the products list (docs/PRODUCT.md § Products list)

/** Most products one action names by id: a page's worth many times over; more go by the list's filters. */
export const MAX_BULK_IDS = 1000;
export const BULK_NOTHING_CHOSEN = 'Choose at least one product';
export const BULK_TAG_REQUIRED = 'Enter a tag';
export const PRICE_CHANGES = ['set', 'raise_amount', 'lower_amount', 'raise_percent', 'lower_percent'] as const;
export type PriceChange = (typeof PRICE_CHANGES)[number];
export const PRICE_CHANGE_LABELS: Record<PriceChange, string> = {
  set: 'Set price to ($)',
  raise_amount: 'Raise by ($)',
  lower_amount: 'Lower by ($)',
  raise_percent: 'Raise by (%)',
  lower_percent: 'Lower by (%)',
};
/** No change makes a price lower than this. */
export const MIN_BULK_PRICE = 0.01;

/** The products an action applies to: these ids, or every product the list's filters show. */
export const bulkTarget = z.union([
  z.object({ ids: z.array(z.uuid()).min(1, { error: BULK_NOTHING_CHOSEN }).max(MAX_BULK_IDS) }),
  z.object({ matching: productListSearch.omit({ page: true }) }),
]);
export type BulkTarget = z.input<typeof bulkTarget>;

const bulkTag = z.string().trim().min(1, { error: BULK_TAG_REQUIRED }).max(50, { error: 'A tag must be at most 50 characters' });

export const bulkAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('set_active'), isActive: z.boolean() }),
  z.object({ kind: z.literal('move_to_category'), categoryId: z.uuid({ error: CATEGORY_REQUIRED }) }),
  z
    .object({
      kind: z.literal('change_price'),
      change: z.enum(PRICE_CHANGES),
      amount: z
        .number({ error: 'Enter an amount' })
        .positive({ error: 'Enter an amount above 0' })
        .max(MAX_PRICE, { error: 'Price is too large' })
        .refine((amount) => Math.abs(amount * 100 - Math.round(amount * 100)) < 1e-6, { error: 'Use whole cents' }),
    })
    .refine((action) => !action.change.endsWith('percent') || action.amount <= 1000, {
      error: 'Change prices by at most 1000%',
      path: ['amount'],
    }),
  z.object({ kind: z.literal('add_tag'), tag: bulkTag }),
  z.object({ kind: z.literal('remove_tag'), tag: bulkTag }),
  z.object({ kind: z.literal('delete') }),
]);
export type BulkAction = z.input<typeof bulkAction>;

export const bulkInput = z.object({ target: bulkTarget, action: bulkAction });

/** The delete confirmation: how many go, and how many stay, made inactive, because orders name them. */
export function bulkDeleteMessage(total: number, withOrders: number): string {
  const products = (n: number) => (n === 1 ? '1 product' : `${n} products`);
  if (withOrders === 0) return `Delete ${products(total)}? This cannot be undone.`;
  const kept = `${withOrders === 1 ? '1 has' : `${withOrders} have`} orders and will be made inactive instead`;
  return `Delete ${products(total)}? ${kept}. This cannot be undone.`;
}

/** What an action did, for its toast. */
export function bulkDoneMessage(result: { changed: number; deleted: number; deactivated: number }): string {
  const products = (n: number) => (n === 1 ? '1 product' : `${n} products`);
  if (result.deleted || result.deactivated) {
    return `${products(result.deleted)} deleted${result.deactivated ? `, ${result.deactivated} made inactive` : ''}`;
  }
  return `${products(result.changed)} updated`;
}
