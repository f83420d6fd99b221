import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInInBrowser, sharedBrowserApp, waitForImages } from '../support/browser';
import { createAdmin, createCustomer, createOrder, type TestUser } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';

// Every storefront, account and admin page of the built client under the store's strict
// Content-Security-Policy: each renders (its heading shows, its images load) and the
// browser reports no violation, neither as a securitypolicyviolation event nor on the console.
// Plus the parts most likely to trip a CSP: an image upload with its preview, the mockup
// generator's preview, and the checkout form.

const env = sharedBrowserApp();

const data = sharedBeforeAll(async () => {
  const [customer, admin] = await Promise.all([createCustomer(env.db), createAdmin(env.db)]);
  const product = await env.db
    .selectFrom('products')
    .select(['id', 'slug', 'name', 'price', 'image_url'])
    .where('is_active', '=', true)
    .where('front_art_url', 'is not', null)
    .orderBy('name')
    .executeTakeFirstOrThrow();
  const category = await env.db
    .selectFrom('categories')
    .select(['slug', 'name'])
    .where('is_active', '=', true)
    .orderBy('sort_order')
    .executeTakeFirstOrThrow();
  const plan = await env.db.selectFrom('subscription_plans').select('slug').orderBy('slug').executeTakeFirstOrThrow();
  const order = await createOrder(env.db, { customer_id: customer.id }, [
    {
      product_id: product.id,
      product_name: product.name,
      product_image: product.image_url,
      size: 'M',
      quantity: 1,
      unit_price: product.price,
      total_price: product.price,
    },
  ]);
  return { customer, admin, product, category, planSlug: plan.slug, orderNumber: order.order_number };
});

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

interface WatchedPage {
  page: Page;
  /** Violations seen so far, from the page's events (all loads) and its console. */
  violations(): Promise<string[]>;
}

/** A page of its own browser context (signed in as `user` if given) that records every CSP violation from its first script on. */
async function watchedPage(user?: TestUser): Promise<WatchedPage> {
  const page = user ? await signInInBrowser(env, { email: user.email, timeout: 20_000 }) : await env.newPage();
  page.setDefaultTimeout(20_000);
  const seen: string[] = [];
  // An init script runs before the page's own and is not subject to its CSP.
  await page.exposeFunction('reportCspViolation', (text: string) => seen.push(text));
  await page.addInitScript(() => {
    window.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
        report(
          `${location.pathname}: ${event.effectiveDirective} refused ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
        );
      },
      true,
    );
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) seen.push(`console: ${message.text()}`);
  });
  return { page, violations: () => Promise.resolve([...seen]) };
}

/** Opens `path` (served with the strict policy) and waits for its level-1 heading and its images. */
async function visit(page: Page, path: string, heading: string) {
  const response = await page.goto(path);
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toMatch(/script-src 'self' 'nonce-[0-9a-f]+';/);
  expect(policy).not.toContain('unsafe-');
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  await waitForImages(page, 20_000);
}

/** A watchedPage (signed in as `user` if given) that has visited each of `pages` in turn. */
async function watchedVisits(user: TestUser | undefined, pages: [path: string, heading: string][]): Promise<WatchedPage> {
  const watched = await watchedPage(user);
  for (const [path, heading] of pages) await visit(watched.page, path, heading);
  return watched;
}

describe('every page under the Content-Security-Policy', () => {
  it('storefront pages, signed out', { timeout: 180_000 }, async () => {
    const watched = await watchedVisits(undefined, [
      ['/', 'Tees for the ride, the garage and the faith.'],
      ['/shop', 'All T-Shirts'],
      [`/category/${data.category.slug}`, data.category.name],
      [`/product/${data.product.slug}`, data.product.name],
      ['/cart', 'Your cart is empty'],
      ['/subscriptions', 'The Threadline Tee Club'],
      ['/contact', 'Contact Us'],
      ['/faq', 'Frequently Asked Questions'],
      ['/shipping', 'Shipping Info'],
      ['/returns', 'Returns & Exchanges'],
      ['/login', 'Sign In'],
      ['/login?mode=signup', 'Create Account'],
      ['/reset-password', 'Reset Password'],
      ['/confirm-email', 'Confirm Email'],
      ['/no-such-page', 'Page Not Found'],
    ]);
    expect(await watched.violations()).toEqual([]);
  });

  it('account pages and the checkout, signed in', { timeout: 180_000 }, async () => {
    const watched = await watchedVisits(data.customer, [
      ['/dashboard', 'My Account'],
      ['/orders', 'My Orders'],
      [`/orders/${data.orderNumber}`, `Order ${data.orderNumber}`],
      ['/settings', 'Account Settings'],
      ['/subscription', 'My Subscription'],
      [`/subscriptions/join/${data.planSlug}`, `Join ${await planName(data.planSlug)}`],
      ['/checkout/complete', 'Order Not Found'],
    ]);
    const { page } = watched;
    // A cart line, then the checkout form.
    await visit(page, `/product/${data.product.slug}`, data.product.name);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('1');
    await visit(page, '/cart', 'Shopping Cart');
    await visit(page, '/checkout', 'Checkout');
    expect(await watched.violations()).toEqual([]);
  });

  it('admin pages, an image upload with its preview and the mockup preview', { timeout: 240_000 }, async () => {
    const watched = await watchedVisits(data.admin, [
      ['/admin', 'Dashboard'],
      ['/admin/products', 'Products'],
      [`/admin/products/${data.product.id}/edit`, 'Edit Product'],
      ['/admin/categories', 'Categories'],
      ['/admin/orders', 'Orders'],
      ['/admin/artwork', 'Artwork Library'],
      ['/admin/customers', 'Customers'],
      ['/admin/contact', 'Contact Submissions'],
      ['/admin/email-logs', 'Email Logs'],
      ['/admin/settings', 'Settings'],
      ['/admin/subscribers', 'Subscribers'],
      ['/admin/subscriptions', 'Subscription Plans'],
    ]);
    const { page } = watched;

    // An upload (XHR to /api/uploads) and the stored image shown as its preview.
    await visit(page, '/admin/products/new', 'New Product');
    const upload = page.getByTestId('front-art-upload');
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#0f766e' } })
      .png()
      .toBuffer();
    await upload.getByLabel('Upload front artwork').setInputFiles({ name: 'art.png', mimeType: 'image/png', buffer: png });
    const preview = upload.getByRole('img', { name: 'Front artwork preview' });
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toMatch(/^\/storage\/product-art\//);
    await waitForImages(page);
    expect(await preview.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(300);

    // The mockup generator's live preview: template, artwork and print area placed by styles.
    await visit(page, '/admin/mockups', 'Mockup Generator');
    await page.getByLabel('Product', { exact: true }).selectOption(data.product.id);
    await page.getByTestId('mockup-preview').first().waitFor();
    await page.getByTestId('mockup-art').first().waitFor();
    await waitForImages(page);
    expect(await watched.violations()).toEqual([]);
  });
});

async function planName(slug: string): Promise<string> {
  const plan = await env.db.selectFrom('subscription_plans').select('name').where('slug', '=', slug).executeTakeFirstOrThrow();
  return plan.name;
}
