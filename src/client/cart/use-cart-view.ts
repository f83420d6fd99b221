import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC, type RouterOutputs } from '../trpc';
import { useCartLines } from './cart';
import { buildCartView, orderLinesOf, type CartView } from './cart-view';

export interface CartViewState extends CartView {
  /** True until the server has answered for the products in the cart. */
  isChecking: boolean;
}

/** The cart with today's prices and availability, re-read whenever the cart page or checkout is shown. */
export function useCartView(): CartViewState {
  const trpc = useTRPC();
  const lines = useCartLines();
  const ids = useMemo(() => [...new Set(lines.map((line) => line.product.id))].sort(), [lines]);
  const current = useQuery(
    trpc.catalog.cartProducts.queryOptions(
      { ids },
      {
        enabled: ids.length > 0,
        staleTime: 0,
        // Removing a line changes the ids; the previous answer still covers every remaining line.
        placeholderData: keepPreviousData,
      },
    ),
  );
  const view = useMemo(() => buildCartView(lines, current.data), [lines, current.data]);
  return { ...view, isChecking: ids.length > 0 && current.isPending };
}

/** The cart as the server prices it (checkout.quote): lines, shipping, tax, total, and how payment works. */
export type CartAmounts = RouterOutputs['checkout']['quote'];

export interface CartQuote {
  /** The amounts of the cart as it is now; undefined when nothing can be bought or the server could not price it. */
  amounts: CartAmounts | undefined;
  /** True while the server prices a changed cart (or a new discount code, the previous amounts still shown). */
  pricing: boolean;
}

/**
 * The server's price of the buyable lines: the same shipping, tax, discount and total the order
 * will be charged. With a discount code the server applies it, or prices without it and says why.
 */
export function useCartQuote(view: CartView, discountCode: string | null = null): CartQuote {
  const trpc = useTRPC();
  const lines = useMemo(() => orderLinesOf(view.lines), [view.lines]);
  const quote = useQuery(
    trpc.checkout.quote.queryOptions(
      { lines, ...(discountCode ? { discountCode } : {}) },
      // While a new code is priced the cart's amounts stay in view: only the code's line changes.
      { enabled: lines.length > 0, staleTime: 0, placeholderData: discountCode ? keepPreviousData : undefined },
    ),
  );
  if (lines.length === 0) return { amounts: undefined, pricing: false };
  return { amounts: quote.data, pricing: (quote.isPending && quote.fetchStatus !== 'idle') || quote.isPlaceholderData };
}
