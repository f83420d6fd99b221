import type { ReactNode } from 'react';
import { formatMoney, toCents } from '../../../shared/money';
import { discountLine } from '../../../shared/schemas/discounts';
import { textLinkClass } from '../ui/Button';
import type { CartQuote } from '../../cart/use-cart-view';

interface OrderSummaryProps {
  itemCount: number;
  subtotalCents: number;
  /** Shipping, tax and total as the server prices them (checkout.quote). */
  quote: CartQuote;
  /** Shown between the heading and the amounts (checkout lists the lines there). */
  items?: ReactNode;
  /** The page's actions, below the total. */
  children?: ReactNode;
  /** Takes the applied discount code off (checkout); without it no code can have been applied. */
  onRemoveDiscount?: () => void;
}

/**
 * Items count, shipping, tax and total, then the page's actions. With the store's default
 * settings shipping is FREE and there is no tax, so the total is the subtotal (docs/PRODUCT.md § Limits).
 */
export function OrderSummary({ itemCount, subtotalCents, quote, items, children, onRemoveDiscount }: OrderSummaryProps) {
  const { amounts, pricing } = quote;
  const subtotal = formatMoney(subtotalCents / 100);
  // Nothing to price (every line unavailable) costs nothing; a cart the server has not priced shows no guess.
  const unpriced = itemCount > 0 && !amounts;
  const pending = pricing ? 'Calculating...' : '—';
  const shippingFree = !unpriced && (!amounts || toCents(amounts.shipping) === 0);
  return (
    <section
      aria-labelledby="order-summary-heading"
      className="rounded-2xl bg-stone-50 p-6 ring-1 ring-stone-200 sm:p-8"
      data-testid="order-summary"
    >
      <h2 id="order-summary-heading" className="font-display text-xl font-bold text-stone-950">
        Order Summary
      </h2>
      {items}
      <dl className="mt-6 space-y-4 text-sm" aria-busy={pricing}>
        <div className="flex items-center justify-between">
          <dt className="text-stone-600">
            Items (<span data-testid="summary-items">{itemCount}</span>)
          </dt>
          <dd className="font-medium text-stone-900" data-testid="summary-subtotal">
            {subtotal}
          </dd>
        </div>
        <div className="flex items-center justify-between">
          <dt className="text-stone-600">Shipping</dt>
          <dd className={shippingFree ? 'font-semibold text-emerald-700' : 'font-medium text-stone-900'} data-testid="summary-shipping">
            {shippingFree ? 'FREE' : amounts ? formatMoney(amounts.shipping) : pending}
          </dd>
        </div>
        {amounts && toCents(amounts.tax) > 0 && (
          <div className="flex items-center justify-between">
            <dt className="text-stone-600">Tax</dt>
            <dd className="font-medium text-stone-900" data-testid="summary-tax">
              {formatMoney(amounts.tax)}
            </dd>
          </div>
        )}
        {amounts?.discountCode && (
          <div className="flex items-center justify-between gap-3" data-testid="summary-discount">
            <dt className="flex min-w-0 flex-wrap items-center gap-x-2 text-stone-600">
              <span className="break-all">{discountLine(amounts.discountCode, amounts.discount)[0]}</span>
              {onRemoveDiscount && (
                <button
                  type="button"
                  className={textLinkClass}
                  aria-label={`Remove discount code ${amounts.discountCode}`}
                  onClick={onRemoveDiscount}
                >
                  Remove
                </button>
              )}
            </dt>
            <dd className="font-medium whitespace-nowrap text-emerald-700">{discountLine(amounts.discountCode, amounts.discount)[1]}</dd>
          </div>
        )}
        <div className="flex items-center justify-between border-t border-stone-200 pt-4 text-base">
          <dt className="font-bold text-stone-950">Total</dt>
          <dd className="font-bold text-stone-950" data-testid="summary-total">
            {amounts ? formatMoney(amounts.total) : unpriced ? pending : subtotal}
          </dd>
        </div>
      </dl>
      {children}
    </section>
  );
}
