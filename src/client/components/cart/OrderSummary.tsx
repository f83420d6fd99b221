import type { ReactNode } from 'react';
import { formatMoney } from '../../../shared/money';

interface OrderSummaryProps {
  itemCount: number;
  subtotalCents: number;
  /** Shown between the heading and the amounts (checkout lists the lines there). */
  items?: ReactNode;
  /** The page's actions, below the total. */
  children?: ReactNode;
}

/** Items count, Shipping FREE and Total (= subtotal: no tax, free shipping, SPEC §9), then the page's actions. */
export function OrderSummary({ itemCount, subtotalCents, items, children }: OrderSummaryProps) {
  const subtotal = formatMoney(subtotalCents / 100);
  return (
    <section aria-labelledby="order-summary-heading" className="rounded-2xl bg-stone-50 p-6 ring-1 ring-stone-200 sm:p-8" data-testid="order-summary">
      <h2 id="order-summary-heading" className="font-display text-xl font-bold text-stone-950">
        Order Summary
      </h2>
      {items}
      <dl className="mt-6 space-y-4 text-sm">
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
          <dd className="font-semibold text-emerald-700">FREE</dd>
        </div>
        <div className="flex items-center justify-between border-t border-stone-200 pt-4 text-base">
          <dt className="font-bold text-stone-950">Total</dt>
          <dd className="font-bold text-stone-950" data-testid="summary-total">
            {subtotal}
          </dd>
        </div>
      </dl>
      {children}
    </section>
  );
}
