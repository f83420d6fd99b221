import { useQuery } from '@tanstack/react-query';
import { formatMoney, toCents } from '../../shared/money';
import { useTRPC, type Trpc } from '../trpc';

// What the storefront promises about shipping follows the admin's checkout settings, so a store
// that charges for shipping never says it is free.

export interface ShippingPromise {
  /** A few words for badges: "Free shipping". */
  short: string;
  /** A sentence heading: "Free shipping on every order". */
  long: string;
  /** What the buyer pays, in a sentence for the Shipping Info page. */
  detail: string;
}

export function shippingPromise(policy: { flatRate: string; freeFrom: string | null }): ShippingPromise {
  const rate = formatMoney(policy.flatRate);
  if (toCents(policy.flatRate) === 0 || (policy.freeFrom !== null && toCents(policy.freeFrom) === 0)) {
    return {
      short: 'Free shipping',
      long: 'Free shipping on every order',
      detail: 'Shipping is always free, with no minimum order. Your cart and checkout show shipping as FREE.',
    };
  }
  if (policy.freeFrom !== null) {
    const from = formatMoney(policy.freeFrom);
    return {
      short: `Free shipping from ${from}`,
      long: `Free shipping on orders of ${from} or more`,
      detail: `Orders of ${from} or more ship free; smaller orders ship for a flat ${rate}. Your cart shows the shipping before you check out.`,
    };
  }
  return {
    short: `Flat ${rate} shipping`,
    long: `Flat-rate shipping: ${rate} per order`,
    detail: `Every order ships for a flat ${rate}, however many tees are in it. Your cart shows the shipping before you check out.`,
  };
}

/** The admin's shipping settings; they change seldom. */
export const shippingPolicyOptions = (trpc: Trpc) => trpc.checkout.shippingPolicy.queryOptions(undefined, { staleTime: 5 * 60_000 });

/** The store's shipping promise, or undefined until the server has said what shipping costs. */
export function useShippingPromise(): ShippingPromise | undefined {
  const policy = useQuery(shippingPolicyOptions(useTRPC()));
  return policy.data ? shippingPromise(policy.data) : undefined;
}
