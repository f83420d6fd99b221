import { sql } from 'kysely';
import { variantCents } from '../../shared/colours';
import { SIZES, type Size, type SizeSurcharges } from '../../shared/constants';
import { centsToAmount, toCents } from '../../shared/money';
import { orderLineKey, type CartLineInput } from '../../shared/schemas/checkout';
import type { Db } from '../db/database';
import { checkDiscountCode, findDiscountCode, lineDiscounts, type DiscountCode } from './discounts';

// The server prices every cart from today's products and the store's checkout settings; nothing
// the client says about prices is read. Money is whole cents until it is stored.

export interface CheckoutSettings {
  flat_shipping_rate: string;
  free_shipping_threshold: string | null;
  tax_rate_percent: string;
  payment_instructions: string;
  tracking_url_template: string;
  /** Customers can check out without an account. */
  guest_checkout: boolean;
  size_surcharges: SizeSurcharges;
}

export const CHECKOUT_SETTINGS_COLUMNS = [
  'flat_shipping_rate',
  'free_shipping_threshold',
  'tax_rate_percent',
  'payment_instructions',
  'tracking_url_template',
  'guest_checkout',
] as const satisfies readonly (keyof CheckoutSettings)[];
// size_surcharges is read with them (readCheckoutSettings) but saved by its own card: the "Size pricing" one.

export function readCheckoutSettings(db: Db): Promise<CheckoutSettings> {
  return db
    .selectFrom('store_settings')
    .select([...CHECKOUT_SETTINGS_COLUMNS, 'size_surcharges'])
    .executeTakeFirstOrThrow();
}

/**
 * Why a line cannot be bought: the product left the store (or its category did), its colour is
 * gone, the product no longer offers the size, or it offers the size but not in this colour.
 */
export type LineProblem = 'unavailable' | 'colour_unavailable' | 'size_unavailable' | 'variant_off';

export interface PricedLine {
  productId: string;
  size: Size;
  quantity: number;
  name: string;
  slug: string;
  imageUrl: string | null;
  /** The colour bought: the one asked for, or the product's first for a line that named none (a cart saved before colours). */
  colourId: string | null;
  colourName: string | null;
  colourHex: string | null;
  variantId: string | null;
  sku: string | null;
  unitCents: number;
  totalCents: number;
  /** What the discount code takes off the line (totalCents is before it). */
  discountCents: number;
  problem: LineProblem | null;
}

export interface Quote {
  lines: PricedLine[];
  subtotalCents: number;
  shippingCents: number;
  taxCents: number;
  /** What the discount code takes off: the lines' discounts, and shipping for a free-shipping code. */
  discountCents: number;
  /** The code applied, as the store spells it. */
  discount: DiscountCode | null;
  totalCents: number;
}

/** A discount code to price with: the code as typed, and who would use it (null: not signed in yet). */
export interface DiscountRequest {
  code: string;
  customerId: string | null;
}

/** Shipping: the flat rate, free from the threshold up (and on an empty order). */
export function shippingCents(subtotalCents: number, settings: Pick<CheckoutSettings, 'flat_shipping_rate' | 'free_shipping_threshold'>) {
  const threshold = settings.free_shipping_threshold === null ? null : toCents(settings.free_shipping_threshold);
  if (subtotalCents === 0 || (threshold !== null && subtotalCents >= threshold)) return 0;
  return toCents(settings.flat_shipping_rate);
}

/** Tax on the goods, at the store's rate in percent (two decimals), rounded to the cent. */
export function taxCents(subtotalCents: number, ratePercent: string) {
  return Math.round((subtotalCents * toCents(ratePercent)) / 10_000);
}

/** The store's surcharge per size (Admin → Settings, "Size pricing"). */
export async function readSizeSurcharges(db: Db): Promise<SizeSurcharges> {
  const row = await db.selectFrom('store_settings').select('size_surcharges').executeTakeFirstOrThrow();
  return row.size_surcharges;
}

