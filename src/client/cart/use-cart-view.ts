import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '../trpc';
import { useCartLines } from './cart';
import { buildCartView, type CartView } from './cart-view';

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
