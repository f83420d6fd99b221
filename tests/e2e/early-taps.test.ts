import { describe, expect, it } from 'vitest';
import { cartStorageKey } from '../../src/shared/constants';
import { saveScreenshot, sharedBrowserApp, VIEWPORTS } from '../support/browser';

// No dead taps (docs/adr/0028-taps-before-hydration.md): on a phone-sized window with the CPU slowed
// 4x, a product page shows Add to Cart long before its scripts have hydrated it. Taps in that gap
// are held by the page's inline script and take effect once the page is ready.

const env = sharedBrowserApp();

describe('taps before hydration', () => {
  it('a typed quantity, a size, a + and Add to Cart the moment they appear, with the CPU slowed 4x, put the shirts in the cart', async () => {
    const product = await env.db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .select(['products.slug', 'products.id', 'products.available_sizes'])
      .where('products.is_active', '=', true)
      .where('categories.is_active', '=', true)
      .orderBy('products.created_at')
      .executeTakeFirstOrThrow();
    const size = product.available_sizes.at(-1)!;
    const page = await env.newPage({ viewport: VIEWPORTS.mobile });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

    // The page's entry script (not its stylesheet, which holds the paint) waits until every tap
    // below is made, so each comes before hydration however busy this machine is; on a phone the
    // gap is seconds anyway.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname.startsWith('/assets/index-') && url.pathname.endsWith('.js'),
      async (route) => {
        await released;
        await route.continue().catch(() => undefined);
      },
    );
    // The frame's own goto: the page's goto waits for hydration, which is the point not to.
    await page.mainFrame().goto(`${env.baseUrl}/product/${product.slug}`, { waitUntil: 'commit' });
    const add = page.getByRole('button', { name: 'Add to Cart' });
    await add.waitFor();
    // A quantity typed in, the size, a tap on + and Add to Cart, each as soon as it can be done.
    await page.getByLabel('Quantity', { exact: true }).fill('3');
    await page.getByLabel('Size', { exact: true }).selectOption(size);
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await add.click();
    // Held, and shown as getting ready, until the page is hydrated (then replayed, one by one).
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-hydrated'))).toBe(false);
    expect(await add.getAttribute('aria-busy')).toBe('true');
    release();

    await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 30_000 });
    await page.getByRole('button', { name: 'Added to Cart!' }).waitFor();
    // 3 typed, then one more: the typed number counts, and the tap after it too.
    expect(await page.getByTestId('cart-count').textContent()).toBe('4');
    const stored = await page.evaluate((key) => localStorage.getItem(key), cartStorageKey(env.config.storeName));
    const lines = JSON.parse(stored!) as { size: string; quantity: number; product: { id: string } }[];
    expect(lines.map((line) => ({ id: line.product.id, size: line.size, quantity: line.quantity }))).toEqual([
      { id: product.id, size, quantity: 4 },
    ]);
    expect(await add.getAttribute('aria-busy')).toBeNull();
    // The page was not reloaded by a native form submit: still the product's address, no query.
    expect(new URL(page.url()).search).toBe('');
    await saveScreenshot(page, 'early-tap-added-375');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  });
});
