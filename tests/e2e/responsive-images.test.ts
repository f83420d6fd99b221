import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database';
import { makeDisplayCopies } from '../../src/server/display-copies';
import { renderMockup } from '../../src/server/mockups/render';
import { CATEGORIES, PRODUCTS } from '../../src/server/seed/data';
import { generateSeedImages } from '../../src/server/seed/images';
import { parseStorageUrl, type Storage } from '../../src/server/storage/storage';
import { DEFAULT_BACK_ART_POSITION, DEFAULT_FRONT_ART_POSITION } from '../../src/shared/constants';
import { saveScreenshot, sharedBrowserApp, VIEWPORTS } from '../support/browser';

// Responsive images: storefront pages show display copies (AVIF, WebP) of print-
// resolution mockups through <picture>, with width and height, lazy below the fold, and the
// product page's main photo fetched first; the 3600 px originals never reach a shopper.

const PRODUCT_COUNT = 8;

/** The demo designs' first products, each with a front mockup rendered at print resolution (the first one a back too), stored with copies. */
async function printResolutionCatalog(db: Db, storage: Storage) {
  const demo = PRODUCTS.slice(0, PRODUCT_COUNT);
  const images = await generateSeedImages(
    storage,
    demo.map((p) => ({ slug: p.slug, palette: p.palette, front: p.front, back: p.back, chestPosition: 'full_chest' })),
  );
  const read = async (url: string) => {
    const { bucket, key } = parseStorageUrl(url)!;
    return Buffer.from((await storage.get(bucket, key))!);
  };
  /** Renders as the mockup generator does, and stores with copies as it does. */
  const mockup = async (slug: string, side: 'front' | 'back', artUrl: string) => {
    const template = await read(side === 'front' ? images.template.front : images.template.back);
    const position = side === 'front' ? DEFAULT_FRONT_ART_POSITION : DEFAULT_BACK_ART_POSITION;
    const png = await renderMockup(template, await read(artUrl), position);
    const { url } = await storage.put('mockups', `${slug}-${side}-print.png`, png, 'image/png');
    await makeDisplayCopies(db, storage, url);
    return url;
  };

  const category = CATEGORIES[0]!;
  const banner = images.banners.motorcycle;
  await makeDisplayCopies(db, storage, banner);
  const { id: categoryId } = await db
    .insertInto('categories')
    .values({ slug: category.slug, name: category.name, description: category.description, image_url: banner, sort_order: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [index, product] of demo.entries()) {
    const art = images.products.get(product.slug)!;
    const front = await mockup(product.slug, 'front', art.frontArtUrl);
    const back = index === 0 ? await mockup(product.slug, 'back', art.backArtUrl) : null;
    await db
      .insertInto('products')
      .values({
        sku_number: product.sku,
        slug: product.slug,
        name: product.name,
        description: product.description,
        price: product.price,
        image_url: front,
        front_art_url: art.frontArtUrl,
        back_art_url: art.backArtUrl,
        front_mockup_url: front,
        back_mockup_url: back,
        category_id: categoryId,
        // Newest first on /shop: in the order of the list.
        created_at: new Date(Date.now() - index * 60_000),
      })
      .execute();
  }
}

/** Bytes of every image the page fetches (body sizes), by URL. */
function recordImages(page: Page): Map<string, number> {
  const fetched = new Map<string, number>();
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'image') return;
    const path = new URL(response.url()).pathname;
    void response.body().then(
      (body) => fetched.set(path, body.length),
      () => fetched.set(path, 0),
    );
  });
  return fetched;
}

const total = (fetched: Map<string, number>) => [...fetched.values()].reduce((sum, bytes) => sum + bytes, 0);

const COPY = /^\/storage\/(mockups|categories)\/[\w.-]+\.png\.\d+w\.(avif|webp)$/;

interface PictureFacts {
  sourceTypes: (string | null)[];
  srcsets: string[];
  width: string | null;
  height: string | null;
  sizes: string | null;
  loading: string;
  fetchPriority: string | null;
  currentSrc: string;
  loaded: boolean;
}

/** What the page says about each <img> matching `selector`: its <picture>'s sources and its own attributes. */
const pictures = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((images) =>
    (images as HTMLImageElement[]).map((img): PictureFacts => {
      const sources = img.parentElement?.tagName === 'PICTURE' ? Array.from(img.parentElement.querySelectorAll('source')) : [];
      return {
        sourceTypes: sources.map((source) => source.getAttribute('type')),
        srcsets: sources.map((source) => source.getAttribute('srcset') ?? ''),
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
        sizes: img.getAttribute('sizes'),
        loading: img.loading,
        fetchPriority: img.getAttribute('fetchpriority'),
        currentSrc: new URL(img.currentSrc || img.src).pathname,
        loaded: img.complete && img.naturalWidth > 0,
      };
    }),
  );

