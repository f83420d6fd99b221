import { plainImage, type DisplayImage } from '../../shared/display-image';
import { toCents } from '../../shared/money';
import type { RouterOutputs } from '../trpc';
import type { Size } from '../../shared/constants';
import { cartLineKey, type CartLine } from './cart-store';

// The cart as shown: each stored line checked against what the server says about its product
// today (catalog.cartProducts), so a repriced or withdrawn product never shows stale data.

/** What catalog.cartProducts returns for one product. */
export type CurrentProduct = RouterOutputs['catalog']['cartProducts'][number];

/**
 * `available`: sold as before; `product-unavailable`: deleted or deactivated; `colour-unavailable`:
 * the colour is gone; `size-unavailable`: the size is no longer offered in that colour.
 */
export type CartLineStatus = 'available' | 'product-unavailable' | 'colour-unavailable' | 'size-unavailable';

export interface CartViewLine {
  /** Unique per line: product id, colour id and size (the cart store's key). */
  key: string;
  productId: string;
  /** The colour the line is for: the stored one, or for a line saved before colours the product's first (once the server answers). */
  colourId: string | null;
  colourName: string | null;
  colourHex: string | null;
  slug: string;
  name: string;
  imageUrl: string | null;
  /** The thumbnail: today's copies, else those stored with the line, else the stored URL as it is. */
  image: DisplayImage | null;
  size: string;
  quantity: number;
  /** Today's unit price (the stored one until the server answers). */
  price: string;
  /** The price the line was added at, when the server now asks another. */
  previousPrice: string | null;
  status: CartLineStatus;
  /** Unit price times quantity, in cents. */
  totalCents: number;
}

export interface CartView {
  lines: CartViewLine[];
  /** Items of the lines that can be bought. */
  itemCount: number;
  /** Sum of the lines that can be bought, in cents; also the total (shipping is free, no tax: docs/PRODUCT.md § Limits). */
  subtotalCents: number;
  hasUnavailable: boolean;
}

/** The lines to price and order: each buyable line's variant and quantity; the server prices them. */
export const orderLinesOf = (lines: readonly CartViewLine[]) =>
  lines
    .filter((line) => line.status === 'available')
    .map((line) => ({
      productId: line.productId,
      ...(line.colourId ? { colourId: line.colourId } : {}),
      size: line.size as Size,
      quantity: line.quantity,
    }));

/** A line's colour and size as the cart and checkout show them ("Black / XL", or "XL" for a line with no colour yet). */
export const variantLabel = (line: Pick<CartViewLine, 'colourName' | 'size'>) =>
  line.colourName ? `${line.colourName} / ${line.size}` : line.size;

/**
 * Joins the stored lines with the server's answer. `current` undefined means the answer is not
 * here (yet, or the read failed): the stored data is shown as it is.
 */
export function buildCartView(lines: readonly CartLine[], current: readonly CurrentProduct[] | undefined): CartView {
  const byId = new Map(current?.map((product) => [product.id, product]));
  const viewLines = lines.map((line): CartViewLine => {
    const stored = line.product;
    const storedImage = stored.image ?? (stored.image_url ? plainImage(stored.image_url) : null);
    const base = { key: cartLineKey(line), productId: stored.id, size: line.size, quantity: line.quantity };
    const storedColour = { colourId: line.colour?.id ?? null, colourName: line.colour?.name ?? null, colourHex: line.colour?.hex ?? null };
    if (!current) {
      return {
        ...base,
        ...storedColour,
        slug: stored.slug,
        name: stored.name,
        imageUrl: stored.image_url,
        image: storedImage,
        price: stored.price,
        previousPrice: null,
        status: 'available',
        totalCents: toCents(stored.price) * line.quantity,
      };
    }
    const product = byId.get(stored.id);
    if (!product || !product.available) {
      return {
        ...base,
        ...storedColour,
        slug: stored.slug,
        name: product?.name ?? stored.name,
        imageUrl: stored.image_url,
        image: storedImage,
        price: stored.price,
        previousPrice: null,
        status: 'product-unavailable',
        totalCents: 0,
      };
    }
    const colour = line.colour ? product.colours.find((candidate) => candidate.id === line.colour?.id) : product.colours[0];
    const price = product.prices[line.size as Size] ?? product.price;
    const repriced = toCents(price) !== toCents(stored.price);
    const sizeOffered = colour ? (colour.sizes as readonly string[]).includes(line.size) : false;
    const status: CartLineStatus = !colour ? 'colour-unavailable' : sizeOffered ? 'available' : 'size-unavailable';
    return {
      ...base,
      colourId: colour?.id ?? storedColour.colourId,
      colourName: colour?.name ?? storedColour.colourName,
      colourHex: colour?.hex ?? storedColour.colourHex,
      slug: product.slug,
      name: product.name,
      imageUrl: colour?.image_url ?? product.image_url,
      image: colour?.image ?? product.image,
      price,
      previousPrice: repriced ? stored.price : null,
      status,
      totalCents: status === 'available' ? toCents(price) * line.quantity : 0,
    };
  });
  const buyable = viewLines.filter((line) => line.status === 'available');
  return {
    lines: viewLines,
    itemCount: buyable.reduce((sum, line) => sum + line.quantity, 0),
    subtotalCents: buyable.reduce((sum, line) => sum + line.totalCents, 0),
    hasUnavailable: buyable.length < viewLines.length,
  };
}
