import { Link } from '@tanstack/react-router';
import { AlertTriangle, Minus, Plus, Trash2 } from 'lucide-react';
import { MAX_LINE_QUANTITY } from '../../../shared/constants';
import { formatMoney } from '../../../shared/money';
import { cart } from '../../cart/cart';
import { variantLabel, type CartViewLine } from '../../cart/cart-view';
import { ProductImage } from '../catalog/ProductImage';
import { Button } from '../ui/Button';
import { Swatch } from '../ui/Swatch';

const stepButton =
  'inline-flex size-9 items-center justify-center text-stone-700 transition hover:bg-stone-100 disabled:cursor-not-allowed disabled:text-stone-300 disabled:hover:bg-transparent';

/** The thumbnail's width: w-20, sm:w-28. */
const THUMB_SIZES = '(min-width: 640px) 112px, 80px';

/** The line's photo, greyed out when the line can no longer be bought. */
function LineThumbnail({ line, dimmed }: { line: CartViewLine; dimmed: boolean }) {
  return (
    <div className={`w-20 shrink-0 sm:w-28 ${dimmed ? 'opacity-50 grayscale' : ''}`}>
      <div className="relative aspect-[4/5] overflow-hidden rounded-xl bg-stone-100 ring-1 ring-stone-900/5">
        <ProductImage image={line.image} alt={line.name} sizes={THUMB_SIZES} className="absolute inset-0 size-full object-cover" />
      </div>
    </div>
  );
}

/**
 * One cart line: image, name, size, today's price, quantity minus/plus and remove. `onRemove` is
 * told when the line's own buttons take it away (Remove, or minus at 1), before it goes.
 */
export function CartLineItem({ line, onRemove }: { line: CartViewLine; onRemove: () => void }) {
  const available = line.status === 'available';
  const label = `${line.name} (${variantLabel(line)})`;
  const setQuantity = (quantity: number) => {
    if (quantity < 1) onRemove();
    cart.setQuantity(line.key, quantity);
  };

  return (
    <li className="flex gap-4 py-6 sm:gap-6" data-testid="cart-line">
      <LineThumbnail line={line} dimmed={!available} />

      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
          <div className="min-w-0">
            <h3 className="text-base font-semibold text-stone-900">
              {available && line.slug ? (
                <Link to="/product/$slug" params={{ slug: line.slug }} className="rounded-sm hover:text-accent-700">
                  {line.name}
                </Link>
              ) : (
                line.name
              )}
            </h3>
            {line.colourName && (
              <p className="mt-1 flex items-center gap-1.5 text-sm text-stone-600" data-testid="line-colour">
                {line.colourHex && <Swatch hex={line.colourHex} className="size-3" />}
                Colour: {line.colourName}
              </p>
            )}
            <p className="mt-1 text-sm text-stone-600">Size: {line.size}</p>
          </div>
          <div className="text-right">
            <p className="text-base font-semibold text-stone-900" data-testid="line-price">
              {formatMoney(line.price)}
            </p>
            {line.previousPrice && available && (
              <p className="text-xs text-stone-500" data-testid="price-changed">
                Price changed from <s>{formatMoney(line.previousPrice)}</s>
              </p>
            )}
          </div>
        </div>

        {!available && (
          <p
            className="mt-3 flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-amber-200"
            data-testid="line-unavailable"
          >
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {line.status === 'size-unavailable'
              ? `Size ${line.size} is no longer available${line.colourName ? ` in ${line.colourName}` : ''}. Please remove it from your cart.`
              : line.status === 'colour-unavailable'
                ? `${line.colourName ?? 'This colour'} is no longer available. Please remove it from your cart.`
                : 'This product is no longer available. Please remove it from your cart.'}
          </p>
        )}

        <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-4">
          {available ? (
            <div className="inline-flex items-center rounded-full border border-stone-300 bg-white">
              <button
                type="button"
                className={`${stepButton} rounded-l-full`}
                aria-label={`Decrease quantity of ${label}`}
                onClick={() => setQuantity(line.quantity - 1)}
              >
                <Minus className="size-4" aria-hidden="true" />
              </button>
              <span className="w-10 text-center text-sm font-semibold text-stone-900">
                <span className="sr-only">Quantity </span>
                <span data-testid="line-quantity">{line.quantity}</span>
              </span>
              <button
                type="button"
                className={`${stepButton} rounded-r-full`}
                aria-label={`Increase quantity of ${label}`}
                onClick={() => setQuantity(line.quantity + 1)}
                disabled={line.quantity >= MAX_LINE_QUANTITY}
              >
                <Plus className="size-4" aria-hidden="true" />
              </button>
            </div>
          ) : (
            <span />
          )}
          <Button
            variant="ghost-danger"
            size="sm"
            pill
            icon={Trash2}
            onClick={() => {
              onRemove();
              cart.remove(line.key);
            }}
            aria-label={`Remove ${label}`}
          >
            Remove
          </Button>
        </div>
      </div>
    </li>
  );
}
