import { describe, expect, it } from 'vitest';
import { shopSearch } from '../../src/client/components/catalog/catalog-search';
import { flag, id, oneOf, pageNumber, text } from '../../src/client/search-params';

// What a hand-edited or stale address reads as: the router hands over JSON-parsed values.
describe('search params', () => {
  it('reads a known value and drops anything else', () => {
    expect(oneOf(['signin', 'signup'], 'signup')).toBe('signup');
    expect(oneOf(['signin', 'signup'], 'admin')).toBeUndefined();
    expect(oneOf(['signin', 'signup'], ['signup'])).toBeUndefined();
  });

  it('reads text trimmed, and drops empty, too long or non-text values', () => {
    expect(text('  Club question ')).toBe('Club question');
    expect(text('   ')).toBeUndefined();
    expect(text('x'.repeat(201), 200)).toBeUndefined();
    expect(text(123456)).toBeUndefined();
  });

  it('reads page numbers, ids and flags only in their own form', () => {
    expect(pageNumber(3)).toBe(3);
    for (const junk of [0, -1, 2.5, '3', 100_001]) expect(pageNumber(junk)).toBeUndefined();
    expect(id('7d1f1f7e-2c4b-4a53-9e7a-1c2d3e4f5a6b')).toBe('7d1f1f7e-2c4b-4a53-9e7a-1c2d3e4f5a6b');
    expect(id('7d1f1f7e')).toBeUndefined();
    expect(flag(true)).toBe(true);
    expect(flag('true')).toBeUndefined();
  });

  it("falls back to the shop's default sort", () => {
    // As the router calls it: with whatever the address held.
    const read = (raw: Record<string, unknown>) => shopSearch(raw as Parameters<typeof shopSearch>[0]);
    expect(read({ sort: 'price-low', category: 'car' })).toEqual({ sort: 'price-low', category: 'car' });
    expect(read({ sort: 'cheapest' })).toEqual({ sort: 'newest', category: undefined });
  });
});
