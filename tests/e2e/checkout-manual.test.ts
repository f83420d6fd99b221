import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cartStorageKey } from '../../src/shared/constants';
import { formatMoney } from '../../src/shared/money';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, signInInBrowser, VIEWPORTS, waitForImages, sharedBrowserApp } from '../support/browser';
import { outboxMail as readOutboxMail } from '../support/outbox';
import { createAdmin, createCustomer, createProduct } from '../support/factories';

// The manual-payment flow end to end (README "Taking payments"): an admin writes the payment
// instructions, a customer places an order from the cart, lands on "Thank you for your order!",
// finds it in My Orders (the cart empties in every open tab), the admin marks it paid, and the confirmation email with the
// instructions reaches the outbox.

const INSTRUCTIONS = 'Bank transfer to Threadline LLC\nIBAN DE00 1234 5678 9012 3456 78';

const env = sharedBrowserApp();
/** Lines in this page's localStorage, as the product page's Add to Cart leaves them. */
async function fillCart(
  page: Page,
  lines: { product: { id: string; slug: string; name: string; image_url: string | null; price: string }; size: string; quantity: number }[],
) {
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
    cartStorageKey(env.config.storeName),
    JSON.stringify(lines),
  ] as const);
}

const outboxMail = (subject: string) => readOutboxMail(env.config.dataDir, subject);

