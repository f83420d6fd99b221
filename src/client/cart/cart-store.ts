import { MAX_LINE_QUANTITY } from '../../shared/constants';
import { isDisplayImage, type DisplayImage } from '../../shared/display-image';
// The cart (docs/PRODUCT.md § Records and States): lines kept in localStorage under cartStorageKey(storeName), restored on
// load and kept in step across tabs through the `storage` event.

export interface CartProduct {
  id: string;
  slug: string;
  name: string;
  image_url: string | null;
  /** Its display copies as the product page had them, so the cart shows them before the server answers; null in carts saved before. */
  image: DisplayImage | null;
  /** Money string as the server sends it, e.g. "24.99". */
  price: string;
}

/** The shirt colour of a line, as the product page showed it. */
export interface CartColour {
  id: string;
  name: string;
  hex: string;
}

export interface CartLine {
  product: CartProduct;
  /** Null on lines saved before products had colours: they are the product's first colour. */
  colour: CartColour | null;
  size: string;
  quantity: number;
}

export type CartListener = () => void;

const clampQuantity = (quantity: number) => Math.min(MAX_LINE_QUANTITY, Math.floor(quantity));

/** The subset of the Web Storage API the cart needs (a Map-backed fake works in tests). */
export type CartStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface CartStore {
  getLines: () => readonly CartLine[];
  subscribe: (listener: CartListener) => () => void;
  /** Adds to the line of that product, colour and size, up to the most a line holds; returns how many were added. */
  add: (product: CartProduct, colour: CartColour | null, size: string, quantity?: number) => number;
  /** Sets a line's quantity; 0 or less removes the line (docs/PRODUCT.md § States). */
  setQuantity: (key: string, quantity: number) => void;
  remove: (key: string) => void;
  clear: () => void;
  /** Puts these lines in place of the cart's (checkout's "Update cart" after products changed). */
  replace: (lines: readonly CartLine[]) => void;
  /** Re-reads storage; called when another tab changed the cart. */
  reload: () => void;
}

/** A line's identity: one variant (product, colour, size) is one line. */
export const cartLineKey = (line: Pick<CartLine, 'product' | 'colour' | 'size'>) =>
  `${line.product.id}:${line.colour?.id ?? ''}:${line.size}`;
const sameLine = (line: CartLine, key: string) => cartLineKey(line) === key;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function parseProduct(value: unknown): CartProduct | null {
  if (!isRecord(value)) return null;
  const { id, slug, name, image_url: imageUrl, image, price } = value;
  if (typeof id !== 'string' || typeof name !== 'string') return null;
  const priceText = typeof price === 'number' ? price.toFixed(2) : typeof price === 'string' ? price : null;
  if (priceText === null || !Number.isFinite(Number(priceText))) return null;
  return {
    id,
    slug: typeof slug === 'string' ? slug : '',
    name,
    image_url: typeof imageUrl === 'string' && imageUrl ? imageUrl : null,
    image: isDisplayImage(image) ? image : null,
    price: priceText,
  };
}

function parseColour(value: unknown): CartColour | null {
  if (!isRecord(value)) return null;
  const { id, name, hex } = value;
  return typeof id === 'string' && typeof name === 'string' && typeof hex === 'string' ? { id, name, hex } : null;
}

/**
 * Keeps only well-formed lines: storage may hold anything an older build or a user wrote there.
 * Lines of the same product and size are merged, as adding would have done.
 */
export function parseCart(raw: string | null): CartLine[] {
  if (!raw) return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  const lines: CartLine[] = [];
  for (const item of data) {
    if (!isRecord(item)) continue;
    const product = parseProduct(item.product);
    const quantity = typeof item.quantity === 'number' ? clampQuantity(item.quantity) : Number.NaN;
    if (!product || typeof item.size !== 'string' || !(quantity > 0)) continue;
    const line: CartLine = { product, colour: parseColour(item.colour), size: item.size, quantity };
    const existing = lines.find((other) => sameLine(other, cartLineKey(line)));
    if (existing) existing.quantity = clampQuantity(existing.quantity + quantity);
    else lines.push(line);
  }
  return lines;
}

export const cartItemCount = (lines: readonly CartLine[]) => lines.reduce((sum, line) => sum + line.quantity, 0);

export function createCartStore(storage: CartStorage | null, key: string): CartStore {
  const read = () => {
    try {
      return parseCart(storage?.getItem(key) ?? null);
    } catch {
      return [];
    }
  };
  let lines: readonly CartLine[] = read();
  const listeners = new Set<CartListener>();
  const emit = () => {
    for (const listener of listeners) listener();
  };
  const commit = (next: CartLine[]) => {
    lines = next;
    try {
      if (next.length === 0) storage?.removeItem(key);
      else storage?.setItem(key, JSON.stringify(next));
    } catch {
      // Storage full or blocked (private mode): the cart still works for this page's lifetime.
    }
    emit();
  };

  return {
    getLines: () => lines,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    add(product, colour, size, quantity = 1) {
      const amount = clampQuantity(quantity);
      if (!(amount > 0)) return 0;
      const key = cartLineKey({ product, colour, size });
      const existing = lines.find((line) => sameLine(line, key));
      if (!existing) {
        commit([
          ...lines,
          { product: { ...product }, colour: colour && { id: colour.id, name: colour.name, hex: colour.hex }, size, quantity: amount },
        ]);
        return amount;
      }
      const merged = clampQuantity(existing.quantity + amount);
      if (merged > existing.quantity) commit(lines.map((line) => (line === existing ? { ...line, quantity: merged } : line)));
      return merged - existing.quantity;
    },
    setQuantity(key, quantity) {
      const amount = clampQuantity(quantity);
      if (!(amount > 0)) {
        commit(lines.filter((line) => !sameLine(line, key)));
        return;
      }
      commit(lines.map((line) => (sameLine(line, key) ? { ...line, quantity: amount } : line)));
    },
    remove(key) {
      commit(lines.filter((line) => !sameLine(line, key)));
    },
    clear() {
      commit([]);
    },
    replace(next) {
      commit(next.map((line) => ({ ...line, product: { ...line.product } })));
    },
    reload() {
      lines = read();
      emit();
    },
  };
}