export interface ProductColour {
  id: string;
  name: string;
  slug: string;
  hex: string;
  /** Its part of the variants' SKUs. */
  code: string;
  front_mockup_url: string | null;
  back_mockup_url: string | null;
  /** Sizes this colour is made in (its variants switched on), in the product's size order. */
  sizes: Size[];
  variants: { id: string; size: Size; sku: string; is_enabled: boolean }[];
}

/** The colours of the given products, each in its order with its variants; keyed by product id. */
export async function productColours(db: Db, productIds: readonly string[]): Promise<Map<string, ProductColour[]>> {
  const byProduct = new Map<string, ProductColour[]>();
  if (productIds.length === 0) return byProduct;
  const [colours, variants] = await Promise.all([
    db
      .selectFrom('product_colours')
      .select(['id', 'product_id', 'name', 'slug', 'hex', 'code', 'front_mockup_url', 'back_mockup_url'])
      .where('product_id', 'in', productIds)
      .orderBy('product_id')
      .orderBy('sort_order')
      .execute(),
    db
      .selectFrom('product_variants')
      .select(['id', 'colour_id', 'size', 'sku', 'is_enabled'])
      .where('product_id', 'in', productIds)
      .execute(),
  ]);
  const variantsOf = new Map<string, ProductColour['variants']>();
  for (const { colour_id: colourId, ...variant } of variants) variantsOf.set(colourId, [...(variantsOf.get(colourId) ?? []), variant]);
  for (const { product_id: productId, ...colour } of colours) {
    const own = (variantsOf.get(colour.id) ?? []).sort((a, b) => SIZES.indexOf(a.size) - SIZES.indexOf(b.size));
    const entry: ProductColour = {
      ...colour,
      variants: own,
      sizes: own.filter((variant) => variant.is_enabled).map((variant) => variant.size),
    };
    byProduct.set(productId, [...(byProduct.get(productId) ?? []), entry]);
  }
  return byProduct;
}

/** Each offered size's price ("27.99"): the product's plus the size's surcharge. */
export const sizePrices = (price: string, sizes: readonly Size[], surcharges: SizeSurcharges) =>
  Object.fromEntries(sizes.map((size) => [size, centsToAmount(variantCents(price, size, surcharges))])) as Partial<Record<Size, string>>;

/**
 * Today's name, price, sizes, colours and availability of the given products (available: the
 * product and its category are active). Missing ids were deleted. The cart page and the pricing both read this.
 */
export async function cartProducts(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const [products, colours, surcharges] = await Promise.all([
    db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .select([
        'products.id',
        'products.slug',
        'products.name',
        'products.price',
        'products.image_url',
        'products.default_mockup_side',
        'products.available_sizes',
        sql<boolean>`products.is_active and categories.is_active`.as('available'),
      ])
      .where('products.id', 'in', ids)
      .execute(),
    productColours(db, ids),
    readSizeSurcharges(db),
  ]);
  return products.map((product) => ({
    ...product,
    prices: sizePrices(product.price, product.available_sizes, surcharges),
    colours: (colours.get(product.id) ?? []).map(({ variants, ...colour }) => ({
      ...colour,
      /** The colour's picture: its mockup of the product's default side. */
      image_url: (product.default_mockup_side === 'back' ? colour.back_mockup_url : colour.front_mockup_url) ?? product.image_url,
      // Only sizes the product offers: a switched-on variant of a size since taken off is not for sale.
      sizes: colour.sizes.filter((size) => product.available_sizes.includes(size)),
      variants,
    })),
  }));
}

type CartProductRow = Awaited<ReturnType<typeof cartProducts>>[number];

/** The colour a line is for: the one it names, or the first (a line saved before colours names none); null when that colour is gone. */
export function lineColour(product: Pick<CartProductRow, 'colours'>, colourId: string | undefined) {
  return colourId === undefined ? (product.colours[0] ?? null) : (product.colours.find((colour) => colour.id === colourId) ?? null);
}

