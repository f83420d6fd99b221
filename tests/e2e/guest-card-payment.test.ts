import { describe, expect, it } from 'vitest';
import { saveScreenshot, sharedBrowserApp, VIEWPORTS } from '../support/browser';
import { paidSession, signedEvent, startFakeStripe } from '../support/fake-stripe';
import { sharedBeforeAll } from '../support/hooks';

// A guest paying by card (README "Checkout", docs/adr/0027-guest-checkout.md): Complete Order goes
// to Stripe, and Stripe sends the buyer back to /checkout/complete?order=<id>. The tab that left
// kept the order's key, so it opens the order; a tab without the key is told where the order is
// and shown no order at all.

const WEBHOOK_SECRET = 'whsec_test_guest_card';
const stripe = sharedBeforeAll(startFakeStripe, (server) => server.close());
const env = sharedBrowserApp(() => ({
  env: { STRIPE_SECRET_KEY: 'sk_test_guest_card', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url },
}));

describe('a guest paying by card', () => {
  it('comes back from Stripe to the order in the same tab, paid once the webhook says so; a tab without the key sees no order', async () => {
    const product = await env.db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .select(['products.slug', 'products.name'])
      .where('products.is_active', '=', true)
      .where('categories.is_active', '=', true)
      .orderBy('products.created_at')
      .executeTakeFirstOrThrow();
    const page = await env.newPage({ viewport: VIEWPORTS.mobile });
    // Stripe's payment page, as far as this browser goes: a page at the session's address.
    await page.route('https://checkout.stripe.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Stripe Checkout</title><h1>Pay</h1>' }),
    );

    await page.goto(`/product/${product.slug}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('button', { name: 'Added to Cart!' }).waitFor();
    await page.goto('/checkout');
    const form = page.getByTestId('shipping-form');
    await form.getByLabel('Email', { exact: true }).fill('card.guest@example.com');
    await form.getByLabel('First name', { exact: true }).fill('Carla');
    await form.getByLabel('Last name', { exact: true }).fill('Card');
    await form.getByLabel('Street address', { exact: true }).fill('1 Pay Street');
    await form.getByLabel('City', { exact: true }).fill('Austin');
    await form.getByLabel('State', { exact: true }).fill('TX');
    await form.getByLabel('ZIP code', { exact: true }).fill('78701');
    await form.getByLabel('Country', { exact: true }).fill('USA');
    await page.getByRole('button', { name: 'Complete Order' }).click();
    await page.waitForURL((url) => url.hostname === 'checkout.stripe.test');
    const session = [...stripe.sessions.values()].find((s) => s.url === page.url())!;
    expect(session.customer_email).toBe('card.guest@example.com');
    const { order_number: orderNumber } = await env.db
      .selectFrom('orders')
      .select('order_number')
      .where('id', '=', session.client_reference_id!)
      .executeTakeFirstOrThrow();
    const back = `${env.baseUrl}/checkout/complete?order=${session.client_reference_id}&payment=done`;

    // Paid, and back in the same tab before Stripe's webhook has come: the order, being confirmed.
    await page.goto(back);
    await page.waitForURL((url) => url.pathname === `/orders/${orderNumber}` && url.searchParams.has('key'));
    await page.getByTestId('payment-processing').waitFor();
    expect(await page.getByTestId('order-items').innerText()).toContain(product.name);
    const signed = signedEvent(WEBHOOK_SECRET, 'checkout.session.completed', paidSession(session, 'pi_guest_card'));
    const delivered = await fetch(`${env.baseUrl}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
      body: signed.body,
    });
    expect(delivered.status).toBe(200);
    // The page looks again by itself and shows the payment received.
    await page.getByTestId('payment-received').waitFor({ timeout: 15_000 });
    await saveScreenshot(page, 'guest-card-paid-375');
    expect(env.pageErrors(page)).toEqual([]);

    // The same way back in a browser that does not hold the key: a clear message, no order.
    const elsewhere = await env.newPage({ viewport: VIEWPORTS.mobile });
    await elsewhere.goto(back);
    await elsewhere.getByRole('heading', { name: 'Order Not Found' }).waitFor();
    const text = await elsewhere.locator('main').innerText();
    expect(text).toContain('If you checked out without an account, the link in your order confirmation email opens your order.');
    expect(text).not.toContain(orderNumber);
    expect(text).not.toContain(product.name);
    await saveScreenshot(elsewhere, 'guest-card-way-back-without-key-375');
  });
});