/**
 * saveScreenshot, after one throwaway capture: a full-page capture resizes the viewport, Chromium
 * then picks each <picture>'s source again, and the first capture can catch an image (seen: the
 * Back toggle's) before it is painted again. On screen, and in the second capture, it is there.
 */
async function settledScreenshot(page: Page, name: string) {
  await page.screenshot({ fullPage: true });
  await page.waitForTimeout(300);
  await saveScreenshot(page, name);
}

/** The stored size of each original the page would have shown before copies. */
async function originalBytes(env: { storage: Storage }, urls: string[]) {
  let sum = 0;
  for (const url of urls) {
    const { bucket, key } = parseStorageUrl(url)!;
    sum += (await env.storage.get(bucket, key))!.length;
  }
  return sum;
}

describe('responsive images', () => {
  const env = sharedBrowserApp({ seed: printResolutionCatalog });

  const originals = () => env.db.selectFrom('products').select(['slug', 'image_url', 'front_mockup_url', 'back_mockup_url']).execute();

  it('shop at 375 px: every card is a <picture> of AVIF/WebP copies with width and height; the first row first; a fraction of the originals\u2019 bytes', async () => {
    const page = await env.newPage({ viewport: VIEWPORTS.mobile });
    const fetched = recordImages(page);
    await page.goto('/shop');
    const cards = page.getByTestId('product-grid').locator('img');
    await expect.poll(() => cards.count()).toBe(PRODUCT_COUNT);
    await page.waitForLoadState('networkidle');

    const facts = await pictures(page, '[data-testid="product-grid"] img');
    for (const [index, fact] of facts.entries()) {
      expect(fact.sourceTypes, `card ${index}`).toEqual(['image/avif', 'image/webp']);
      for (const srcset of fact.srcsets) expect(srcset).toMatch(/ 320w, .* 640w, .* 960w, .* 1440w$/);
      expect([fact.width, fact.height]).toEqual(['3600', '4320']);
      expect(fact.sizes).toContain('calc((100vw - 48px) / 2)');
      // The first row (two rows on a phone) is fetched first; the rest waits for the shopper to scroll near.
      expect([fact.fetchPriority, fact.loading], `card ${index}`).toEqual(index < 4 ? ['high', 'eager'] : [null, 'lazy']);
    }
    // What the browser chose: a display copy in the best format, small enough for a 2-column grid.
    const shown = facts.filter((fact) => fact.loaded);
    expect(shown.length).toBeGreaterThanOrEqual(4);
    for (const fact of shown) expect(fact.currentSrc).toMatch(/\.png\.(320|640)w\.avif$/);

    // Nothing but display copies was fetched (no original, no second format of the same picture).
    const storagePaths = [...fetched.keys()].filter((path) => path.startsWith('/storage/'));
    for (const path of storagePaths) expect(path).toMatch(COPY);
    expect(storagePaths.every((path) => path.endsWith('.avif'))).toBe(true);
    const products = await originals();
    const before = await originalBytes(
      env,
      products.slice(0, shown.length).map((p) => p.image_url!),
    );
    const after = total(fetched);
    console.log(`/shop at 375 px: ${after} bytes of images (${storagePaths.length} files); the same cards as originals: ${before} bytes`);
    expect(after).toBeLessThan(200_000);
    expect(after * 20).toBeLessThan(before);
    await settledScreenshot(page, 'responsive-shop-375');
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('product page at 375 px: the main photo is preloaded and fetched first, never lazy, as a display copy', async () => {
    const [product] = await originals();
    const page = await env.newPage({ viewport: VIEWPORTS.mobile });
    const fetched = recordImages(page);
    await page.goto(`/product/${product!.slug}`);
    await page.getByRole('button', { name: 'Add to Cart' }).waitFor();
    await page.waitForLoadState('networkidle');

    const [front, back] = await pictures(page, '[data-testid="product-gallery"] img');
    expect(front!.sourceTypes).toEqual(['image/avif', 'image/webp']);
    expect([front!.width, front!.height]).toEqual(['3600', '4320']);
    expect(front!.fetchPriority).toBe('high');
    expect(front!.loading).toBe('eager');
    expect(front!.loaded).toBe(true);
    // 343 CSS px at 1x: the 640 px copy covers it (the phone's viewport here has no higher density).
    expect(front!.currentSrc).toMatch(/-front-print\.png\.640w\.avif$/);
    // The back side waits hidden, loaded so the toggle is instant, but not fetched first.
    expect([back!.fetchPriority, back!.loading]).toEqual([null, 'eager']);

    const preload = page.locator('head link[rel="preload"][as="image"]');
    expect(await preload.count()).toBe(1);
    expect(await preload.getAttribute('fetchpriority')).toBe('high');
    expect(await preload.getAttribute('type')).toBe('image/avif');
    expect(await preload.getAttribute('imagesrcset')).toBe(
      await page.locator('[data-testid="product-gallery"] source[type="image/avif"]').first().getAttribute('srcset'),
    );

    // The side toggles' thumbnails are pictures too.
    const thumbs = await pictures(page, '[aria-label="Mockup side"] img');
    expect(thumbs.map((fact) => fact.sourceTypes)).toEqual([
      ['image/avif', 'image/webp'],
      ['image/avif', 'image/webp'],
    ]);

    const storagePaths = [...fetched.keys()].filter((path) => path.startsWith('/storage/'));
    for (const path of storagePaths) expect(path).toMatch(COPY);
    const before = await originalBytes(env, [product!.front_mockup_url!, product!.back_mockup_url!]);
    const after = total(fetched);
    console.log(
      `/product at 375 px: ${after} bytes of images (${storagePaths.length} files); its two mockups as originals: ${before} bytes`,
    );
    expect(after).toBeLessThan(150_000);
    await settledScreenshot(page, 'responsive-product-375');

    // Added to the cart, the line's thumbnail is a small copy too.
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('link', { name: 'View Cart' }).click();
    const thumb = page.getByTestId('cart-line').locator('img');
    await thumb.waitFor();
    await expect.poll(async () => (await pictures(page, '[data-testid="cart-line"] img'))[0]?.loaded).toBe(true);
    const [line] = await pictures(page, '[data-testid="cart-line"] img');
    expect(line!.sourceTypes).toEqual(['image/avif', 'image/webp']);
    expect([line!.sizes, line!.loading]).toEqual(['(min-width: 640px) 112px, 80px', 'lazy']);
    // The 320 px copy, or the 640 px one the product page left in the cache (Chromium takes a cached larger candidate).
    expect(line!.currentSrc).toMatch(/-front-print\.png\.(320|640)w\.avif$/);
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('at 1280 px the shop, a product, its category and the home page show copies sized for the layout, and look right', async () => {
    const [product] = await originals();
    const page = await env.newPage({ viewport: VIEWPORTS.desktop });
    const fetched = recordImages(page);

    await page.goto('/shop');
    await expect.poll(() => page.getByTestId('product-grid').locator('img').count()).toBe(PRODUCT_COUNT);
    await page.waitForLoadState('networkidle');
    // Four 286 px columns: the 320 px copies.
    for (const fact of (await pictures(page, '[data-testid="product-grid"] img')).filter((f) => f.loaded)) {
      expect(fact.currentSrc).toMatch(/\.png\.320w\.avif$/);
    }
    console.log(`/shop at 1280 px: ${total(fetched)} bytes of images`);
    await settledScreenshot(page, 'responsive-shop-1280');

    fetched.clear();
    await page.goto(`/product/${product!.slug}`);
    await page.getByRole('button', { name: 'Add to Cart' }).waitFor();
    await page.waitForLoadState('networkidle');
    const [front] = await pictures(page, '[data-testid="product-gallery"] img');
    expect(front!.currentSrc).toMatch(/\.png\.640w\.avif$/);
    console.log(`/product at 1280 px: ${total(fetched)} bytes of images`);
    await settledScreenshot(page, 'responsive-product-1280');

    await page.goto(`/category/${CATEGORIES[0]!.slug}`);
    await page.getByTestId('product-grid').locator('img').first().waitFor();
    await page.waitForLoadState('networkidle');
    const [banner] = await pictures(page, '[data-testid="category-banner"] img');
    expect(banner!.sourceTypes).toEqual(['image/avif', 'image/webp']);
    expect([banner!.fetchPriority, banner!.loading, banner!.sizes]).toEqual(['high', 'eager', '100vw']);
    expect(banner!.currentSrc).toMatch(/\.png\.1440w\.avif$/);
    await settledScreenshot(page, 'responsive-category-1280');

    // The home page's category tile: the same banner's copies, at a third of the width, lazily.
    await page.goto('/');
    await page.getByTestId('category-tile').locator('img').waitFor();
    const [tile] = await pictures(page, '[data-testid="category-tile"] img');
    expect(tile!.sourceTypes).toEqual(['image/avif', 'image/webp']);
    expect([tile!.fetchPriority, tile!.loading]).toEqual([null, 'lazy']);
    expect(tile!.sizes).toContain('(min-width: 1280px) 389px');
    expect(env.pageErrors(page)).toEqual([]);
  });
});
