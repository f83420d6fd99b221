import { MAX_LINE_QUANTITY } from '../../src/shared/constants';
import { describe, expect, it } from 'vitest';
import { createCheckoutKeys } from '../../src/client/cart/checkout-key';
import { cartItemCount, createCartStore, parseCart, type CartProduct, type CartStorage } from '../../src/client/cart/cart-store';
import { buildCartView, orderLinesOf, type CurrentProduct } from '../../src/client/cart/cart-view';
import { plainImage, type DisplayImage } from '../../src/shared/display-image';

const KEY = 'threadline_cart';

function memoryStorage(initial: Record<string, string> = {}): CartStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

const tee: CartProduct = {
  id: '11111111-1111-4111-8111-111111111111',
  slug: 'ride-free',
  name: 'Ride Free Tee',
  image_url: '/a.png',
  image: null,
  price: '24.99',
};
const other: CartProduct = {
  id: '22222222-2222-4222-8222-222222222222',
  slug: 'grace',
  name: 'Grace Tee',
  image_url: null,
  image: null,
  price: '19.50',
};
/** The display copies of /storage/mockups/a.png, as the catalog sends them. */
const copies: DisplayImage = {
  src: '/storage/mockups/a.png.640w.webp',
  width: 3600,
  height: 4320,
  sources: [
    { type: 'image/avif', srcset: '/storage/mockups/a.png.320w.avif 320w, /storage/mockups/a.png.640w.avif 640w' },
    { type: 'image/webp', srcset: '/storage/mockups/a.png.320w.webp 320w, /storage/mockups/a.png.640w.webp 640w' },
  ],
};

describe('cart store', () => {
  it('merges an add of the same product and size into one line and keeps sizes apart', () => {
    const storage = memoryStorage();
    const cart = createCartStore(storage, KEY);
    cart.add(tee, null, 'M', 2);
    cart.add(tee, null, 'M', 3);
    cart.add(tee, null, 'L');
    expect(cart.getLines().map((l) => [l.product.id, l.size, l.quantity])).toEqual([
      [tee.id, 'M', 5],
      [tee.id, 'L', 1],
    ]);
    expect(cartItemCount(cart.getLines())).toBe(6);
    // Written through to storage and read back by a new store (a reload).
    expect(createCartStore(storage, KEY).getLines()).toEqual(cart.getLines());
  });

  it('caps a line at the maximum quantity, and says how many of an add went in', () => {
    const cart = createCartStore(memoryStorage(), KEY);
    expect(cart.add(tee, null, 'M', MAX_LINE_QUANTITY - 1)).toBe(MAX_LINE_QUANTITY - 1);
    expect(cart.add(tee, null, 'M', 5)).toBe(1);
    expect(cart.getLines()[0]?.quantity).toBe(MAX_LINE_QUANTITY);
    expect(cart.add(tee, null, 'M', 5)).toBe(0);
    expect(cart.getLines()[0]?.quantity).toBe(MAX_LINE_QUANTITY);
    cart.setQuantity(`${tee.id}::M`, 500);
    expect(cart.getLines()[0]?.quantity).toBe(MAX_LINE_QUANTITY);
  });

  it('removes a line when its quantity is set to 0 or less, and on remove', () => {
    const cart = createCartStore(memoryStorage(), KEY);
    cart.add(tee, null, 'M');
    cart.add(tee, null, 'L');
    cart.add(other, null, 'S', 2);
    cart.setQuantity(`${tee.id}::M`, 0);
    expect(cart.getLines().map((l) => `${l.product.id}:${l.size}`)).toEqual([`${tee.id}:L`, `${other.id}:S`]);
    cart.setQuantity(`${other.id}::S`, -3);
    expect(cart.getLines().map((l) => `${l.product.id}:${l.size}`)).toEqual([`${tee.id}:L`]);
    cart.setQuantity(`${tee.id}::L`, 4);
    expect(cart.getLines()[0]?.quantity).toBe(4);
    cart.remove(`${tee.id}::L`);
    expect(cart.getLines()).toEqual([]);
  });

  it('ignores adds of nothing', () => {
    const cart = createCartStore(memoryStorage(), KEY);
    cart.add(tee, null, 'M', 0);
    cart.add(tee, null, 'M', -2);
    expect(cart.getLines()).toEqual([]);
  });

  it('clear empties the cart and its storage, and tells subscribers', () => {
    const storage = memoryStorage();
    const cart = createCartStore(storage, KEY);
    let calls = 0;
    const unsubscribe = cart.subscribe(() => calls++);
    cart.add(tee, null, 'M');
    expect(storage.data.has(KEY)).toBe(true);
    cart.clear();
    expect(cart.getLines()).toEqual([]);
    expect(storage.data.has(KEY)).toBe(false);
    expect(calls).toBe(2);
    unsubscribe();
    cart.add(tee, null, 'M');
    expect(calls).toBe(2);
  });

  it('reload picks up what another tab wrote', () => {
    const storage = memoryStorage();
    const mine = createCartStore(storage, KEY);
    const theirs = createCartStore(storage, KEY);
    theirs.add(other, null, 'XL', 2);
    expect(mine.getLines()).toEqual([]);
    mine.reload();
    expect(mine.getLines()).toEqual(theirs.getLines());
  });

  it('starts empty on junk in localStorage instead of failing', () => {
    for (const junk of ['not json', '{"a":1}', '42', 'null', '[1,"x",null]', '[{"product":{"id":5},"size":"M","quantity":1}]']) {
      expect(createCartStore(memoryStorage({ [KEY]: junk }), KEY).getLines()).toEqual([]);
    }
  });

  it('keeps the well-formed lines of a partly broken cart, merging duplicates', () => {
    const raw = JSON.stringify([
      { product: tee, size: 'M', quantity: 2 },
      { product: { ...tee, price: 'free' }, size: 'M', quantity: 1 },
      { product: other, size: 'S', quantity: 0 },
      { product: other, size: 7, quantity: 1 },
      { product: { ...other, price: 19.5 }, size: 'L', quantity: 1.7 },
      { product: tee, size: 'M', quantity: 3 },
    ]);
    expect(parseCart(raw)).toEqual([
      { product: tee, colour: null, size: 'M', quantity: 5 },
      { product: { ...other, price: '19.50' }, colour: null, size: 'L', quantity: 1 },
    ]);
  });

  it("keeps a line's display image through storage, and drops one that is malformed", () => {
    const withCopies = { ...tee, image: copies };
    const storage = memoryStorage();
    createCartStore(storage, KEY).add(withCopies, null, 'M');
    expect(createCartStore(storage, KEY).getLines()[0]?.product.image).toEqual(copies);
    const malformed = { ...tee, image: { src: '/x.avif', sources: 'all of them' } };
    expect(parseCart(JSON.stringify([{ product: malformed, colour: null, size: 'M', quantity: 1 }]))[0]?.product).toEqual(tee);
  });

  it('works without storage (blocked), and when storage throws', () => {
    const cart = createCartStore(null, KEY);
    cart.add(tee, null, 'M');
    expect(cart.getLines()).toHaveLength(1);
    const throwing: CartStorage = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => undefined,
    };
    const blocked = createCartStore(throwing, KEY);
    blocked.add(tee, null, 'M');
    expect(blocked.getLines()).toHaveLength(1);
  });
});

