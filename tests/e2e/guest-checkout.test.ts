import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, sharedBrowserApp, signInInBrowser, VIEWPORTS, waitForImages } from '../support/browser';
import { CONFIRMATION_SUBJECT, queuedEmailLink } from '../support/email';
import { createCustomer } from '../support/factories';

// A first-time buyer pays in one sitting (README "Checkout"): as a guest, from the product page to
// "Thank you for your order!" in five steps, then the order opens from the emailed link; or signs
// up from the checkout and comes back to it, cart and all, from the confirmation email.

const env = sharedBrowserApp();

/** A product of the demo store, with a size to buy. */
async function demoProduct() {
  return env.db
    .selectFrom('products')
    .innerJoin('categories', 'categories.id', 'products.category_id')
    .select(['products.slug', 'products.name'])
    .where('products.is_active', '=', true)
    .where('categories.is_active', '=', true)
    .orderBy('products.created_at')
    .executeTakeFirstOrThrow();
}

async function fillShipping(page: Page) {
  const form = page.getByTestId('shipping-form');
  await form.getByLabel('First name', { exact: true }).fill('Gina');
  await form.getByLabel('Last name', { exact: true }).fill('Guest');
  await form.getByLabel('Street address', { exact: true }).fill('7 Open Road');
  await form.getByLabel('City', { exact: true }).fill('Austin');
  await form.getByLabel('State', { exact: true }).fill('TX');
  await form.getByLabel('ZIP code', { exact: true }).fill('78701');
  await form.getByLabel('Country', { exact: true }).fill('USA');
}

