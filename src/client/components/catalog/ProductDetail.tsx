import { Link } from '@tanstack/react-router';
import { Check, ChevronDown, Minus, Plus, Printer, ShoppingBag, Truck } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { preload } from 'react-dom';
import { variantSku } from '../../../shared/colours';
import { ADD_TO_CART_CONFIRM_MS, MAX_LINE_QUANTITY, type ChestPosition, type MockupSide, type Size } from '../../../shared/constants';
import type { DisplayImage } from '../../../shared/display-image';
import { formatMoney } from '../../../shared/money';
import { cart } from '../../cart/cart';
import { useShippingPromise } from '../../cart/shipping-policy';
import type { RouterOutputs } from '../../trpc';
import { Button, ButtonLink } from '../ui/Button';
import { ProductImage } from './ProductImage';
import { BackLink } from '../ui/BackLink';
import { gridImageSizes } from '../ui/grid-image-sizes';
import { Swatch } from '../ui/Swatch';

type ProductDetailData = NonNullable<RouterOutputs['catalog']['productBySlug']>;

const CHEST_LABELS: Record<ChestPosition, string> = {
  left_chest: 'Left chest print',
  full_chest: 'Full chest print',
};

const SIDE_LABELS: Record<MockupSide, string> = { front: 'Front', back: 'Back' };

const clampQuantity = (value: number) => Math.min(MAX_LINE_QUANTITY, Math.max(1, Math.floor(value)));

/** The main photo's width: the page's grid-cols-1 gap-10 lg:grid-cols-2 lg:gap-16. */
const GALLERY_SIZES = gridImageSizes({ columns: { base: 1, lg: 2 }, gap: { base: 40, lg: 64 } });
/** A side toggle's picture: the 96 px button less its 6 px padding each side. */
const SIDE_THUMB_SIZES = '84px';

/**
 * Asks the browser for the page's main photo as soon as this renders (and in the page's head when
 * rendered on the server), in the format it will pick: the preload names its type, so a browser
 * without AVIF skips it instead of fetching a file it cannot use.
 */
function preloadMainImage(image: DisplayImage | null) {
  if (!image) return;
  const best = image.sources[0];
  preload(image.src, {
    as: 'image',
    fetchPriority: 'high',
    ...(best ? { imageSrcSet: best.srcset, imageSizes: GALLERY_SIZES, type: best.type } : {}),
  });
}

/** One of the add-to-cart form's choices (size, quantity): its label above its control. */
function ProductChoice({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-stone-900">
        {label}
      </label>
      {children}
    </div>
  );
}

type ProductColour = ProductDetailData['colours'][number];

/**
 * The colour swatches: a radio group named "Colour" (arrow keys move between them, as radios do),
 * each announcing its colour's name, the chosen one's name shown beside the label.
 */
