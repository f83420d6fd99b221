import { describe, expect, it } from 'vitest';
import { SLUG_PATTERN, slugify } from '../../src/shared/slug';

describe('slugify (docs/PRODUCT.md § Validation)', () => {
  it('lowercases and turns each run of other characters into one hyphen', () => {
    expect(slugify('Classic Rider Tee')).toBe('classic-rider-tee');
    expect(slugify('V-Twin   Thunder!!  2025')).toBe('v-twin-thunder-2025');
    expect(slugify('Faith & Fuel / Sunday_Drive')).toBe('faith-fuel-sunday-drive');
  });

  it('trims hyphens at both ends', () => {
    expect(slugify('  --Hello World--  ')).toBe('hello-world');
    expect(slugify('!!!Born to Ride???')).toBe('born-to-ride');
  });

  it('drops accents instead of splitting words at them', () => {
    expect(slugify('Café Racer Crème')).toBe('cafe-racer-creme');
  });

  it('gives an empty slug for a name without letters or digits', () => {
    expect(slugify('')).toBe('');
    expect(slugify(' — ★ — ')).toBe('');
  });

  it('always gives a slug the database accepts (or an empty one)', () => {
    for (const name of ['A', 'a b', '1-2-3', 'Ünïcödé ßtraße', 'x__y..z', 'ALLCAPS', 'tab\tand\nnewline']) {
      const slug = slugify(name);
      expect(slug === '' || SLUG_PATTERN.test(slug), `${name} -> ${slug}`).toBe(true);
    }
    expect(slugify('Ünïcödé Tëxt')).toBe('unicode-text');
  });
});
