import { describe, expect, it } from 'vitest';
import { gridImageSizes } from '../../src/client/components/ui/grid-image-sizes';

// Each expected string was worked out by hand from the page's grid classes and checked against
// the rendered widths (tests/e2e/responsive-images.test.ts); the helper must give the same.
describe('gridImageSizes', () => {
  it('the shop grid: 2 columns, 3 from md, 4 from lg, gaps 16 then 24', () => {
    expect(gridImageSizes({ columns: { base: 2, md: 3, lg: 4 }, gap: { base: 16, sm: 24 } })).toBe(
      '(min-width: 1280px) 286px, (min-width: 1024px) calc((100vw - 136px) / 4), (min-width: 768px) calc((100vw - 96px) / 3), (min-width: 640px) calc((100vw - 72px) / 2), calc((100vw - 48px) / 2)',
    );
  });

  it('the home featured grid: 2 columns, 3 from md; lg still listed, for its wider padding', () => {
    expect(gridImageSizes({ columns: { base: 2, md: 3 }, gap: { base: 16, sm: 24 } })).toBe(
      '(min-width: 1280px) 389px, (min-width: 1024px) calc((100vw - 112px) / 3), (min-width: 768px) calc((100vw - 96px) / 3), (min-width: 640px) calc((100vw - 72px) / 2), calc((100vw - 48px) / 2)',
    );
  });

  it('the home category tiles: 1 column, 2 from sm, 3 from lg; md changes nothing and is left out', () => {
    expect(gridImageSizes({ columns: { base: 1, sm: 2, lg: 3 }, gap: { base: 24 } })).toBe(
      '(min-width: 1280px) 389px, (min-width: 1024px) calc((100vw - 112px) / 3), (min-width: 640px) calc((100vw - 72px) / 2), calc(100vw - 32px)',
    );
  });

  it('the product gallery: one column, then half of two with a 64 px gap from lg', () => {
    expect(gridImageSizes({ columns: { base: 1, lg: 2 }, gap: { base: 40, lg: 64 } })).toBe(
      '(min-width: 1280px) 576px, (min-width: 1024px) calc((100vw - 128px) / 2), (min-width: 640px) calc(100vw - 48px), calc(100vw - 32px)',
    );
  });
});
