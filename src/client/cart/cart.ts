import { useSyncExternalStore } from 'react';
import { cartStorageKey } from '../../shared/constants';
import { storeConfig } from '../store-config';
import { cartItemCount, createCartStore, type CartLine } from './cart-store';
import { createCheckoutKeys } from './checkout-key';

export type { CartLine, CartProduct } from './cart-store';

const CART_STORAGE_KEY = cartStorageKey(storeConfig.storeName);

function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The one cart of this tab. */
export const cart = createCartStore(browserStorage(), CART_STORAGE_KEY);

/** The idempotency key checkout sends the cart with, shared by every tab. */
export const checkoutKeys = createCheckoutKeys(browserStorage(), `${CART_STORAGE_KEY}:checkout`);

if (typeof window !== 'undefined') {
  // Fired in every other tab of this origin when one tab writes the key (or clears all storage: key null).
  window.addEventListener('storage', (event) => {
    if (event.key === CART_STORAGE_KEY || event.key === null) cart.reload();
  });
}

const EMPTY: readonly CartLine[] = [];

const subscribeNever = () => () => undefined;

/**
 * False while the page is rendered on the server and hydrated, true after: the cart lives in this
 * browser's storage, so until then an empty cart means only that it has not been read yet.
 */
export function useCartRead(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

export function useCartLines(): readonly CartLine[] {
  return useSyncExternalStore(cart.subscribe, cart.getLines, () => EMPTY);
}

export function useCartCount(): number {
  return cartItemCount(useCartLines());
}
