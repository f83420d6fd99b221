import http from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/server/auth/session';
import { formatMoney } from '../../src/shared/money';
import { SCREENSHOT_DIR, signInInBrowser, sharedBrowserApp, VIEWPORTS, waitForImages } from '../support/browser';
import { createAdmin, createCustomer, createProduct } from '../support/factories';

// Storefront pages arrive rendered: their content is in the HTML before any script runs, with a
// head for search engines and link previews, and the client takes the page over without reading
// anything again or any hydration warning.

const STOREFRONT_PATHS = ['/', '/shop', '/subscriptions', '/contact', '/faq', '/shipping', '/returns', '/cart'];

describe('server rendering', () => {
  const env = sharedBrowserApp();

  const someProduct = () =>
    env.db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .select([
        'products.slug',
        'products.name',
        'products.price',
        'products.description',
        'categories.slug as category_slug',
        'categories.name as category_name',
      ])
      .where('products.is_active', '=', true)
      .where('categories.is_active', '=', true)
      .orderBy('products.name')
      .executeTakeFirstOrThrow();

  /** Sent as written: fetch would resolve dot segments, as browsers do, before asking. */
  const getRaw = (path: string) =>
    new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      http
        .get(`${env.baseUrl}/`, { path }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, location: res.headers.location });
        })
        .on('error', reject);
    });

  const fetchPage = async (path: string, cookie?: string) => {
    const res = await fetch(`${env.baseUrl}${path}`, { headers: cookie ? { cookie } : {} });
    return { status: res.status, html: await res.text() };
  };

  it('sends the shop and product pages with their names and prices in the HTML', async () => {
    const product = await someProduct();
    const shop = await fetchPage('/shop');
    expect(shop.status).toBe(200);
    expect(shop.html).toContain(product.name);
    expect(shop.html).toContain(formatMoney(product.price));

    const page = await fetchPage(`/product/${product.slug}`);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(new RegExp(`<h1[^>]*>${product.name}</h1>`));
    expect(page.html).toContain(formatMoney(product.price));
  });

  it('asks for its scripts at low priority, behind the stylesheet and images that paint the page', async () => {
    const { html } = await fetchPage('/shop');
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="[^"]*"[^>]*>|<link\b[^>]*\brel="modulepreload"[^>]*>/g)].map(([tag]) => tag);
    expect(scripts.length).toBeGreaterThan(1);
    for (const tag of scripts) expect(tag).toContain('fetchpriority="low"');
    expect(html).toMatch(/<link\b[^>]*rel="stylesheet"(?![^>]*fetchpriority)[^>]*>/);
  });

  it('gives each page a title, description, canonical URL, link preview tags and JSON-LD', async () => {
    const product = await someProduct();
    const { html } = await fetchPage(`/product/${product.slug}`);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<title>${product.name} | Threadline</title>`);
    expect(head.match(/<title>/g)).toHaveLength(1);
    expect(head).toContain(`<link rel="canonical" href="${env.baseUrl}/product/${product.slug}">`);
    expect(head).toContain(`<meta property="og:url" content="${env.baseUrl}/product/${product.slug}">`);
    expect(head).toMatch(new RegExp(`<meta property="og:image" content="${env.baseUrl}/storage/[^"]+">`));
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(head.match(/<meta name="description"/g)).toHaveLength(1);

    const jsonLd = [...head.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown>,
    );
    // A ProductGroup varying by colour and size, one Product with its Offer per variant.
    const productLd = jsonLd.find((item) => item['@type'] === 'ProductGroup');
    expect(productLd).toMatchObject({
      '@context': 'https://schema.org',
      name: product.name,
      variesBy: ['https://schema.org/color', 'https://schema.org/size'],
    });
    expect((productLd?.hasVariant as unknown[])[0]).toMatchObject({
      '@type': 'Product',
      offers: { '@type': 'Offer', price: product.price, priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
    const breadcrumbs = jsonLd.find((item) => item['@type'] === 'BreadcrumbList') as { itemListElement: { name: string; item: string }[] };
    expect(breadcrumbs.itemListElement.map((step) => step.name)).toEqual(['Home', product.category_name, product.name]);
    expect(breadcrumbs.itemListElement[1]!.item).toBe(`${env.baseUrl}/category/${product.category_slug}`);

    const category = await fetchPage(`/category/${product.category_slug}`);
    expect(category.html).toContain(`<title>${product.category_name} T-Shirts | Threadline</title>`);
    const cart = await fetchPage('/cart');
    expect(cart.html).toContain('<meta name="robots" content="noindex">');
  });

  it('serves a sitemap that parses as XML and lists the product pages', async () => {
    const product = await someProduct();
    const xml = await (await fetch(`${env.baseUrl}/sitemap.xml`)).text();
    const page = await env.newPage();
    await page.goto('/faq');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        locs: Array.from(doc.getElementsByTagName('loc'), (loc) => loc.textContent),
      };
    }, xml);
    expect(parsed.error).toBeNull();
    expect(parsed.locs).toContain(`${env.baseUrl}/product/${product.slug}`);
    expect(parsed.locs).toContain(`${env.baseUrl}/category/${product.category_slug}`);
  });

  it('answers 404 with a helpful page for an unknown product or category', async () => {
    const product = await fetchPage('/product/no-such-tee');
    expect(product.status).toBe(404);
    expect(product.html).toContain('Product Not Found');
    expect(product.html).toContain('href="/shop"');
    const category = await fetchPage('/category/no-such-category');
    expect(category.status).toBe(404);
    expect(category.html).toContain('Category Not Found');
    const page = await fetchPage('/no-such-page');
    expect(page.status).toBe(404);
    // A backslash in the address, which the static files refuse to look up: the same 404 page.
    const backslash = await fetchPage('/product/a%5Cb');
    expect([backslash.status, backslash.html]).toEqual([404, expect.stringContaining('Product Not Found')]);
    // Pages the browser renders (account, checkout, admin) answer 404 too at an address with no page.
    for (const path of ['/admin/no-such-screen', '/checkout/no-such-step', '/orders/TL-1001/extra', '/login/again']) {
      expect((await fetchPage(path)).status, path).toBe(404);
    }
    for (const path of ['/login', '/admin/products', '/orders/TL-1001', '/subscriptions/join/monthly-tee', '/checkout/complete']) {
      expect((await fetchPage(path)).status, path).toBe(200);
    }
    // An address the store writes differently (a junk sort dropped) is sent to the one it writes.
    const messy = await fetch(`${env.baseUrl}/shop?sort=cheapest`, { redirect: 'manual' });
    expect(messy.status).toBe(307);
    expect(messy.headers.get('location')).toBe('/shop');
  });

  it('leaves the pages the browser renders to it in any letter case', async () => {
    const { token } = await createSession(env.db, (await createCustomer(env.db)).id, 1);
    const cookie = `session=${token}`;
    for (const path of ['/Checkout', '/DASHBOARD', '/Admin/products', '/Orders/TL-1001']) {
      const page = await fetchPage(path, cookie);
      // Not redirected by a guard run on the server (checkout, say, would find no cart there), and no state read for it.
      expect([page.status, page.html.includes('id="server-state"')], path).toEqual([200, false]);
    }
  });

  it('renders a page whose address has a search param nested thousands deep, like any other unknown one', async () => {
    const deep = await fetchPage(`/shop?sort=price-low&a=${'['.repeat(5000)}${']'.repeat(5000)}`);
    expect([deep.status, deep.html.includes('id="server-state"')]).toEqual([200, true]);
  });

  it("moves another spelling of a product's or category's address to its own, and answers 404 for one nothing could have", async () => {
    const product = await someProduct();
    const spaced = await fetch(`${env.baseUrl}/product/${product.slug}%20`, { redirect: 'manual' });
    expect(spaced.status).toBe(301);
    expect(spaced.headers.get('location')).toBe(`/product/${product.slug}`);
    const category = await fetch(`${env.baseUrl}/category/${product.category_slug}%20?sort=price-low`, { redirect: 'manual' });
    expect(category.status).toBe(301);
    expect(category.headers.get('location')).toBe(`/category/${product.category_slug}?sort=price-low`);

    // Dot segments, which browsers resolve before asking: where they point, and never to another host.
    for (const [asked, own] of [
      ['/product/%2e%2e', '/'],
      [`/shop/./../category/${product.category_slug}?sort=price-low`, `/category/${product.category_slug}?sort=price-low`],
      ['//evil.example/%2E%2E/shop', '/shop'],
    ]) {
      expect(await getRaw(asked!), asked).toEqual({ status: 301, location: own });
    }
    // An encoded slash keeps the dots inside one segment: a slug like any other, and nothing has it.
    for (const path of ['/product/..%2f..', '/product/..%2f']) {
      expect((await getRaw(path)).status, path).toBe(404);
    }

    const tooLong = await fetchPage(`/product/${'a'.repeat(201)}`);
    expect(tooLong.status).toBe(404);
    expect(tooLong.html).toContain('Product Not Found');
    const unknown = await fetchPage('/no-such-page');
    expect(unknown.html).toContain('<title>Page Not Found | Threadline</title>');
    expect(unknown.html).toContain('<meta name="robots" content="noindex">');
  });

  it('gives a product shown from another address that address in its JSON-LD', async () => {
    const product = await createProduct(env.db, { image_url: 'https://cdn.example.com/tees/open-road.png' });
    // Out of the shop again at once: the browser tests after this one cannot load that image.
    const { html } = await fetchPage(`/product/${product.slug}`).finally(() =>
      env.db.deleteFrom('products').where('id', '=', product.id).execute(),
    );
    const jsonLd = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as { '@type': string; image?: string[] },
    );
    expect(jsonLd.find((item) => item['@type'] === 'ProductGroup')?.image).toEqual(['https://cdn.example.com/tees/open-road.png']);
  });

  it('answers 503 when the catalog cannot be read, so crawlers come back instead of taking the empty page for it', async () => {
    await sql`ALTER TABLE products RENAME TO products_away`.execute(env.db);
    try {
      const page = await fetchPage('/product/a-tee-nobody-read-before');
      expect(page.status).toBe(503);
    } finally {
      await sql`ALTER TABLE products_away RENAME TO products`.execute(env.db);
    }
    expect((await fetchPage('/product/a-tee-nobody-read-before')).status).toBe(404);
  });

  it('sends a signed-in admin the page everyone gets, and fills in their header in the browser without moving anything', async () => {
    const admin = await createAdmin(env.db);
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const page = await signInInBrowser(env, { email: admin.email, viewport });
      const cookies = await page.context().cookies();
      const { html } = await fetchPage('/', cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; '));
      // Kept for everyone: the header as a guest sees it, nothing of the admin's.
      expect(/<a [^>]*data-testid="account-link"[^>]*>/.exec(html)?.[0]).toContain('href="/login"');
      expect(html).not.toContain('data-testid="admin-link"');
      expect(html).not.toContain(admin.email);

      // Every layout shift of the page, from its first paint on.
      await page.addInitScript(() => {
        const shifts: number[] = [];
        (window as unknown as { layoutShifts: number[] }).layoutShifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) shifts.push(entry.value);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto('/');
      // On phones the Admin link is in the menu: there it is filled in but not shown in the bar.
      await page.getByTestId('admin-link').waitFor({ state: name === 'mobile' ? 'attached' : 'visible' });
      expect(await page.getByTestId('account-link').getAttribute('href')).toBe('/dashboard');
      await waitForImages(page);
      const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts);
      expect(shifts, name).toEqual([]);
      await page.locator('header').screenshot({ path: path.join(SCREENSHOT_DIR, `signed-in-header-filled-in-${name}.png`) });
      await page.close();
    }
  });

  it('hydrates every storefront page with no warning and no second read', async () => {
    const product = await someProduct();
    const paths = [...STOREFRONT_PATHS, `/product/${product.slug}`, `/category/${product.category_slug}`];
    for (const path of paths) {
      const page = await env.newPage();
      const reads: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/trpc/')) reads.push(request.url());
      });
      const warnings: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') warnings.push(message.text());
      });
      await page.goto(path);
      // Hydrated: the client's event handlers are attached (React marks the root).
      await page.waitForFunction(() =>
        Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer')),
      );
      await page.waitForLoadState('networkidle');
      expect(warnings, path).toEqual([]);
      expect(env.pageErrors(page), path).toEqual([]);
      // Every read the page needed came with it. The only calls are the visitor's own: who is
      // signed in (kept pages are the same for everyone) and live updates.
      expect(
        reads.filter((url) => !url.includes('/trpc/live.') && !/\/trpc\/auth\.me(?:\?|$)/.test(url)),
        path,
      ).toEqual([]);
      await page.close();
    }
  });

  it('lets a visitor browse without JavaScript', async () => {
    const product = await someProduct();
    const context = await env.browser.newContext({ baseURL: env.baseUrl, javaScriptEnabled: false });
    const page: Page = await context.newPage();
    try {
      await page.goto('/');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shop', exact: true }).click();
      await page.waitForURL('**/shop');
      await page.getByRole('link', { name: product.name }).first().click();
      await page.waitForURL(`**/product/${product.slug}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(product.name);
      await page.getByRole('link', { name: product.category_name }).first().click();
      await page.waitForURL(`**/category/${product.category_slug}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(product.category_name);
    } finally {
      await context.close();
    }
  });
});