describe('checkout with manual payment', () => {
  it('places the order, shows it to the customer and the admin, and mails the instructions', async () => {
    const admin = await createAdmin(env.db, { email: 'checkout.admin@example.com' });
    const adminPage = await signInInBrowser(env, { email: admin.email });

    // The admin sets the instructions buyers see (and a shipping rate, to see it priced).
    await adminPage.goto('/admin/settings');
    const instructions = adminPage.getByLabel('Payment instructions');
    await instructions.waitFor();
    await instructions.fill(INSTRUCTIONS);
    await adminPage.getByLabel('Shipping rate (USD)').fill('4.95');
    await adminPage.getByLabel('Free shipping from (USD)').fill('');
    await adminPage.getByRole('button', { name: 'Save Checkout Settings' }).click();
    await adminPage.getByTestId('toast-success').filter({ hasText: 'Checkout settings saved' }).waitFor();
    expect(await adminPage.getByTestId('payment-provider').textContent()).toContain('Payments: manual');

    // The storefront stops promising free shipping.
    await adminPage.goto('/shipping');
    await adminPage.getByRole('heading', { name: 'Flat-rate shipping: $4.95 per order' }).waitFor();
    expect(await adminPage.locator('footer').innerText()).toContain('Prices in USD. Flat-rate shipping: $4.95 per order.');
    expect(await adminPage.getByText('Free shipping on every order').count()).toBe(0);

    const customer = await createCustomer(env.db, { email: 'buyer@example.com' });
    const product = await createProduct(env.db, { name: 'Checkered Flag Tee', price: '24.00' });
    const page = await signInInBrowser(env, { email: customer.email, viewport: VIEWPORTS.mobile });
    await page.goto('/');
    await fillCart(page, [
      {
        product: { id: product.id, slug: product.slug, name: product.name, image_url: product.image_url, price: product.price },
        size: 'L',
        quantity: 2,
      },
    ]);
    // A second tab of the same browser shows the same cart.
    const otherTab = await page.context().newPage();
    await otherTab.goto('/cart');
    await otherTab.getByTestId('cart-line').waitFor();

    await page.goto('/cart');
    await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout');
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    expect(await page.getByText('Payment integration required').count()).toBe(0);
    await expect.poll(() => page.getByTestId('summary-shipping').textContent()).toBe('$4.95');
    expect(await page.getByTestId('summary-total').textContent()).toBe(formatMoney(52.95));
    expect(await page.getByTestId('payment-instructions').innerText()).toContain('IBAN DE00 1234 5678 9012 3456 78');

    // A missing address field is named under the field, and nothing is placed.
    const form = page.getByTestId('shipping-form');
    await form.getByLabel('First name', { exact: true }).fill('Rita');
    await form.getByLabel('Last name', { exact: true }).fill('Rider');
    await form.getByLabel('Street address', { exact: true }).fill('12 Piston Way');
    await form.getByLabel('City', { exact: true }).fill('Austin');
    await form.getByLabel('State', { exact: true }).fill('TX');
    await form.getByLabel('Country', { exact: true }).fill('USA');
    await page.getByRole('button', { name: 'Complete Order' }).click();
    await page.getByText('ZIP code is required').waitFor();
    expect(await env.db.selectFrom('orders').select('id').where('customer_id', '=', customer.id).execute()).toEqual([]);

    await form.getByLabel('ZIP code', { exact: true }).fill('78701');
    await form.getByLabel('Save to my account').check();
    await waitForImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'checkout-manual-375');
    await page.getByRole('button', { name: 'Complete Order' }).click();

    await page.waitForURL((url) => /^\/orders\/TL-\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Thank you for your order!', level: 1 }).waitFor();
    const orderNumber = (await page.getByTestId('order-number').textContent())!;
    expect(page.url()).toContain(`/orders/${orderNumber}`);
    expect(await page.getByTestId('payment-instructions').innerText()).toContain('IBAN DE00 1234 5678 9012 3456 78');
    expect(await page.getByTestId('order-items').innerText()).toContain('Checkered Flag Tee');
    await expect.poll(() => page.getByTestId('cart-count').count()).toBe(0);
    // The cart empties in every open tab.
    await otherTab.getByRole('heading', { name: 'Your cart is empty' }).waitFor();
    expect(await otherTab.getByTestId('cart-count').count()).toBe(0);
    await waitForImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'order-placed-375');

    // A store that has written no instructions yet: the buyer is told to ask, not shown an empty box.
    const settings = () => env.db.updateTable('store_settings');
    const { payment_instructions: written } = await env.db
      .selectFrom('store_settings')
      .select('payment_instructions')
      .executeTakeFirstOrThrow();
    await settings().set({ payment_instructions: '' }).execute();
    try {
      await page.reload();
      await expect
        .poll(() => page.getByTestId('payment-instructions').innerText())
        .toBe('How to pay\n\nWe print your order as soon as your payment arrives. Reply to your confirmation email to ask how to pay.');
    } finally {
      await settings().set({ payment_instructions: written }).execute();
    }

    const order = await env.db.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ customer_id: customer.id, payment_status: 'pending', payment_provider: 'manual', total: '52.95' });
    const saved = await env.db.selectFrom('customers').select('shipping_address').where('id', '=', customer.id).executeTakeFirstOrThrow();
    expect(saved.shipping_address).toMatchObject({ street: '12 Piston Way', zip: '78701' });

    // My Orders lists it.
    await page.getByRole('link', { name: 'My Orders' }).click();
    await page.waitForURL((url) => url.pathname === '/orders');
    await expect.poll(() => page.getByTestId('order-row').getByTestId('order-number').allTextContents()).toEqual([orderNumber]);

    // The admin finds it, sees it is paid by hand, and marks it paid.
    await adminPage.goto('/admin/orders');
    await adminPage.getByTestId('order-row').filter({ hasText: orderNumber }).click();
    const detail = adminPage.getByTestId('order-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('payment-provider').textContent()).toBe('Manual payment');
    await detail.getByRole('button', { name: 'Mark as Paid' }).click();
    await adminPage.getByRole('alertdialog').getByRole('button', { name: 'Mark as Paid' }).click();
    await detail.getByTestId('order-history').getByText('Payment received').waitFor();
    await expect
      .poll(
        async () =>
          (await env.db.selectFrom('orders').select('payment_status').where('id', '=', order.id).executeTakeFirstOrThrow()).payment_status,
      )
      .toBe('paid');

    // The queue sends the confirmation (with the instructions) and the payment receipt.
    await adminPage.goto('/admin/email-logs');
    await adminPage.getByRole('button', { name: 'Process Queue' }).click();
    const confirmedSubject = `Order ${orderNumber} confirmed`;
    const receiptSubject = `Payment received for order ${orderNumber}`;
    await expect.poll(() => [confirmedSubject, receiptSubject].filter((subject) => outboxMail(subject) !== undefined)).toHaveLength(2);
    const confirmation = outboxMail(confirmedSubject)!;
    expect(confirmation).toContain(`To: ${customer.email}`);
    expect(confirmation).toContain('IBAN DE00 1234 5678 9012 3456 78');
    expect(outboxMail(receiptSubject)).toContain(formatMoney(52.95));

    // The customer's page now says the payment arrived.
    await page.goto(`/orders/${orderNumber}`);
    await page.getByTestId('payment-received').waitFor();
    expect(env.pageErrors(page)).toEqual([]);
    expect(env.pageErrors(adminPage)).toEqual([]);
  });

  it('shows the lines that changed since they were added, and places nothing until the cart is updated', async () => {
    // Free shipping again (the test before set a rate), so the total is the lines' sum.
    await env.db.updateTable('store_settings').set({ flat_shipping_rate: '0.00', free_shipping_threshold: null }).execute();
    const customer = await createCustomer(env.db);
    const [kept, repriced, withdrawn] = [
      await createProduct(env.db, { name: 'Kept Tee', price: '20.00' }),
      await createProduct(env.db, { name: 'Repriced Tee', price: '25.00' }),
      await createProduct(env.db, { name: 'Withdrawn Tee', price: '30.00' }),
    ];
    const page = await signInInBrowser(env, { email: customer.email });
    await page.goto('/');
    await fillCart(
      page,
      [kept, repriced, withdrawn].map((product) => ({
        product: { id: product.id, slug: product.slug, name: product.name, image_url: product.image_url, price: product.price },
        size: 'M',
        quantity: 1,
      })),
    );
    await env.db.updateTable('products').set({ price: '27.50' }).where('id', '=', repriced.id).execute();
    await env.db.updateTable('products').set({ is_active: false }).where('id', '=', withdrawn.id).execute();

    await page.goto('/checkout');
    const lines = page.getByTestId('checkout-line');
    await expect
      .poll(() => lines.getByTestId('line-problem').allTextContents())
      .toEqual(['Price changed from $25.00 to $27.50', 'No longer available']);
    await page.getByText('Some items changed since you added them. Update your cart to continue.').waitFor();
    const complete = page.getByRole('button', { name: 'Complete Order' });
    expect(await complete.isDisabled()).toBe(true);
    await saveScreenshot(page, 'checkout-changed-lines-1280');

    await page.getByRole('button', { name: 'Update Cart' }).click();
    await expect.poll(() => lines.count()).toBe(2);
    expect(await lines.getByTestId('line-problem').count()).toBe(0);
    await expect.poll(() => page.getByTestId('summary-total').textContent()).toBe('$47.50');
    await expect.poll(() => complete.isEnabled()).toBe(true);
    expect(await env.db.selectFrom('orders').select('id').where('customer_id', '=', customer.id).execute()).toEqual([]);
    expect(env.pageErrors(page)).toEqual([]);
  });
});
