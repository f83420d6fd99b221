import { sql } from 'kysely';
import { centsToAmount, toCents } from '../../shared/money';
import { orderLineKey, type CartLineInput } from '../../shared/schemas/checkout';
import type { Size } from '../../shared/constants';
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
}

export const CHECKOUT_SETTINGS_COLUMNS = [
  'flat_shipping_rate',
  'free_shipping_threshold',
  'tax_rate_percent',
  'payment_instructions',
  'tracking_url_template',
  'guest_checkout',
] as const satisfies readonly (keyof CheckoutSettings)[];

export function readCheckoutSettings(db: Db): Promise<CheckoutSettings> {
  return db.selectFrom('store_settings').select(CHECKOUT_SETTINGS_COLUMNS).executeTakeFirstOrThrow();
}

/** Why a line cannot be bought: the product left the store (or its category did), or the size is no longer made. */
export type LineProblem = 'unavailable' | 'size_unavailable';

export interface PricedLine {
  productId: string;
  size: Size;
  quantity: number;
  name: string;
  slug: string;
  imageUrl: string | null;
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

/** Lines of the same product and size become one, as the cart would have made them. */
function mergeLines(lines: readonly CartLineInput[]): CartLineInput[] {
  const merged = new Map<string, CartLineInput>();
  for (const line of lines) {
    const key = orderLineKey(line);
    const existing = merged.get(key);
    merged.set(key, existing ? { ...existing, quantity: existing.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
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

/**
 * Today's name, price, sizes and availability of the given products (available: the product and
 * its category are active). Missing ids were deleted. The cart page and the pricing both read this.
 */
export function cartProducts(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('products')
    .innerJoin('categories', 'categories.id', 'products.category_id')
    .select([
      'products.id',
      'products.slug',
      'products.name',
      'products.price',
      'products.image_url',
      'products.available_sizes',
      sql<boolean>`products.is_active and categories.is_active`.as('available'),
    ])
    .where('products.id', 'in', ids)
    .execute();
}

/**
 * Prices the lines with today's products; lines that cannot be bought carry their problem and
 * count for nothing. With a discount code, it must be usable (checkDiscountCode throws
 * DiscountRefused otherwise); tax is charged on the goods after their discount.
 */
export async function priceCart(
  db: Db,
  lines: readonly CartLineInput[],
  settings: CheckoutSettings,
  discount: DiscountRequest | null = null,
): Promise<Quote> {
  const wanted = mergeLines(lines);
  const ids = [...new Set(wanted.map((line) => line.productId))];
  const products = await cartProducts(db, ids);
  const byId = new Map(products.map((product) => [product.id, product]));
  const priced = wanted.map((line): PricedLine => {
    const product = byId.get(line.productId);
    const problem: LineProblem | null = !product?.available
      ? 'unavailable'
      : product.available_sizes.includes(line.size)
        ? null
        : 'size_unavailable';
    const unitCents = product ? toCents(product.price) : 0;
    return {
      ...line,
      name: product?.name ?? 'Unknown product',
      slug: product?.slug ?? '',
      imageUrl: product?.image_url ?? null,
      unitCents,
      totalCents: problem ? 0 : unitCents * line.quantity,
      discountCents: 0,
      problem,
    };
  });
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