const white = { id: '33333333-3333-4333-8333-333333333333', name: 'White', slug: 'white', hex: '#ffffff' };
const black = { id: '44444444-4444-4444-8444-444444444444', name: 'Black', slug: 'black', hex: '#1b1b1d' };

describe('cart lines by colour', () => {
  it('keeps one design in two colours as two lines, and one colour added twice as one', () => {
    const storage = memoryStorage();
    const cart = createCartStore(storage, KEY);
    cart.add(tee, white, 'M');
    cart.add(tee, black, 'M', 2);
    cart.add(tee, black, 'M');
    expect(cart.getLines().map((l) => [l.colour?.name, l.size, l.quantity])).toEqual([
      ['White', 'M', 1],
      ['Black', 'M', 3],
    ]);
    expect(createCartStore(storage, KEY).getLines()).toEqual(cart.getLines());
    cart.setQuantity(`${tee.id}:${black.id}:M`, 1);
    cart.remove(`${tee.id}:${white.id}:M`);
    expect(cart.getLines().map((l) => [l.colour?.name, l.quantity])).toEqual([['Black', 1]]);
  });
});

describe('cart view against the server', () => {
  const current = (product: CartProduct, overrides: Partial<CurrentProduct> = {}): CurrentProduct => ({
    id: product.id,
    slug: product.slug,
    name: product.name,
    price: product.price,
    image_url: product.image_url,
    image: product.image_url ? plainImage(product.image_url) : null,
    available_sizes: ['S', 'M', 'L', 'XL'],
    available: true,
    prices: { S: product.price, M: product.price, L: product.price, XL: product.price },
    colours: [{ ...white, code: 'WHT', image_url: null, image: null, sizes: ['S', 'M', 'L', 'XL'] }],
    ...overrides,
  });

  it('shows the stored data until the server answers', () => {
    const view = buildCartView([{ product: tee, colour: null, size: 'M', quantity: 2 }], undefined);
    expect(view.lines[0]).toMatchObject({ price: '24.99', previousPrice: null, status: 'available', totalCents: 4998 });
    expect(view).toMatchObject({ itemCount: 2, subtotalCents: 4998, hasUnavailable: false });
  });

  it('shows the display copies stored with a line until the server answers; a line saved before them, its URL as it is', () => {
    const view = buildCartView(
      [
        { product: { ...tee, image: copies }, colour: null, size: 'M', quantity: 1 },
        { product: tee, colour: null, size: 'L', quantity: 1 },
        { product: other, colour: null, size: 'S', quantity: 1 },
      ],
      undefined,
    );
    expect(view.lines.map((line) => line.image)).toEqual([copies, plainImage('/a.png'), null]);
  });

  it('uses the current price, name and image, and remembers the old price', () => {
    const view = buildCartView(
      [{ product: tee, colour: null, size: 'M', quantity: 2 }],
      [current(tee, { price: '29.00', prices: { M: '29.00' }, name: 'Ride Free Tee II', image_url: '/b.png', image: copies })],
    );
    expect(view.lines[0]).toMatchObject({
      name: 'Ride Free Tee II',
      imageUrl: '/b.png',
      image: copies,
      price: '29.00',
      previousPrice: '24.99',
      totalCents: 5800,
    });
    expect(view.subtotalCents).toBe(5800);
  });

  it('marks withdrawn products and sizes and leaves them out of the totals', () => {
    const lines = [
      { product: tee, colour: null, size: 'M', quantity: 1 },
      { product: tee, colour: null, size: '4XL', quantity: 1 },
      { product: other, colour: null, size: 'S', quantity: 3 },
    ];
    const deactivated = buildCartView(lines, [current(tee), current(other, { available: false })]);
    expect(deactivated.lines.map((l) => l.status)).toEqual(['available', 'size-unavailable', 'product-unavailable']);
    expect(deactivated).toMatchObject({ itemCount: 1, subtotalCents: 2499, hasUnavailable: true });
    // A deleted product is missing from the answer.
    const deleted = buildCartView(lines, [current(tee)]);
    expect(deleted.lines[2]?.status).toBe('product-unavailable');
    expect(deleted.subtotalCents).toBe(2499);
  });
});

