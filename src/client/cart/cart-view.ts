import { plainImage, type DisplayImage } from '../../shared/display-image';
import { toCents } from '../../shared/money';
import type { RouterOutputs } from '../trpc';
import type { CartLine } from './cart-store';

// The cart as shown: each stored line checked against what the server says about its product
// today (catalog.cartProducts), so a repriced or withdrawn product never shows stale data.

/** What catalog.cartProducts returns for one product. */
export type CurrentProduct = RouterOutputs['catalog']['cartProducts'][number];

/** `product`: sold as before; `product-unavailable`: deleted or deactivated; `size-unavailable`: the size is no longer offered. */
export type CartLineStatus = 'available' | 'product-unavailable' | 'size-unavailable';

export interface CartViewLine {
  /** Unique per line: product id and size. */
  key: string;
  productId: string;
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

/**
 * Joins the stored lines with the server's answer. `current` undefined means the answer is not
 * here (yet, or the read failed): the stored data is shown as it is.
 */
export function buildCartView(lines: readonly CartLine[], current: readonly CurrentProduct[] | undefined): CartView {
  const byId = new Map(current?.map((product) => [product.id, product]));
  const viewLines = lines.map((line): CartViewLine => {
    const stored = line.product;
    const storedImage = stored.image ?? (stored.image_url ? plainImage(stored.image_url) : null);
    const base = { key: `${stored.id}:${line.size}`, productId: stored.id, size: line.size, quantity: line.quantity };
    if (!current) {
      return {
        ...base,
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
    const repriced = toCents(product.price) !== toCents(stored.price);
    const sizeOffered = (product.available_sizes as readonly string[]).includes(line.size);
    return {
      ...base,
      slug: product.slug,
      name: product.name,
      imageUrl: product.image_url,
      image: product.image,
      price: product.price,
      previousPrice: repriced ? stored.price : null,
      status: sizeOffered ? 'available' : 'size-unavailable',
      totalCents: sizeOffered ? toCents(product.price) * line.quantity : 0,
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