function ColourSwatches({
  colours,
  chosen,
  onChoose,
}: {
  colours: readonly ProductColour[];
  chosen: ProductColour;
  onChoose: (colour: ProductColour) => void;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-stone-900">
        Colour:{' '}
        <span className="font-normal text-stone-700" data-testid="chosen-colour">
          {chosen.name}
        </span>
      </legend>
      <div role="radiogroup" aria-label="Colour" className="mt-3 flex flex-wrap gap-3">
        {colours.map((colour) => (
          <label key={colour.id} className="relative cursor-pointer" title={colour.name}>
            <input
              type="radio"
              name={name}
              value={colour.slug}
              checked={colour.id === chosen.id}
              onChange={() => onChoose(colour)}
              aria-label={colour.name}
              // Over the swatch, drawn by it: the swatch is what is seen and clicked, the radio what is announced.
              className="peer absolute inset-0 size-full cursor-pointer appearance-none rounded-full bg-transparent"
            />
            <Swatch
              hex={colour.hex}
              className="pointer-events-none relative block size-10 ring-offset-2 transition peer-checked:ring-2 peer-checked:ring-accent-600 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-4 peer-focus-visible:outline-accent-600"
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Product page body; give it `key={product.id}` so moving to another product starts fresh. */
export function ProductDetail({
  product,
  colourSlug,
  onColourChange,
}: {
  product: ProductDetailData;
  /** The colour in the address (?colour=black); absent or unknown: the first. */
  colourSlug?: string | undefined;
  onColourChange?: (slug: string) => void;
}) {
  const sizeId = useId();
  const quantityId = useId();
  const shipping = useShippingPromise();
  const [side, setSide] = useState<MockupSide>(product.default_mockup_side);
  const colour = product.colours.find((c) => c.slug === colourSlug) ?? product.colours[0] ?? null;
  /** Sizes the chosen colour comes in; the others are shown, disabled. */
  const colourSizes: readonly string[] = colour?.sizes ?? product.available_sizes;
  const [chosenSize, setSize] = useState(product.available_sizes[0] ?? '');
  // A size the colour does not come in gives way to its first one.
  const size = colourSizes.includes(chosenSize) ? chosenSize : (colourSizes[0] ?? '');
  const price = (size && product.prices[size as keyof typeof product.prices]) || product.price;
  const [quantity, setQuantity] = useState(1);
  const [confirming, setConfirming] = useState<{ quantity: number; size: string } | null>(null);

  useEffect(() => {
    if (!confirming) return;
    const timer = setTimeout(() => setConfirming(null), ADD_TO_CART_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [confirming]);

  const mockups: Partial<Record<MockupSide, DisplayImage>> = {};
  const front = colour?.front_mockup ?? product.front_mockup;
  const back = colour?.back_mockup ?? product.back_mockup;
  if (front) mockups.front = front;
  if (back) mockups.back = back;
  // The toggle exists only when both sides have a mockup (docs/PRODUCT.md § Screens).
  const hasBothSides = Boolean(mockups.front && mockups.back);
  // What the page opens on: the default side, or the one picture there is.
  const mainImage = hasBothSides
    ? (mockups[product.default_mockup_side] ?? null)
    : ((colour === product.colours[0] ? product.image : null) ?? mockups.front ?? mockups.back ?? product.image ?? null);
  preloadMainImage(mainImage);

  const addToCart = (event: FormEvent) => {
    event.preventDefault();
    if (!size || confirming) return;
    const picture = mockups[product.default_mockup_side] ?? mainImage;
    const added = cart.add(
      {
        id: product.id,
        slug: product.slug,
        name: product.name,
        image_url: (product.default_mockup_side === 'back' ? colour?.back_mockup_url : colour?.front_mockup_url) ?? product.image_url,
        image: picture,
        price,
      },
      colour && { id: colour.id, name: colour.name, hex: colour.hex },
      size,
      quantity,
    );
    setConfirming({ quantity: added, size: colour && product.colours.length > 1 ? `${size} in ${colour.name}` : size });
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-12 lg:px-8">
      <BackLink to="/shop" weight="semibold">
        Back to Shop
      </BackLink>

      <div className="mt-6 grid gap-10 lg:grid-cols-2 lg:gap-16">
        <div>
          <div
            className="relative aspect-[4/5] overflow-hidden rounded-2xl bg-stone-100 ring-1 ring-stone-900/5"
            data-testid="product-gallery"
          >
            {hasBothSides ? (
              // Both sides stay in the page (eager) so switching is instant; only the chosen one is shown.
              (['front', 'back'] as const).map((s) => (
                <div key={s} hidden={s !== side} className="absolute inset-0">
                  <ProductImage
                    image={mockups[s]}
                    alt={`${product.name}, ${s}`}
                    sizes={GALLERY_SIZES}
                    priority={mockups[s] === mainImage}
                    loading="eager"
                    className="size-full object-cover"
                  />
                </div>
              ))
            ) : (
              <ProductImage
                image={mainImage}
                alt={product.name}
                sizes={GALLERY_SIZES}
                priority
                className="absolute inset-0 size-full object-cover"
              />
            )}
          </div>
          {hasBothSides && (
            <div role="group" aria-label="Mockup side" className="mt-4 flex gap-3">
              {(['front', 'back'] as const).map((s) => (
                <button
                  key={s}
                  type="button"
                  aria-pressed={s === side}
                  onClick={() => setSide(s)}
                  className="group flex w-24 flex-col items-center gap-1.5 rounded-xl p-1.5 text-sm font-semibold text-stone-600 ring-1 ring-stone-200 transition hover:ring-stone-400 aria-pressed:text-stone-950 aria-pressed:ring-2 aria-pressed:ring-accent-600"
                >
                  <span className="block aspect-[4/5] w-full overflow-hidden rounded-lg bg-stone-100">
                    <ProductImage image={mockups[s]} alt="" sizes={SIDE_THUMB_SIZES} className="size-full object-cover" />
                  </span>
                  {SIDE_LABELS[s]}
                </button>
              ))}
            </div>
          )}
        </div>

        <div className="flex flex-col">
          <Link
            to="/category/$slug"
            params={{ slug: product.category_slug }}
            className="self-start rounded-md text-sm font-semibold tracking-widest text-accent-700 uppercase hover:text-accent-800"
            data-testid="product-category-link"
          >
            {product.category_name}
          </Link>
          <h1 className="font-display mt-2 text-3xl font-extrabold tracking-tight text-balance text-stone-950 sm:text-4xl">
            {product.name}
          </h1>
          <p className="mt-4 text-2xl font-bold text-stone-950" data-testid="product-price">
            {formatMoney(price)}
          </p>
          <p className="mt-6 text-base leading-7 whitespace-pre-line text-stone-700">{product.description}</p>

          <form onSubmit={addToCart} className="mt-8 border-t border-stone-200 pt-8">
            {colour && product.colours.length > 0 && (
              <div className="mb-6">
                <ColourSwatches colours={product.colours} chosen={colour} onChoose={(next) => onColourChange?.(next.slug)} />
              </div>
            )}
            <div className="grid gap-6 sm:grid-cols-2">
              <ProductChoice id={sizeId} label="Size">
                <div className="relative mt-2">
                  <select
                    id={sizeId}
                    value={size}
                    onChange={(event) => setSize(event.target.value)}
                    disabled={product.available_sizes.length === 0}
                    className="h-12 w-full appearance-none rounded-xl border border-stone-300 bg-white pr-10 pl-4 text-base font-medium text-stone-900 shadow-sm transition hover:border-stone-400 disabled:bg-stone-100 disabled:text-stone-500"
                  >
                    {product.available_sizes.length === 0 && <option value="">No sizes available</option>}
                    {product.available_sizes.map((s) => (
                      <option key={s} value={s} disabled={!colourSizes.includes(s)}>
                        {colourSizes.includes(s) ? s : `${s} (not in ${colour?.name ?? 'this colour'})`}
                      </option>
                    ))}
                  </select>
                  <ChevronDown
                    className="pointer-events-none absolute top-1/2 right-3.5 size-5 -translate-y-1/2 text-stone-500"
                    aria-hidden="true"
                  />
                </div>
              </ProductChoice>
              <ProductChoice id={quantityId} label="Quantity">
                <div className="mt-2 inline-flex h-12 items-center rounded-xl border border-stone-300 bg-white shadow-sm">
                  <button
                    type="button"
                    aria-label="Decrease quantity"
                    onClick={() => setQuantity((q) => clampQuantity(q - 1))}
                    disabled={quantity <= 1}
                    className="inline-flex size-12 items-center justify-center rounded-l-xl text-stone-700 transition hover:bg-stone-100 disabled:cursor-not-allowed disabled:text-stone-300 disabled:hover:bg-transparent"
                  >
                    <Minus className="size-4" aria-hidden="true" />
                  </button>
                  <input
                    id={quantityId}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={MAX_LINE_QUANTITY}
                    value={quantity}
                    onChange={(event) => {
                      const value = Number.parseInt(event.target.value, 10);
                      setQuantity(Number.isNaN(value) ? 1 : clampQuantity(value));
                    }}
                    className="h-full w-14 border-x border-stone-200 text-center text-base font-semibold text-stone-900 [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
                  />
                  <button
                    type="button"
                    aria-label="Increase quantity"
                    onClick={() => setQuantity((q) => clampQuantity(q + 1))}
                    disabled={quantity >= MAX_LINE_QUANTITY}
                    className="inline-flex size-12 items-center justify-center rounded-r-xl text-stone-700 transition hover:bg-stone-100 disabled:cursor-not-allowed disabled:text-stone-300 disabled:hover:bg-transparent"
                  >
                    <Plus className="size-4" aria-hidden="true" />
                  </button>
                </div>
              </ProductChoice>
            </div>

            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button
                type="submit"
                variant={confirming?.quantity ? 'success' : 'accent'}
                size="xl"
                className="sm:flex-1"
                disabled={!size}
                // Not `disabled` while it confirms: a disabled button drops the keyboard focus.
                aria-disabled={confirming !== null || undefined}
              >
                {confirming?.quantity ? (
                  <Check className="size-5" aria-hidden="true" />
                ) : (
                  <ShoppingBag className="size-5" aria-hidden="true" />
                )}
                {confirming?.quantity ? 'Added to Cart!' : 'Add to Cart'}
              </Button>
              <ButtonLink to="/cart" variant="secondary" size="xl" className="sm:flex-1">
                View Cart
              </ButtonLink>
            </div>
            {/* Nothing added (the line is as full as a line gets): said on the page, not only to screen readers. */}
            <p role="status" className={confirming?.quantity === 0 ? 'mt-3 text-sm font-medium text-amber-900' : 'sr-only'}>
              {confirming?.quantity
                ? `${confirming.quantity} × ${product.name}, size ${confirming.size}, added to your cart.`
                : confirming
                  ? `Your cart already holds as many of this tee in size ${confirming.size} as one order can take.`
                  : ''}
            </p>
            {product.available_sizes.length === 0 && (
              <p className="mt-3 text-sm text-stone-600">This design is not available in any size right now.</p>
            )}
          </form>

          <ul className="mt-8 grid gap-3 rounded-2xl bg-stone-50 p-5 text-sm text-stone-700 ring-1 ring-stone-200">
            <li className="flex items-center gap-3">
              <Printer className="size-5 shrink-0 text-accent-600" aria-hidden="true" />
              {CHEST_LABELS[product.chest_position]}, printed on demand just for you
            </li>
            {shipping && (
              <li className="flex items-center gap-3">
                <Truck className="size-5 shrink-0 text-accent-600" aria-hidden="true" />
                {shipping.long}
              </li>
            )}
            <li className="pl-8 text-xs tracking-wide text-stone-500 uppercase">
              SKU {colour && size ? variantSku(product.sku_number, colour.code, size as Size) : product.sku_number}
            </li>
          </ul>
        </div>
      </div>
    </div>
  );
}

export function ProductDetailSkeleton() {
  return (
    <div aria-hidden="true" className="mx-auto max-w-7xl animate-pulse px-4 py-8 sm:px-6 sm:py-12 lg:px-8">
      <div className="h-5 w-28 rounded bg-stone-200" />
      <div className="mt-6 grid gap-10 lg:grid-cols-2 lg:gap-16">
        <div className="aspect-[4/5] rounded-2xl bg-stone-200" />
        <div className="space-y-4">
          <div className="h-4 w-24 rounded bg-stone-200" />
          <div className="h-9 w-3/4 rounded bg-stone-200" />
          <div className="h-7 w-24 rounded bg-stone-200" />
          <div className="h-24 w-full rounded bg-stone-200" />
        </div>
      </div>
    </div>
  );
}
