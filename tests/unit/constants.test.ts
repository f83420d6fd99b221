import { describe, expect, it } from 'vitest';
import { cartStorageKey } from '../../src/shared/constants';

describe('cartStorageKey', () => {
  it('is the store name in lower case, letters and digits only, plus _cart', () => {
    expect(cartStorageKey('Threadline')).toBe('threadline_cart');
    expect(cartStorageKey('Tee Club #1!')).toBe('teeclub1_cart');
  });
});