describe('cart view of colours', () => {
  const current = (overrides: Partial<CurrentProduct> = {}): CurrentProduct => ({
    id: tee.id,
    slug: tee.slug,
    name: tee.name,
    price: '24.99',
    image_url: '/a.png',
    image: null,
    available_sizes: ['M', 'L', '2XL'],
    available: true,
    prices: { M: '24.99', L: '24.99', '2XL': '27.99' },
    colours: [
      { ...white, code: 'WHT', image_url: '/white.png', image: plainImage('/white.png'), sizes: ['M', 'L', '2XL'] },
      { ...black, code: 'BLK', image_url: '/black.png', image: plainImage('/black.png'), sizes: ['M', '2XL'] },
    ],
    ...overrides,
  });

  it("gives a line saved before colours the product's first colour, with its picture", () => {
    const [line] = parseCart(JSON.stringify([{ product: tee, size: 'M', quantity: 1 }]));
    expect(line?.colour).toBeNull();
    const view = buildCartView(line ? [line] : [], [current()]);
    expect(view.lines[0]).toMatchObject({ colourId: white.id, colourName: 'White', imageUrl: '/white.png', status: 'available' });
    expect(orderLinesOf(view.lines)).toEqual([{ productId: tee.id, colourId: white.id, size: 'M', quantity: 1 }]);
  });

  it('prices each size with its surcharge and marks a size the colour does not come in, or a colour that is gone', () => {
    const view = buildCartView(
      [
        { product: { ...tee, price: '27.99' }, colour: black, size: '2XL', quantity: 2 },
        { product: tee, colour: black, size: 'L', quantity: 1 },
        { product: tee, colour: { id: '55555555-5555-4555-8555-555555555555', name: 'Teal', hex: '#008080' }, size: 'M', quantity: 1 },
      ],
      [current()],
    );
    expect(view.lines.map((l) => [l.colourName, l.status, l.price, l.totalCents])).toEqual([
      ['Black', 'available', '27.99', 5598],
      ['Black', 'size-unavailable', '24.99', 0],
      ['Teal', 'colour-unavailable', '24.99', 0],
    ]);
    expect(view.lines[0]?.previousPrice).toBeNull();
    expect(orderLinesOf(view.lines)).toEqual([{ productId: tee.id, colourId: black.id, size: '2XL', quantity: 2 }]);
  });
});

describe('the checkout key', () => {
  const lines = [{ productId: tee.id, size: 'M', quantity: 2 }];

  it('is one key for one cart, whichever tab sends it, until the cart changes or its order is placed', () => {
    const storage = memoryStorage();
    // Two tabs: two key keepers over the one localStorage.
    const tabA = createCheckoutKeys(storage, 'cart:checkout');
    const tabB = createCheckoutKeys(storage, 'cart:checkout');
    const key = tabA.keyFor(lines);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tabB.keyFor(lines)).toBe(key);
    expect(tabA.keyFor(lines)).toBe(key);

    const changed = tabB.keyFor([{ ...lines[0]!, quantity: 3 }]);
    expect(changed).not.toBe(key);
    expect(tabA.keyFor([{ ...lines[0]!, quantity: 3 }])).toBe(changed);

    tabA.forget();
    expect(tabB.keyFor([{ ...lines[0]!, quantity: 3 }])).not.toBe(changed);
  });

  it('still gives a key when storage holds junk or refuses to keep one', () => {
    const junk = memoryStorage({ 'cart:checkout': '{not json' });
    expect(createCheckoutKeys(junk, 'cart:checkout').keyFor(lines)).toMatch(/^[0-9a-f-]{36}$/);
    expect(createCheckoutKeys(null, 'cart:checkout').keyFor(lines)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
