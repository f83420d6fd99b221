import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cartStorageKey, FALLBACK_PRODUCT_IMAGE, MAX_LINE_QUANTITY, SHOP_PAGE_SIZE } from '../../src/shared/constants';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, VIEWPORTS, waitForImages, sharedBrowserApp, openPage } from '../support/browser';
import { activeCategories } from '../support/catalog';

// Shop, category and product pages (docs/PRODUCT.md § Screens, States and Validation).

const gridCards = (page: Page) => page.locator('[data-testid="product-grid"] [data-testid="product-card"]');
const cardSlugs = (page: Page) =>
  gridCards(page)
    .locator('a')
    .evaluateAll((links) => links.map((link) => (link.getAttribute('href') ?? '').replace('/product/', '')));
const cardPrices = async (page: Page) =>
  (await gridCards(page).locator('[data-testid="product-price"]').allTextContents()).map((text) => Number(text.replace(/[$,]/g, '')));

const isSorted = (values: number[], direction: 'asc' | 'desc') =>
  values.every((value, i) => i === 0 || (direction === 'asc' ? values[i - 1]! <= value : values[i - 1]! >= value));

describe('catalog pages', () => {
  const env = sharedBrowserApp();

  /** Slugs of active products in active categories, optionally of one category, as the server would sort them. */
  async function activeSlugs(options: { category?: string; sort?: 'newest' | 'price-low' | 'price-high' } = {}) {
    let query = env.db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .select(['products.slug'])
      .where('products.is_active', '=', true)
      .where('categories.is_active', '=', true);
    if (options.category) query = query.where('categories.slug', '=', options.category);
    const sort = options.sort ?? 'newest';
    query =
      sort === 'newest'
        ? query.orderBy('products.created_at', 'desc').orderBy('products.id', 'desc')
        : query
            .orderBy('products.price', sort === 'price-low' ? 'asc' : 'desc')
            .orderBy('products.id', sort === 'price-low' ? 'asc' : 'desc');
    return (await query.execute()).map((row) => row.slug);
  }

  it('shop: filter buttons and sort live in the URL, survive a reload and can be shared', async () => {
    const page = await env.newPage();
    await page.goto('/shop');
    await gridCards(page).first().waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('All T-Shirts');
    // Product names are headings one level under the page's (screen readers list them in order).
    expect(await gridCards(page).first().getByRole('heading', { level: 2 }).count()).toBe(1);

    // All plus one button per active category, All pressed.
    const categories = await activeCategories(env.db);
    const filters = page.getByRole('group', { name: 'Filter by category' }).getByRole('button');
    expect(await filters.allTextContents()).toEqual(['All', ...categories.map((c) => c.name)]);
    expect(await filters.first().getAttribute('aria-pressed')).toBe('true');
    expect(await cardSlugs(page)).toEqual(await activeSlugs());

    // The seeded inactive product never shows.
    const inactive = await env.db.selectFrom('products').select('slug').where('is_active', '=', false).execute();
    expect(inactive.length).toBeGreaterThan(0);
    for (const { slug } of inactive) expect(await cardSlugs(page)).not.toContain(slug);

    // Sort options as the spec names them.
    const sort = page.getByLabel('Sort by', { exact: true });
    expect(await sort.locator('option').allTextContents()).toEqual(['Newest', 'Price: Low to High', 'Price: High to Low']);
    expect(await sort.inputValue()).toBe('newest');

    await page.getByRole('group', { name: 'Filter by category' }).getByRole('button', { name: 'Car', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('category') === 'car');
    await expect.poll(() => cardSlugs(page)).toEqual(await activeSlugs({ category: 'car' }));
    expect(await page.getByRole('button', { name: 'Car', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: 'All', exact: true }).getAttribute('aria-pressed')).toBe('false');

    await sort.selectOption('price-low');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'price-low' && url.searchParams.get('category') === 'car');
    const carByPrice = await activeSlugs({ category: 'car', sort: 'price-low' });
    await expect.poll(() => cardSlugs(page)).toEqual(carByPrice);
    expect(isSorted(await cardPrices(page), 'asc')).toBe(true);

    // A reload shows the same view.
    await page.reload();
    await gridCards(page).first().waitFor();
    expect(await page.getByLabel('Sort by', { exact: true }).inputValue()).toBe('price-low');
    expect(await page.getByRole('button', { name: 'Car', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await cardSlugs(page)).toEqual(carByPrice);

    // A shared link opens the same view in a fresh browser.
    const shared = await env.newPage();
    await shared.goto('/shop?category=motorcycle&sort=price-high');
    await shared.getByRole('heading', { name: 'Motorcycle T-Shirts' }).waitFor();
    await expect.poll(() => cardSlugs(shared)).toEqual(await activeSlugs({ category: 'motorcycle', sort: 'price-high' }));
    expect(isSorted(await cardPrices(shared), 'desc')).toBe(true);
    expect(await shared.getByLabel('Sort by', { exact: true }).inputValue()).toBe('price-high');

    // Back to All drops the category from the URL; the default sort is not written out.
    await shared.getByRole('button', { name: 'All', exact: true }).click();
    await shared.waitForURL((url) => !url.searchParams.has('category'));
    await shared.getByLabel('Sort by', { exact: true }).selectOption('newest');
    await shared.waitForURL((url) => url.pathname === '/shop' && url.search === '');
    await expect.poll(() => cardSlugs(shared)).toEqual(await activeSlugs());

    // A hand-edited sort falls back instead of breaking the page.
    await shared.goto('/shop?sort=cheapest');
    await gridCards(shared).first().waitFor();
    expect(await shared.getByLabel('Sort by', { exact: true }).inputValue()).toBe('newest');
    expect(env.pageErrors(page)).toEqual([]);
    expect(env.pageErrors(shared)).toEqual([]);
  });

  it("shop: 'Loading products...' while the server answers; the empty state for a category without products", async () => {
    const page = await env.newPage();
    await page.goto('/shop');
    await gridCards(page).first().waitFor();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/trpc/*catalog.products*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Christian', exact: true }).click();
    const loading = page.getByText('Loading products...');
    await loading.waitFor();
    expect(await gridCards(page).count()).toBe(0);
    release();
    await expect.poll(() => cardSlugs(page)).toEqual(await activeSlugs({ category: 'christian' }));
    expect(await loading.count()).toBe(0);

    await page.unroute('**/trpc/*catalog.products*');
    await page.goto('/shop?category=no-such-category');
    await page.getByText('No products found in this category.').waitFor();
    expect(await gridCards(page).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });

  it('shop: pages of 24 from the server with "Load more", in order and without repeats', async () => {
    const car = await env.db.selectFrom('categories').select('id').where('slug', '=', 'car').executeTakeFirstOrThrow();
    const extra = Array.from({ length: 30 }, (_, i) => ({
      sku_number: `TL-PAGE-${String(i).padStart(3, '0')}`,
      slug: `paging-tee-${i}`,
      name: `Paging Tee ${i}`,
      description: 'A tee for the paging test.',
      // Several rows share a price, so the order must also break ties across pages.
      price: (10 + (i % 7)).toFixed(2),
      front_art_url: '/images/fallback-tee.svg',
      available_sizes: ['M' as const],
      tags: [],
      category_id: car.id,
      created_at: new Date(Date.now() - (i + 1) * 60_000),
      updated_at: new Date(),
    }));
    await env.db.insertInto('products').values(extra).execute();
    try {
      const all = await activeSlugs({ sort: 'price-low' });
      expect(all.length).toBeGreaterThan(SHOP_PAGE_SIZE);
      const page = await env.newPage();
      await page.goto('/shop?sort=price-low');
      await gridCards(page).first().waitFor();
      // Only the first page came from the server.
      expect(await gridCards(page).count()).toBe(SHOP_PAGE_SIZE);
      expect(await page.getByText(`Showing ${SHOP_PAGE_SIZE} products`).isVisible()).toBe(true);

      const loadMore = page.getByRole('button', { name: 'Load more' });
      while (await loadMore.isVisible()) {
        const before = await gridCards(page).count();
        await loadMore.click();
        await expect.poll(() => gridCards(page).count()).toBeGreaterThan(before);
      }
      expect(await cardSlugs(page)).toEqual(all);
      expect(new Set(await cardSlugs(page)).size).toBe(all.length);
      expect(isSorted(await cardPrices(page), 'asc')).toBe(true);
      expect(await page.getByText(`Showing ${all.length} products`).isVisible()).toBe(true);
      expect(await loadMore.count()).toBe(0);
    } finally {
      await env.db.deleteFrom('products').where('slug', 'like', 'paging-tee-%').execute();
    }
  });

  it('category page: banner and its products with sort; unknown and inactive slugs show Category Not Found', async () => {
    const category = await env.db.selectFrom('categories').selectAll().where('slug', '=', 'christian').executeTakeFirstOrThrow();
    const page = await env.newPage();
    await page.goto('/category/christian');
    const banner = page.getByTestId('category-banner');
    await banner.waitFor();
    expect(await banner.getByRole('heading', { level: 1 }).textContent()).toBe(category.name);
    expect(await banner.getByText(category.description).isVisible()).toBe(true);
    expect(await banner.locator('img').getAttribute('src')).toBe(category.image_url);
    await gridCards(page).first().waitFor();
    expect(await cardSlugs(page)).toEqual(await activeSlugs({ category: 'christian' }));
    expect(await page.title()).toContain(category.name);

    await page.getByLabel('Sort by', { exact: true }).selectOption('price-high');
    await page.waitForURL((url) => url.pathname === '/category/christian' && url.searchParams.get('sort') === 'price-high');
    const byPrice = await activeSlugs({ category: 'christian', sort: 'price-high' });
    await expect.poll(() => cardSlugs(page)).toEqual(byPrice);
    await page.reload();
    await gridCards(page).first().waitFor();
    expect(await cardSlugs(page)).toEqual(byPrice);

    // A card opens its product.
    await gridCards(page).first().getByRole('link').click();
    await page.waitForURL(`**/product/${byPrice[0]}`);
    await page.getByRole('button', { name: 'Add to Cart' }).waitFor();

    await page.goto('/category/no-such-category');
    await page.getByRole('heading', { name: 'Category Not Found' }).waitFor();
    expect(await page.getByText("The category you're looking for doesn't exist.").isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Browse All Products' }).click();
    await page.waitForURL((url) => url.pathname === '/shop');

    await env.db.updateTable('categories').set({ is_active: false }).where('slug', '=', 'christian').execute();
    try {
      await page.goto('/category/christian');
      await page.getByRole('heading', { name: 'Category Not Found' }).waitFor();
    } finally {
      await env.db.updateTable('categories').set({ is_active: true }).where('slug', '=', 'christian').execute();
    }
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('product page: mockup toggle from the default side, first size, quantity stepper, Added to Cart! for 2 seconds', async () => {
    const product = await env.db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .selectAll('products')
      .select(['categories.slug as category_slug', 'categories.name as category_name'])
      .where('products.default_mockup_side', '=', 'back')
      .where('products.is_active', '=', true)
      .executeTakeFirstOrThrow();
    const page = await env.newPage();
    await openPage(page, `/product/${product.slug}`, product.name);
    expect(await page.getByTestId('product-price').textContent()).toBe(`$${product.price}`);

    // Starts on the back (the product's default side); the toggle switches.
    const gallery = page.getByTestId('product-gallery');
    const visibleImage = () => gallery.locator('img:visible').getAttribute('src');
    const sides = page.getByRole('group', { name: 'Mockup side' });
    expect(await sides.getByRole('button', { name: 'Back' }).getAttribute('aria-pressed')).toBe('true');
    expect(await sides.getByRole('button', { name: 'Front' }).getAttribute('aria-pressed')).toBe('false');
    expect(await visibleImage()).toBe(product.back_mockup_url);
    await sides.getByRole('button', { name: 'Front' }).click();
    expect(await visibleImage()).toBe(product.front_mockup_url);
    expect(await sides.getByRole('button', { name: 'Front' }).getAttribute('aria-pressed')).toBe('true');

    // Size starts on the first available size.
    const size = page.getByLabel('Size', { exact: true });
    expect(await size.inputValue()).toBe(product.available_sizes[0]);
    expect(await size.locator('option').allTextContents()).toEqual(product.available_sizes);

    // Quantity never goes below 1.
    const quantity = page.getByLabel('Quantity', { exact: true });
    const minus = page.getByRole('button', { name: 'Decrease quantity' });
    expect(await quantity.inputValue()).toBe('1');
    expect(await minus.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    expect(await quantity.inputValue()).toBe('3');
    await minus.click();
    expect(await quantity.inputValue()).toBe('2');
    await quantity.fill('0');
    expect(await quantity.inputValue()).toBe('1');
    await quantity.fill('2');

    const lastSize = product.available_sizes.at(-1)!;
    await size.selectOption(lastSize);
    const add = page.getByRole('button', { name: 'Add to Cart' });
    // From the keyboard: the focus stays on the button through its confirmation.
    await add.focus();
    await page.keyboard.press('Enter');
    const added = page.getByRole('button', { name: 'Added to Cart!' });
    await added.waitFor();
    const shownAt = Date.now();
    expect(await added.isDisabled()).toBe(true);
    await add.waitFor({ timeout: 5_000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(1_500);
    expect(shownFor).toBeLessThan(3_000);
    expect(await add.isEnabled()).toBe(true);
    expect(await add.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await page.getByTestId('cart-count').textContent()).toBe('2');
    const stored = await page.evaluate((key) => localStorage.getItem(key), cartStorageKey(env.config.storeName));
    expect(JSON.parse(stored ?? '[]')).toMatchObject([{ product: { id: product.id, price: product.price }, size: lastSize, quantity: 2 }]);

    // A line holds so many at most: what does not fit is not said to be added.
    await quantity.fill(String(MAX_LINE_QUANTITY));
    await add.click();
    const said = page.getByRole('status').filter({ hasText: /added to your cart|already holds/ });
    await expect.poll(() => said.textContent()).toBe(`${MAX_LINE_QUANTITY - 2} × ${product.name}, size ${lastSize}, added to your cart.`);
    await add.waitFor({ timeout: 5_000 });
    await add.click();
    await expect
      .poll(() => said.textContent())
      .toBe(`Your cart already holds as many of this tee in size ${lastSize} as one order can take.`);
    expect(await said.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Added to Cart!' }).count()).toBe(0);
    expect(await page.getByTestId('cart-count').textContent()).toBe(String(MAX_LINE_QUANTITY));

    // The links: category, View Cart, Back to Shop.
    expect(await page.getByTestId('product-category-link').getAttribute('href')).toBe(`/category/${product.category_slug}`);
    expect(await page.getByTestId('product-category-link').textContent()).toBe(product.category_name);
    expect(await page.getByRole('link', { name: 'Back to Shop' }).getAttribute('href')).toBe('/shop');
    await page.getByRole('link', { name: 'View Cart' }).click();
    await page.waitForURL('**/cart');
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('product page: no toggle with one mockup, fallback image, Add to Cart disabled without sizes, Product Not Found', async () => {
    const car = await env.db.selectFrom('categories').select('id').where('slug', '=', 'car').executeTakeFirstOrThrow();
    await env.db
      .insertInto('products')
      .values([
        {
          sku_number: 'TL-TEST-ONE',
          slug: 'one-side-tee',
          name: 'One Side Tee',
          description: 'Front only.',
          price: '20.00',
          front_art_url: '/images/fallback-tee.svg',
          front_mockup_url: '/images/fallback-tee.svg',
          available_sizes: ['L', 'XL'],
          tags: [],
          category_id: car.id,
          updated_at: new Date(),
        },
        {
          sku_number: 'TL-TEST-BARE',
          slug: 'bare-tee',
          name: 'Bare Tee',
          description: 'No image, no sizes.',
          price: '21.00',
          front_art_url: '/images/fallback-tee.svg',
          available_sizes: [],
          tags: [],
          category_id: car.id,
          updated_at: new Date(),
        },
      ])
      .execute();
    try {
      const page = await env.newPage();
      await page.goto('/product/one-side-tee');
      await page.getByRole('heading', { name: 'One Side Tee' }).waitFor();
      expect(await page.getByRole('group', { name: 'Mockup side' }).count()).toBe(0);
      expect(await page.getByLabel('Size', { exact: true }).inputValue()).toBe('L');
      expect(await page.getByRole('button', { name: 'Add to Cart' }).isEnabled()).toBe(true);

      await page.goto('/product/bare-tee');
      await page.getByRole('heading', { name: 'Bare Tee' }).waitFor();
      expect(await page.getByTestId('product-gallery').locator('img').getAttribute('src')).toBe(FALLBACK_PRODUCT_IMAGE);
      expect(await page.getByRole('button', { name: 'Add to Cart' }).isDisabled()).toBe(true);
      expect(await page.getByLabel('Size', { exact: true }).isDisabled()).toBe(true);

      // The fallback shows on the shop card too.
      await page.goto('/shop?category=car');
      const card = gridCards(page).filter({ hasText: 'Bare Tee' });
      await card.waitFor();
      expect(await card.locator('img').getAttribute('src')).toBe(FALLBACK_PRODUCT_IMAGE);

      await page.goto('/product/no-such-tee');
      await page.getByRole('heading', { name: 'Product Not Found' }).waitFor();
      await page.getByRole('link', { name: 'Return to Shop' }).click();
      await page.waitForURL((url) => url.pathname === '/shop');

      // An inactive product is not found either.
      const inactive = await env.db.selectFrom('products').select('slug').where('is_active', '=', false).executeTakeFirstOrThrow();
      await page.goto(`/product/${inactive.slug}`);
      await page.getByRole('heading', { name: 'Product Not Found' }).waitFor();
      expect(env.pageErrors(page)).toEqual([]);
    } finally {
      await env.db.deleteFrom('products').where('slug', 'in', ['one-side-tee', 'bare-tee']).execute();
    }
  });

  it('shows where the keyboard focus is on a category tile and a product card', async () => {
    const page = await env.newPage();
    await page.goto('/');
    const tile = page.getByTestId('category-tile').first();
    const card = page.getByTestId('product-card').first();
    await card.waitFor();
    await waitForImages(page);
    await page.keyboard.press('Tab');
    for (const item of [tile, card]) {
      await item.scrollIntoViewIfNeeded();
      const before = await item.screenshot();
      await item.getByRole('link').focus();
      expect(await item.getByRole('link').evaluate((link) => link.matches(':focus-visible'))).toBe(true);
      // Something on the item itself shows it (a ring drawn outside and clipped away would not).
      expect((await item.screenshot()).equals(before)).toBe(false);
    }
  });

  it('no serious accessibility violations; screenshots at 375 and 1280 px without sideways overflow', async () => {
    const product = await env.db
      .selectFrom('products')
      .select('slug')
      .where('default_mockup_side', '=', 'back')
      .where('is_active', '=', true)
      .executeTakeFirstOrThrow();
    const pages: { name: string; path: string; ready: (page: Page) => Promise<unknown> }[] = [
      { name: 'shop', path: '/shop', ready: (page) => gridCards(page).first().waitFor() },
      { name: 'shop-filtered', path: '/shop?category=car&sort=price-low', ready: (page) => gridCards(page).first().waitFor() },
      {
        name: 'shop-empty',
        path: '/shop?category=no-such-category',
        ready: (page) => page.getByText('No products found in this category.').waitFor(),
      },
      { name: 'category', path: '/category/motorcycle', ready: (page) => gridCards(page).first().waitFor() },
      {
        name: 'category-not-found',
        path: '/category/nope',
        ready: (page) => page.getByRole('heading', { name: 'Category Not Found' }).waitFor(),
      },
      { name: 'product', path: `/product/${product.slug}`, ready: (page) => page.getByRole('button', { name: 'Add to Cart' }).waitFor() },
      {
        name: 'product-not-found',
        path: '/product/nope',
        ready: (page) => page.getByRole('heading', { name: 'Product Not Found' }).waitFor(),
      },
    ];
    for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
      const page = await env.newPage({ viewport });
      for (const entry of pages) {
        await page.goto(entry.path);
        await entry.ready(page);
        await waitForImages(page);
        expect(await seriousA11yViolations(page), `${entry.name} at ${viewportName}`).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${entry.name} at ${viewportName}`).toBeLessThanOrEqual(0);
        await saveScreenshot(page, `catalog-${entry.name}-${viewport.width}`);
      }
      expect(env.pageErrors(page)).toEqual([]);
    }
  });
});
