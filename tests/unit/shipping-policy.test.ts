import { describe, expect, it } from 'vitest';
import { shippingPromise } from '../../src/client/cart/shipping-policy';

// The storefront's shipping promise follows the checkout settings: free only when it is free.

describe('shippingPromise', () => {
  it('promises free shipping on every order when the rate is 0, or the threshold is 0', () => {
    expect(shippingPromise({ flatRate: '0.00', freeFrom: null })).toMatchObject({
      short: 'Free shipping',
      long: 'Free shipping on every order',
    });
    expect(shippingPromise({ flatRate: '5.00', freeFrom: '0.00' }).long).toBe('Free shipping on every order');
  });

  it('names the threshold and the rate below it', () => {
    const promise = shippingPromise({ flatRate: '4.95', freeFrom: '75.00' });
    expect(promise).toMatchObject({ short: 'Free shipping from $75.00', long: 'Free shipping on orders of $75.00 or more' });
    expect(promise.detail).toContain('a flat $4.95');
  });

  it('names a flat rate that always applies, and never says free', () => {
    const promise = shippingPromise({ flatRate: '4.95', freeFrom: null });
    expect(promise).toMatchObject({ short: 'Flat $4.95 shipping', long: 'Flat-rate shipping: $4.95 per order' });
    expect(JSON.stringify(promise)).not.toMatch(/free/i);
  });
});