function priceLine(line: CartLineInput, product: CartProductRow | undefined, surcharges: SizeSurcharges): PricedLine {
  const colour = product ? lineColour(product, line.colourId) : null;
  const variant = colour?.variants.find((candidate) => candidate.size === line.size) ?? null;
  const problem: LineProblem | null = !product?.available
    ? 'unavailable'
    : !colour
      ? 'colour_unavailable'
      : !product.available_sizes.includes(line.size)
        ? 'size_unavailable'
        : colour.sizes.includes(line.size)
          ? null
          : 'variant_off';
  const unitCents = product ? variantCents(product.price, line.size, surcharges) : 0;
  return {
    productId: line.productId,
    size: line.size,
    quantity: line.quantity,
    name: product?.name ?? 'Unknown product',
    slug: product?.slug ?? '',
    imageUrl: colour?.image_url ?? product?.image_url ?? null,
    colourId: colour?.id ?? null,
    colourName: colour?.name ?? null,
    colourHex: colour?.hex ?? null,
    variantId: variant?.id ?? null,
    sku: variant?.sku ?? null,
    unitCents,
    totalCents: problem ? 0 : unitCents * line.quantity,
    discountCents: 0,
    problem,
  };
}

/**
 * Prices the lines with today's products; lines that cannot be bought carry their problem and
 * count for nothing. Lines of one variant become one, as the cart would have made them (a line
 * naming no colour is the first colour's). With a discount code, it must be usable
 * (checkDiscountCode throws DiscountRefused otherwise); tax is charged on the goods after their discount.
 */
export async function priceCart(
  db: Db,
  lines: readonly CartLineInput[],
  settings: CheckoutSettings,
  discount: DiscountRequest | null = null,
): Promise<Quote> {
  const ids = [...new Set(lines.map((line) => line.productId))];
  const products = await cartProducts(db, ids);
  const byId = new Map(products.map((product) => [product.id, product]));
  const merged = new Map<string, PricedLine>();
  for (const line of lines) {
    const priced = priceLine(line, byId.get(line.productId), settings.size_surcharges);
    const key = orderLineKey({ productId: priced.productId, colourId: priced.colourId ?? line.colourId, size: priced.size });
    const existing = merged.get(key);
    merged.set(
      key,
      existing
        ? { ...existing, quantity: existing.quantity + priced.quantity, totalCents: existing.totalCents + priced.totalCents }
        : priced,
    );
  }
  const priced = [...merged.values()];
  const subtotal = priced.reduce((sum, line) => sum + line.totalCents, 0);
  const shipping = shippingCents(subtotal, settings);
  let code: DiscountCode | null = null;
  if (discount) {
    const categories =
      ids.length === 0 ? [] : await db.selectFrom('products').select(['id', 'category_id']).where('id', 'in', ids).execute();
    const categoryOf = new Map(categories.map((row) => [row.id, row.category_id]));
    const discountLines = priced.map((line) => ({
      productId: line.productId,
      categoryId: categoryOf.get(line.productId) ?? null,
      totalCents: line.totalCents,
    }));
    code = await checkDiscountCode(db, await findDiscountCode(db, discount.code), {
      customerId: discount.customerId,
      subtotalCents: subtotal,
      lines: discountLines,
    });
    lineDiscounts(code, discountLines).forEach((off, i) => (priced[i]!.discountCents = off));
  }
  const goodsDiscount = priced.reduce((sum, line) => sum + line.discountCents, 0);
  const shippingDiscount = code?.kind === 'free_shipping' ? shipping : 0;
  const tax = taxCents(subtotal - goodsDiscount, settings.tax_rate_percent);
  const discountCents = goodsDiscount + shippingDiscount;
  return {
    lines: priced,
    subtotalCents: subtotal,
    shippingCents: shipping,
    taxCents: tax,
    discountCents,
    discount: code,
    totalCents: subtotal + shipping + tax - discountCents,
  };
}

/** The quote's amounts as the database and the client read them ("24.99"). */
export function quoteAmounts(quote: Quote) {
  return {
    subtotal: centsToAmount(quote.subtotalCents),
    shipping: centsToAmount(quote.shippingCents),
    tax: centsToAmount(quote.taxCents),
    discount: centsToAmount(quote.discountCents),
    total: centsToAmount(quote.totalCents),
  };
}
