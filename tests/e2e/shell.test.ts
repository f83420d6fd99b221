import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cartStorageKey } from '../../src/shared/constants';
import { saveScreenshot, signInInBrowser, VIEWPORTS, waitForImages, sharedBrowserApp } from '../support/browser';
import { activeCategories } from '../support/catalog';
import { createAdmin, createCustomer } from '../support/factories';

// The client shell: header, footer, home page, not-found page, mobile menu, cart badge, session.

const PRICE = /^\$\d{1,3}(,\d{3})*\.\d{2}$/;

const mainNavHrefs = (page: Page) =>
  page.locator('header nav[aria-label="Main"] a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));

describe('client shell', () => {
  const env = sharedBrowserApp();

  it('home page shows the hero buttons, category tiles and featured products', async () => {
    const page = await env.newPage();
    const scripts: { url: string; encoding: string | undefined; cache: string | undefined }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const headers = response.headers();
      scripts.push({ url: response.url(), encoding: headers['content-encoding'], cache: headers['cache-control'] });
    });
    const home = await page.goto('/');
    // The page and its scripts arrive compressed, each ahead of time: the page as kept (gzip, with
    // this answer's nonce written in), scripts as the build's brotli copies, cached for good.
    expect(home?.headers()['content-encoding']).toBe('gzip');
    await page.waitForLoadState('load');
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script, script.url).toMatchObject({ encoding: 'br', cache: 'public, max-age=31536000, immutable' });
    }
    await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);

    const shopNow = page.getByRole('link', { name: 'Shop Now' });
    const viewSubscriptions = page.getByRole('link', { name: 'View Subscriptions' });
    expect(await shopNow.getAttribute('href')).toBe('/shop');
    expect(await viewSubscriptions.getAttribute('href')).toBe('/subscriptions');
    expect(await shopNow.isVisible()).toBe(true);

    const categories = await activeCategories(env.db);
    const tileLinks = await page
      .locator('[data-testid="category-tile"] a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(tileLinks).toEqual(categories.map((c) => `/category/${c.slug}`));

    const featuredInDb = await env.db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .where('products.is_featured', '=', true)
      .where('products.is_active', '=', true)
      .where('categories.is_active', '=', true)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cards = page.locator('[data-testid="featured-products"] [data-testid="product-card"]');
    const count = await cards.count();
    expect(count).toBe(Math.min(6, Number(featuredInDb.n)));
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(6);

    const prices = await cards.locator('[data-testid="product-price"]').allTextContents();
    for (const price of prices) expect(price).toMatch(PRICE);
    const hrefs = await cards.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    for (const href of hrefs) expect(href).toMatch(/^\/product\/[a-z0-9-]+$/);

    // Every product image has alt text; one without an image_url shows the fallback tee.
    const images = await cards
      .locator('img')
      .evaluateAll((imgs) => imgs.map((img) => ({ alt: img.getAttribute('alt'), src: img.getAttribute('src') })));
    for (const image of images) expect(image.alt).toBeTruthy();
    const withoutImage = await env.db
      .selectFrom('products')
      .select('name')
      .where('is_featured', '=', true)
      .where('image_url', 'is', null)
      .execute();
    if (withoutImage.length > 0) expect(images.some((image) => image.src === '/images/fallback-tee.svg')).toBe(true);

    // Every image on the page loads (seeded images from storage, or the fallback); lazy ones once scrolled to.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const notLoaded = () =>
      page
        .locator('main img')
        .evaluateAll((imgs) =>
          (imgs as HTMLImageElement[]).filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.getAttribute('src')),
        );
    await expect.poll(notLoaded, { timeout: 10_000 }).toEqual([]);

    const banner = page.locator('section[aria-labelledby="club-heading"]');
    expect(await banner.locator('a[href="/subscriptions"]').count()).toBe(1);
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('header shows one link per active category and drops a deactivated one after reload', async () => {
    const page = await env.newPage();
    await page.goto('/');
    const categories = await activeCategories(env.db);
    expect(categories.length).toBeGreaterThan(1);
    await expect
      .poll(() => mainNavHrefs(page))
      .toEqual(['/shop', ...categories.map((c) => `/category/${c.slug}`), '/subscriptions', '/contact']);
    const navTexts = await page.locator('header nav[aria-label="Main"] a').allTextContents();
    expect(navTexts).toEqual(['Shop', ...categories.map((c) => c.name), 'Subscriptions', 'Contact']);

    const [hidden] = categories;
    await env.db.updateTable('categories').set({ is_active: false }).where('slug', '=', hidden!.slug).execute();
    try {
      await page.reload();
      await expect
        .poll(() => mainNavHrefs(page))
        .toEqual(['/shop', ...categories.slice(1).map((c) => `/category/${c.slug}`), '/subscriptions', '/contact']);
      expect(await page.locator(`[data-testid="category-tile"] a[href="/category/${hidden!.slug}"]`).count()).toBe(0);
    } finally {
      await env.db.updateTable('categories').set({ is_active: true }).where('slug', '=', hidden!.slug).execute();
    }
  });

  it('an unknown deep link shows the not-found page with a way back, inside the store layout', async () => {
    const page = await env.newPage();
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await page.locator('header').count()).toBe(1);
    expect(await page.locator('footer').count()).toBe(1);
    expect(await page.title()).toContain('Page Not Found');

    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.getByRole('link', { name: 'Shop Now' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // A full reload of any client route is answered with index.html and the store settings: storefront
    // pages rendered on the server (an unknown product with 404), account pages left to the browser.
    for (const [route, status, rendered] of [
      ['/shop', 200, true],
      ['/category/motorcycle', 200, true],
      ['/product/some-tee', 404, true],
      ['/dashboard', 200, false],
    ] as const) {
      const res = await fetch(`${env.baseUrl}${route}`);
      expect(res.status, route).toBe(status);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html.includes('<div id="root"></div>'), route).toBe(!rendered);
      expect(html).toContain('<script id="store-config" type="application/json">{"storeName":"Threadline"');
    }
  });

  it('the mobile menu at 375 px opens with the links and closes on navigation', async () => {
    const page = await env.newPage({ viewport: VIEWPORTS.mobile });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.waitFor();
    expect(await page.locator('header nav[aria-label="Main"]').isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const menuId = await toggle.getAttribute('aria-controls');
    const menu = page.locator(`#${menuId}`);
    expect(await menu.isVisible()).toBe(false);

    await toggle.click();
    const closeButton = page.getByRole('button', { name: 'Close menu' });
    expect(await closeButton.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.isVisible()).toBe(true);
    const categories = await activeCategories(env.db);
    for (const name of ['Shop', ...categories.map((c) => c.name), 'Subscriptions', 'Contact', 'Sign In']) {
      expect(await menu.getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
    }

    // Escape closes it, from a link in it, and the focus goes back to the button; following a link closes it too.
    await menu.getByRole('link', { name: 'Shop', exact: true }).focus();
    await page.keyboard.press('Escape');
    expect(await menu.isVisible()).toBe(false);
    expect(await toggle.evaluate((button) => button === document.activeElement)).toBe(true);
    await toggle.click();
    await menu.getByRole('link', { name: 'Contact', exact: true }).click();
    await page.waitForURL('**/contact');
    expect(await menu.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');

    // Nothing overflows the small screen sideways.
    await page.goto('/');
    await page.getByRole('link', { name: 'Shop Now' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('the cart badge shows the item count from localStorage and follows other tabs', async () => {
    const page = await env.newPage();
    await page.goto('/');
    const cartLink = page.getByTestId('cart-link');
    await cartLink.waitFor();
    expect(await cartLink.getAttribute('href')).toBe('/cart');
    expect(await page.getByTestId('cart-count').count()).toBe(0);

    const key = cartStorageKey(env.config.storeName);
    expect(key).toBe('threadline_cart');
    const product = { id: '00000000-0000-4000-8000-000000000001', slug: 'tee-0', name: 'Demo Tee', image_url: null, price: '24.99' };
    await page.evaluate(([k, value]) => localStorage.setItem(k, value), [
      key,
      JSON.stringify([
        { product, size: 'M', quantity: 2 },
        { product, size: 'L', quantity: 1 },
      ]),
    ] as const);
    await page.reload();
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('3');
    expect(await cartLink.getAttribute('aria-label')).toBe('Cart, 3 items');

    // Another tab of the same browser profile sees a change without reloading.
    const otherTab = await page.context().newPage();
    await otherTab.goto('/');
    await expect.poll(() => otherTab.getByTestId('cart-count').textContent()).toBe('3');
    await page.evaluate(([k, value]) => localStorage.setItem(k, value), [
      key,
      JSON.stringify([{ product, size: 'M', quantity: 5 }]),
    ] as const);
    await expect.poll(() => otherTab.getByTestId('cart-count').textContent()).toBe('5');

    // Junk in storage is ignored rather than breaking the page.
    await page.evaluate((k) => localStorage.setItem(k, '{not json'), key);
    await page.reload();
    await page.getByRole('link', { name: 'Shop Now' }).waitFor();
    expect(await page.getByTestId('cart-count').count()).toBe(0);
  });

  it('the footer has the category, service and social links and the current year', async () => {
    const page = await env.newPage();
    await page.goto('/');
    const footer = page.locator('footer');
    await footer.waitFor();
    const year = new Date().getFullYear();
    expect(await footer.getByTestId('copyright').textContent()).toContain(`© ${year} ${env.config.storeName}`);
    for (const href of [
      '/category/motorcycle',
      '/category/car',
      '/category/christian',
      '/subscriptions',
      '/contact',
      '/shipping',
      '/returns',
      '/faq',
    ]) {
      expect(await footer.locator(`a[href="${href}"]`).count(), href).toBe(1);
    }
    const social = await footer
      .locator('a[target="_blank"]')
      .evaluateAll((links) =>
        links.map((link) => ({ rel: link.getAttribute('rel'), label: link.getAttribute('aria-label'), href: link.getAttribute('href') })),
      );
    expect(social.length).toBeGreaterThan(0);
    for (const link of social) {
      expect(link.rel).toBe('noopener noreferrer');
      expect(link.label).toBeTruthy();
      expect(link.href).toMatch(/^https:\/\//);
    }
  });

  it('the header follows the session: sign in, admin link, sign out in another tab', async () => {
    const shopper = await createCustomer(env.db);
    const boss = await createAdmin(env.db);

    const page = await env.newPage();
    await page.goto('/');
    const account = page.getByTestId('account-link');
    await expect.poll(() => account.getAttribute('href')).toBe('/login');
    expect(await account.getAttribute('aria-label')).toBe('Sign in');
    expect(await page.getByTestId('admin-link').count()).toBe(0);

    await signInInBrowser(env, { email: shopper.email, page });
    await page.reload();
    await expect.poll(() => account.getAttribute('href')).toBe('/dashboard');
    expect(await page.getByRole('button', { name: 'Sign Out' }).isVisible()).toBe(true);
    expect(await page.getByTestId('admin-link').count()).toBe(0);

    // Signing out in one tab updates the other (BroadcastChannel).
    const otherTab = await page.context().newPage();
    await otherTab.goto('/');
    await expect.poll(() => otherTab.getByTestId('account-link').getAttribute('href')).toBe('/dashboard');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect.poll(() => account.getAttribute('href')).toBe('/login');
    await expect.poll(() => otherTab.getByTestId('account-link').getAttribute('href')).toBe('/login');
    expect(await otherTab.getByRole('button', { name: 'Sign Out' }).count()).toBe(0);

    const adminPage = await env.newPage();
    await adminPage.goto('/');
    await signInInBrowser(env, { email: boss.email, page: adminPage });
    await adminPage.reload();
    const adminLink = adminPage.getByTestId('admin-link');
    await adminLink.waitFor();
    expect(await adminLink.getAttribute('href')).toBe('/admin');
  });

  it('saves home page screenshots at 375 px and 1280 px', async () => {
    for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
      const page = await env.newPage({ viewport });
      await page.goto('/', { waitUntil: 'networkidle' });
      await page.getByRole('link', { name: 'Shop Now' }).waitFor();
      await waitForImages(page);
      const file = await saveScreenshot(page, `home-${viewport.width}`);
      expect(file).toMatch(/\.png$/);
      expect(env.pageErrors(page)).toEqual([]);
    }
  });
});