describe('guest checkout', () => {
  it('a new visitor buys as a guest in one sitting at 375 px, in five steps, and opens the order from the emailed link', async () => {
    const product = await demoProduct();
    const page = await env.newPage({ viewport: VIEWPORTS.mobile });
    const steps: string[] = [];

    await page.goto(`/product/${product.slug}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    steps.push('Add to Cart');
    await page.getByRole('button', { name: 'Added to Cart!' }).waitFor();
    await page.getByRole('link', { name: 'View Cart' }).click();
    steps.push('the cart');
    await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
    steps.push('Checkout');
    await page.waitForURL((url) => url.pathname === '/checkout');

    // Signed out, the checkout asks for an address to send the order to, and offers to sign in.
    const form = page.getByTestId('shipping-form');
    await form.getByLabel('Email', { exact: true }).fill('gina.guest@example.com');
    await fillShipping(page);
    steps.push('the form');
    expect(await page.getByLabel('Save to my account').count()).toBe(0);
    await waitForImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'guest-checkout-375');
    await page.getByRole('button', { name: 'Complete Order' }).click();
    steps.push('Complete Order');

    await page.getByRole('heading', { name: 'Thank you for your order!', level: 1 }).waitFor();
    expect(steps).toHaveLength(5);
    const orderNumber = (await page.getByTestId('order-number').textContent())!;
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/orders/${orderNumber}`);
    expect(url.searchParams.get('key')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.getByTestId('order-items').innerText()).toContain(product.name);
    // No account was needed; one is offered, with the address already known.
    const offer = page.getByTestId('create-account');
    await offer.getByRole('heading', { name: 'Create an account' }).waitFor();
    expect(await offer.getByLabel('Email').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.mobile.width);
    await waitForImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'guest-thank-you-375');

    // The emailed link opens the order in any browser, and shows nothing but the order.
    const link = await queuedEmailLink(env.db, 'gina.guest@example.com', orderNumber);
    const elsewhere = await env.newPage({ viewport: VIEWPORTS.mobile });
    await elsewhere.goto(link);
    await elsewhere.getByRole('heading', { name: `Order ${orderNumber}`, level: 1 }).waitFor();
    expect(await elsewhere.getByTestId('order-items').innerText()).toContain(product.name);
    expect(await elsewhere.getByRole('link', { name: 'My Orders' }).count()).toBe(0);
    // Without its key it is not a guest's to open: the visitor is asked to sign in.
    await elsewhere.goto(`/orders/${orderNumber}`);
    await elsewhere.waitForURL((next) => next.pathname === '/login');
    await saveScreenshot(page, 'guest-order-from-email-375');

    // "Create an account": the confirmation link brings the buyer back to the order, now in the account.
    await offer.getByLabel('Password', { exact: true }).fill('secret123');
    await offer.getByRole('button', { name: 'Create Account' }).click();
    await offer.getByText('Check your email: we sent you a link to confirm your account.').waitFor();
    await page.goto(await queuedEmailLink(env.db, 'gina.guest@example.com', CONFIRMATION_SUBJECT));
    await page.getByRole('button', { name: 'Confirm Email' }).click();
    await page.waitForURL((next) => next.pathname === `/orders/${orderNumber}` && !next.searchParams.has('key'));
    await page.getByRole('link', { name: 'My Orders' }).waitFor();
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('address once: a customer’s saved address fills the checkout, and Save to my account keeps a new one', async () => {
    const customer = await createCustomer(env.db, { email: 'address.once@example.com' });
    const page = await signInInBrowser(env, { email: customer.email, viewport: VIEWPORTS.mobile });
    const product = await demoProduct();
    const checkoutWithAShirt = async () => {
      await page.goto(`/product/${product.slug}`);
      await page.getByRole('button', { name: 'Add to Cart' }).click();
      await page.getByRole('button', { name: 'Added to Cart!' }).waitFor();
      await page.goto('/checkout');
      await page.getByTestId('shipping-form').waitFor();
    };
    const form = page.getByTestId('shipping-form');
    const saveToAccount = form.getByLabel('Save to my account');

    // Nothing saved yet: the address is typed once, and kept.
    await checkoutWithAShirt();
    expect(await form.getByLabel('Street address', { exact: true }).inputValue()).toBe('');
    await fillShipping(page);
    await saveToAccount.check();
    await page.getByRole('button', { name: 'Complete Order' }).click();
    await page.getByRole('heading', { name: 'Thank you for your order!', level: 1 }).waitFor();

    // The next checkout is filled with it, and still offers to keep a changed one.
    await checkoutWithAShirt();
    const filled = {
      'First name': 'Gina',
      'Last name': 'Guest',
      'Street address': '7 Open Road',
      City: 'Austin',
      State: 'TX',
      'ZIP code': '78701',
      Country: 'USA',
    };
    for (const [label, value] of Object.entries(filled)) {
      expect(await form.getByLabel(label, { exact: true }).inputValue(), label).toBe(value);
    }
    expect(await saveToAccount.isChecked()).toBe(false);
    await saveScreenshot(page, 'checkout-address-filled-375');
    expect(env.pageErrors(page)).toEqual([]);
  });

  /** A visitor with a shirt in the cart goes from the checkout to Sign in, then Sign up; the confirmation link they are emailed. */
  async function signUpFromCheckout(page: Page, email: string): Promise<string> {
    const product = await demoProduct();
    await page.goto(`/product/${product.slug}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('button', { name: 'Added to Cart!' }).waitFor();
    await page.goto('/checkout');
    await page.getByText('Have an account?').getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/checkout');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL((url) => url.searchParams.get('mode') === 'signup' && url.searchParams.get('redirect') === '/checkout');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Check your email.').waitFor();
    const link = await queuedEmailLink(env.db, email, CONFIRMATION_SUBJECT);
    expect(new URL(link).searchParams.get('next')).toBe('/checkout');
    return link;
  }

  it('a visitor signs up from the checkout, confirms from the email, and lands back on the checkout with the cart', async () => {
    const product = await demoProduct();
    const page = await env.newPage({ viewport: VIEWPORTS.mobile });
    const link = await signUpFromCheckout(page, 'back.to.checkout@example.com');
    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm Email' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout');
    await page.getByText("We'll send the order confirmation to back.to.checkout@example.com.").waitFor();
    expect(await page.getByTestId('checkout-line').innerText()).toContain(product.name);
    await saveScreenshot(page, 'checkout-after-sign-up-375');
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('says the cart is in the other browser when the link is confirmed on another device', async () => {
    const page = await env.newPage({ viewport: VIEWPORTS.mobile });
    const link = await signUpFromCheckout(page, 'other.device@example.com');
    const device = await env.newPage({ viewport: VIEWPORTS.mobile });
    await device.goto(link);
    await device.getByLabel('New password', { exact: true }).fill('secret456');
    await device.getByLabel('Confirm new password', { exact: true }).fill('secret456');
    await device.getByRole('button', { name: 'Confirm Email' }).click();
    await device.getByTestId('cart-in-other-browser').waitFor();
    await saveScreenshot(device, 'cart-in-other-browser-375');
  });
});
