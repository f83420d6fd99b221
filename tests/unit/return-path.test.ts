import { describe, expect, it } from 'vitest';
import { storePath } from '../../src/shared/return-path';

describe('storePath', () => {
  it("accepts the store's own pages, with their search and hash", () => {
    for (const path of ['/checkout', '/subscriptions/join/classic', '/orders/TL-1042', '/shop?sort=price_asc#top', '/'])
      expect(storePath(path)).toBe(path);
  });

  it('refuses anything a browser could take to another site, and addresses that are not pages', () => {
    for (const value of [
      'https://evil.example/checkout',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'checkout',
      '/\tevil',
      '/ /evil.example',
      '/trpc/auth.me',
      '/api/uploads/art',
      '/storage/art/x.png',
      '',
      `/${'a'.repeat(600)}`,
      undefined,
      42,
    ])
      expect(storePath(value)).toBeUndefined();
  });
});
