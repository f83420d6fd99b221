import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cartStorageKey } from '../../src/shared/constants';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, VIEWPORTS, waitForImages, sharedBrowserApp } from '../support/browser';
import { CONFIRMATION_SUBJECT, queuedEmailLink } from '../support/email';

// Cart and checkout (docs/PRODUCT.md § Screens, States and Limits).

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const cents = (price: string) => Math.round(Number(price) * 100);

const cartLines = (page: Page) => page.getByTestId('cart-line');
const lineFor = (page: Page, name: string, size: string) =>
  cartLines(page)
    .filter({ hasText: name })
    .filter({ hasText: `Size: ${size}` });

describe('cart and checkout', () => {
  const env = sharedBrowserApp();
  let storageKey: string;

  beforeAll(() => {
    storageKey = cartStorageKey(env.config.storeName);
  });

  async function activeProduct(offset = 0) {
    return env.db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .select(['products.id', 'products.slug', 'products.name', 'products.price', 'products.image_url', 'products.available_sizes'])
      .where('products.is_active', '=', true)
      .where('categories.is_active', '=', true)
      .orderBy('products.sku_number')
      .offset(offset)
      .limit(1)
      .executeTakeFirstOrThrow();
  }

  /** What a cart line keeps of its product. */
  const cartProduct = (p: { id: string; slug: string; name: string; price: string; image_url: string | null }) => ({
    id: p.id,
    slug: p.slug,
    name: p.name,
    price: p.price,
    image_url: p.image_url,
  });

  /** Puts lines straight into this page's localStorage, as an earlier visit would have left them. */
  async function storeCart(
    page: Page,
    lines: {
      product: { id: string; slug: string; name: string; image_url: string | null; price: string };
      size: string;
      quantity: number;
    }[],
  ) {
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [storageKey, JSON.stringify(lines)] as const);
  }

  /** Signs a new customer up in the page and confirms through the emailed link, which signs them in there. */
  async function signUp(page: Page, email: string) {
    await page.goto('/login?mode=signup');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText(`Check your email. We sent a message to ${email} with the next step.`).waitFor();
    await page.goto(await queuedEmailLink(env.db, email, CONFIRMATION_SUBJECT));
    await page.getByRole('button', { name: 'Confirm Email' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByTestId('account-email').waitFor();
  }

  it('empty cart: its texts and Start Shopping', async () => {
    const page = await env.newPage();
    await page.goto('/cart');
    await page.getByRole('heading', { name: 'Your cart is empty' }).waitFor();
    expect(await page.getByText('Add some awesome t-shirts to get started!').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Start Shopping' }).click();
    await page.waitForURL((url) => url.pathname === '/shop');
  });

  it('two sizes of a product, quantities changed, reload: lines and totals right; quantity 0 removes', async () => {
    const product = await activeProduct();
    const [small, large] = [product.available_sizes[0]!, product.available_sizes[2]!];
    const page = await env.newPage();
    await page.goto(`/product/${product.slug}`);
    const size = page.getByLabel('Size', { exact: true });
    await size.waitFor();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('button', { name: 'Add to Cart' }).waitFor({ timeout: 5_000 });
    await size.selectOption(large);
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('3');

    await page.getByRole('link', { name: 'View Cart' }).click();
    await page.getByRole('heading', { name: 'Shopping Cart' }).waitFor();
    await expect.poll(() => cartLines(page).count()).toBe(2);
    const smallLine = lineFor(page, product.name, small);
    const largeLine = lineFor(page, product.name, large);
    expect(await smallLine.getByTestId('line-quantity').textContent()).toBe('1');
    expect(await largeLine.getByTestId('line-quantity').textContent()).toBe('2');
    expect(await smallLine.getByTestId('line-price').textContent()).toBe(money(cents(product.price)));
    expect(await smallLine.getByRole('img').getAttribute('src')).toBe(product.image_url);
    expect(await smallLine.getByRole('link', { name: product.name }).getAttribute('href')).toBe(`/product/${product.slug}`);

    // Change quantities: small 1 -> 3, large 2 -> 1.
    await page.getByRole('button', { name: `Increase quantity of ${product.name} (White / ${small})` }).click();
    await page.getByRole('button', { name: `Increase quantity of ${product.name} (White / ${small})` }).click();
    await page.getByRole('button', { name: `Decrease quantity of ${product.name} (White / ${large})` }).click();
    const summary = page.getByTestId('order-summary');
    const unit = cents(product.price);
    await expect.poll(() => summary.getByTestId('summary-items').textContent()).toBe('4');
    expect(await summary.getByTestId('summary-subtotal').textContent()).toBe(money(unit * 4));
    await expect.poll(() => summary.getByTestId('summary-total').textContent()).toBe(money(unit * 4));
    expect(await summary.getByText('FREE').isVisible()).toBe(true);

    // The cart is restored from localStorage on load. The page the server sends cannot know it, and
    // says it is loading, not that the cart is empty.
    const served = await (await page.request.get('/cart')).text();
    expect(served).toContain('Loading your cart...');
    expect(served).not.toContain('Your cart is empty');
    await page.reload();
    await expect.poll(() => cartLines(page).count()).toBe(2);
    expect(await smallLine.getByTestId('line-quantity').textContent()).toBe('3');
    expect(await largeLine.getByTestId('line-quantity').textContent()).toBe('1');
    expect(await summary.getByTestId('summary-items').textContent()).toBe('4');
    await expect.poll(() => summary.getByTestId('summary-total').textContent()).toBe(money(unit * 4));
    expect(await page.getByTestId('cart-count').textContent()).toBe('4');

    // Minus at 1 sets the quantity to 0, which removes the line; Remove removes the other.
    // The button goes with its line: the keyboard focus goes to the page's heading, not the page's start.
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    await page.getByRole('button', { name: `Decrease quantity of ${product.name} (White / ${large})` }).press('Enter');
    await expect.poll(() => cartLines(page).count()).toBe(1);
    await expect.poll(focusedText).toBe('Shopping Cart');
    await expect.poll(() => summary.getByTestId('summary-total').textContent()).toBe(money(unit * 3));
    await page.getByRole('button', { name: `Remove ${product.name} (White / ${small})` }).press('Enter');
    await page.getByRole('heading', { name: 'Your cart is empty' }).waitFor();
    await expect.poll(focusedText).toBe('Your cart is empty');
    expect(await page.evaluate((key) => localStorage.getItem(key), storageKey)).toBeNull();
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('prices and availability come from the server: a repriced, a deactivated and a deleted product', async () => {
    const repriced = await activeProduct(1);
    const deactivated = await activeProduct(2);
    const category = await env.db.selectFrom('categories').select('id').where('slug', '=', 'car').executeTakeFirstOrThrow();
    const doomed = await env.db
      .insertInto('products')
      .values({
        sku_number: 'TL-TEST-GONE',
        slug: 'gone-tee',
        name: 'Gone Tee',
        description: 'Deleted soon.',
        price: '15.00',
        front_art_url: '/images/fallback-tee.svg',
        available_sizes: ['M'],
        tags: [],
        category_id: category.id,
        updated_at: new Date(),
      })
      .returning(['id', 'slug', 'name', 'price', 'image_url'])
      .executeTakeFirstOrThrow();

    const page = await env.newPage();
    await page.goto('/');
    await storeCart(page, [
      { product: cartProduct(repriced), size: 'M', quantity: 2 },
      { product: cartProduct(deactivated), size: 'L', quantity: 1 },
      { product: cartProduct(doomed), size: 'M', quantity: 1 },
    ]);
    const newPrice = (Number(repriced.price) + 5).toFixed(2);
    await env.db.updateTable('products').set({ price: newPrice }).where('id', '=', repriced.id).execute();
    await env.db.updateTable('products').set({ is_active: false }).where('id', '=', deactivated.id).execute();
    await env.db.deleteFrom('products').where('id', '=', doomed.id).execute();
    try {
      await page.goto('/cart');
      const repricedLine = lineFor(page, repriced.name, 'M');
      await expect.poll(() => repricedLine.getByTestId('line-price').textContent()).toBe(money(cents(newPrice)));
      expect(await repricedLine.getByTestId('price-changed').textContent()).toBe(`Price changed from ${money(cents(repriced.price))}`);

      for (const [name, size] of [
        [deactivated.name, 'L'],
        [doomed.name, 'M'],
      ] as const) {
        const line = lineFor(page, name, size);
        expect(await line.getByTestId('line-unavailable').textContent()).toContain('This product is no longer available.');
        expect(await line.getByRole('link').count()).toBe(0);
      }

      // Totals count only what can be bought, at today's price; checkout waits until the rest is removed.
      const summary = page.getByTestId('order-summary');
      expect(await summary.getByTestId('summary-items').textContent()).toBe('2');
      await expect.poll(() => summary.getByTestId('summary-total').textContent()).toBe(money(cents(newPrice) * 2));
      const proceed = page.getByRole('button', { name: 'Proceed to Checkout' });
      expect(await proceed.isDisabled()).toBe(true);
      expect(await page.getByText('Remove the items that are no longer available to continue.').isVisible()).toBe(true);
      await saveScreenshot(page, 'cart-unavailable-1280');
      expect(await seriousA11yViolations(page)).toEqual([]);

      await page.getByRole('button', { name: `Remove ${deactivated.name} (L)` }).click();
      await page.getByRole('button', { name: `Remove ${doomed.name} (M)` }).click();
      await page.getByRole('link', { name: 'Proceed to Checkout' }).waitFor();
      expect(await cartLines(page).count()).toBe(1);
      await expect.poll(() => summary.getByTestId('summary-total').textContent()).toBe(money(cents(newPrice) * 2));
      expect(env.pageErrors(page)).toEqual([]);
    } finally {
      await env.db.updateTable('products').set({ price: repriced.price }).where('id', '=', repriced.id).execute();
      await env.db.updateTable('products').set({ is_active: true }).where('id', '=', deactivated.id).execute();
    }
  });

  it('checkout: an empty cart goes to /cart; signed out it is a guest checkout, or /login?redirect=/checkout when the shop turned that off', async () => {
    const product = await activeProduct();
    const page = await env.newPage();
    await page.goto('/checkout');
    await page.waitForURL((url) => url.pathname === '/cart');
    await page.getByRole('heading', { name: 'Your cart is empty' }).waitFor();

    await storeCart(page, [{ product: cartProduct(product), size: 'M', quantity: 1 }]);
    await page.goto('/checkout');
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await page.getByTestId('shipping-form').getByLabel('Email', { exact: true }).waitFor();
    expect(await page.getByText('Have an account?').getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/login?redirect=%2Fcheckout',
    );

    await env.db.updateTable('store_settings').set({ guest_checkout: false }).execute();
    try {
      await page.goto('/checkout');
      await page.waitForURL((url) => url.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/checkout');

      // From the cart page too.
      await page.goto('/cart');
      await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
      await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/checkout');
    } finally {
      await env.db.updateTable('store_settings').set({ guest_checkout: true }).execute();
    }

    // Signed in with an empty cart: still /cart.
    const signedIn = await env.newPage();
    await signUp(signedIn, 'empty-cart@example.com');
    await signedIn.goto('/checkout');
    await signedIn.waitForURL((url) => url.pathname === '/cart');
  });

  it('checkout: shipping form prefilled from the account, order summary priced by the server, manual payment, Complete Order', async () => {
    const [first, second] = [await activeProduct(3), await activeProduct(4)];
    const address = { street: '12 Piston Way', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' };
    for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
      const page = await env.newPage({ viewport });
      const email = `checkout-${viewport.width}@example.com`;
      await signUp(page, email);
      const saved = await page.request.post('/trpc/account.saveProfile', {
        data: {
          first_name: 'Rita',
          last_name: 'Rider',
          phone: '555-0100',
          shipping_address: address,
          same_as_shipping: true,
          billing_address: address,
        },
        headers: { origin: env.baseUrl },
      });
      expect(saved.status()).toBe(200);
      await page.goto('/');
      await storeCart(page, [
        { product: cartProduct(first), size: 'M', quantity: 2 },
        { product: cartProduct(second), size: 'XL', quantity: 1 },
      ]);
      await page.goto('/cart');
      await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
      await page.waitForURL((url) => url.pathname === '/checkout');
      await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();

      expect(await page.getByText('Payment integration required').count()).toBe(0);
      const form = page.getByTestId('shipping-form');
      await form.waitFor();
      expect(await page.getByText(`We'll send the order confirmation to ${email}.`).isVisible()).toBe(true);
      const expected: Record<string, string> = {
        'First name': 'Rita',
        'Last name': 'Rider',
        Phone: '555-0100',
        'Street address': address.street,
        City: address.city,
        State: address.state,
        'ZIP code': address.zip,
        Country: address.country,
      };
      for (const [label, value] of Object.entries(expected)) {
        expect(await form.getByLabel(label, { exact: true }).inputValue(), label).toBe(value);
      }

      const summary = page.getByTestId('order-summary');
      const total = cents(first.price) * 2 + cents(second.price);
      expect(await summary.getByTestId('checkout-lines').locator('li').count()).toBe(2);
      expect(await summary.getByText(first.name).isVisible()).toBe(true);
      expect(await summary.getByTestId('summary-items').textContent()).toBe('3');
      await expect.poll(() => summary.getByTestId('summary-total').textContent()).toBe(money(total));
      expect(await summary.getByText('FREE').isVisible()).toBe(true);
      // The demo store has written no payment instructions: the buyer is told how to ask, not promised any.
      expect(await page.getByTestId('payment-instructions').innerText()).toBe(
        'We print your order once the payment arrives. Reply to your confirmation email to ask how to pay.',
      );
      await expect.poll(() => page.getByRole('button', { name: 'Complete Order' }).isEnabled()).toBe(true);

      await waitForImages(page);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await saveScreenshot(page, `checkout-${viewport.width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(env.pageErrors(page)).toEqual([]);
    }
  });

  it('checkout: one cart sent from two tabs at once is one order, which both tabs show', async () => {
    const product = await activeProduct(5);
    const tabA = await env.newPage();
    const email = 'two-tabs@example.com';
    await signUp(tabA, email);
    const address = { street: '1 Twin Rd', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' };
    const profile = { first_name: 'Tess', last_name: 'Twin', phone: '555-0101', shipping_address: address, same_as_shipping: true };
    const saved = await tabA.request.post('/trpc/account.saveProfile', {
      data: { ...profile, billing_address: address },
      headers: { origin: env.baseUrl },
    });
    expect(saved.status()).toBe(200);
    await tabA.goto('/');
    await storeCart(tabA, [{ product: cartProduct(product), size: 'M', quantity: 1 }]);
    // The second tab shares the first's cookies and localStorage, as tabs of one browser do.
    const tabB = await tabA.context().newPage();
    for (const tab of [tabA, tabB]) {
      await tab.goto('/checkout');
      await expect.poll(() => tab.getByRole('button', { name: 'Complete Order' }).isEnabled()).toBe(true);
    }

    // The first tab's request is held on its way until the second tab's order is placed.
    let releaseA = () => {};
    const heldA = new Promise<void>((resolve) => (releaseA = resolve));
    await tabA.route('**/trpc/checkout.placeOrder**', async (route) => {
      await heldA;
      await route.continue();
    });
    await tabA.getByRole('button', { name: 'Complete Order' }).click();
    await tabB.getByRole('button', { name: 'Complete Order' }).click();
    await tabB.waitForURL((url) => url.pathname.startsWith('/orders/'));
    releaseA();
    await tabA.waitForURL((url) => url.pathname.startsWith('/orders/'));
    expect(new URL(tabA.url()).pathname).toBe(new URL(tabB.url()).pathname);
    const orders = await env.db
      .selectFrom('orders')
      .innerJoin('customers', 'customers.id', 'orders.customer_id')
      .select('orders.order_number')
      .where('customers.email', '=', email)
      .execute();
    expect(orders).toHaveLength(1);
  });

  it('cart pages: no serious accessibility violations; screenshots at 375 and 1280 px', async () => {
    const [first, second] = [await activeProduct(5), await activeProduct(6)];
    for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
      const page = await env.newPage({ viewport });
      await page.goto('/cart');
      await page.getByRole('heading', { name: 'Your cart is empty' }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await saveScreenshot(page, `cart-empty-${viewport.width}`);

      await storeCart(page, [
        { product: cartProduct(first), size: 'S', quantity: 1 },
        { product: cartProduct(second), size: '2XL', quantity: 3 },
      ]);
      await page.reload();
      await expect.poll(() => cartLines(page).count()).toBe(2);
      await waitForImages(page);
      expect(await seriousA11yViolations(page)).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await saveScreenshot(page, `cart-${viewport.width}`);
      expect(env.pageErrors(page)).toEqual([]);
    }
  });
});
