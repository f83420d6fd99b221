import { describe, expect, it } from 'vitest';
import { expectFitsPhone, saveScreenshot, sharedBrowserApp, VIEWPORTS } from '../support/browser';
import { activeCategories } from '../support/catalog';

// The storefront's search on the demo store: from the header on a phone, typos forgiven; the
// page is server-rendered with the query in its title and address; an empty result offers the
// categories; the desktop header searches too.

describe('storefront search', () => {
  const env = sharedBrowserApp();

  it('searches "motorcyle" from the header on a phone and opens a motorcycle shirt', async () => {
    const page = await env.newPage({ viewport: VIEWPORTS.mobile });
    await page.goto('/');
    await page.getByRole('button', { name: 'Search' }).click();
    const field = page.getByRole('searchbox', { name: 'Search' });
    await field.fill('motorcyle');
    await field.press('Enter');

    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'motorcyle');
    await page.getByRole('heading', { level: 1, name: 'Search results for "motorcyle"' }).waitFor();
    expect(await page.title()).toContain('Search results for "motorcyle"');
    const cards = page.locator('[data-testid="product-grid"] [data-testid="product-card"]');
    await cards.first().waitFor();
    const motorcycleNames = (
      await env.db
        .selectFrom('products')
        .innerJoin('categories', 'categories.id', 'products.category_id')
        .select('products.name')
        .where('categories.slug', '=', 'motorcycle')
        .where('products.is_active', '=', true)
        .execute()
    ).map((row) => row.name);
    // Every motorcycle shirt, first: a near word elsewhere ("motorsport") may follow them.
    const shown = await cards.getByRole('heading').allTextContents();
    expect(shown.slice(0, motorcycleNames.length).sort()).toEqual([...motorcycleNames].sort());
    await expectFitsPhone(page, 'search-phone');

    await cards.first().getByRole('link').first().click();
    await page.waitForURL((url) => url.pathname.startsWith('/product/'));
    await page.getByRole('heading', { level: 1, name: shown[0] }).waitFor();
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('renders the results on the server, and offers the categories when nothing is found', async () => {
    const html = await (await fetch(`${env.baseUrl}/search?q=christain`)).text();
    expect(html).toContain('Search results for &quot;christain&quot;');
    expect(html).toContain('Faith Over Fear Tee');

    const page = await env.newPage({ viewport: VIEWPORTS.desktop });
    await page.goto('/search?q=zzqx');
    await page.getByText('No results for "zzqx"').waitFor();
    const offered = page.getByRole('navigation', { name: 'Categories' }).getByRole('link');
    expect(await offered.allTextContents()).toEqual((await activeCategories(env.db)).map((c) => c.name));
    await saveScreenshot(page, 'search-empty-desktop');

    // The desktop header's field searches too, and keeps the query shown.
    const field = page.getByRole('searchbox', { name: 'Search' });
    expect(await field.inputValue()).toBe('zzqx');
    await field.fill('jesu');
    await field.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Search results for "jesu"' }).waitFor();
    await page.getByRole('heading', { name: 'Fishers of Men Tee' }).waitFor();
    await saveScreenshot(page, 'search-desktop');

    // No words to search is the shop.
    await page.goto('/search?q=%3F%21');
    await page.waitForURL((url) => url.pathname === '/shop');
    expect(env.pageErrors(page)).toEqual([]);
  });
});
