import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cartStorageKey } from '../../src/shared/constants';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, sharedBrowserApp, signInInBrowser, VIEWPORTS, waitForImages } from '../support/browser';
import { outboxMail as readOutboxMail } from '../support/outbox';
import { createAdmin, createCustomer, createProduct } from '../support/factories';

// Discount codes end to end: an admin creates a code in Admin → Discounts (the form refusing a bad
// one first), a shopper applies it at checkout (a wrong code refused under the field), sees the
// summary's line, places the order and finds the discount on the order page and in the email; the
// admin finds it on the order's detail.

const env = sharedBrowserApp();

/** Lines in this page's localStorage, as the product page's Add to Cart leaves them. */
async function fillCart(page: Page, product: { id: string; slug: string; name: string; image_url: string | null; price: string }) {
  const lines = [{ product, size: 'M', quantity: 1 }];
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
    cartStorageKey(env.config.storeName),
    JSON.stringify(lines),
  ] as const);
}

const outboxMail = (subject: string) => readOutboxMail(env.config.dataDir, subject);

describe('discount codes', () => {
  it('are created by the admin, applied at checkout and shown on the order and in its email', async () => {
    await env.db
      .updateTable('store_settings')
      .set({ flat_shipping_rate: '0.00', tax_rate_percent: '0', free_shipping_threshold: null })
      .execute();
    const admin = await createAdmin(env.db, { email: 'discounts.admin@example.com' });
    const adminPage = await signInInBrowser(env, { email: admin.email });

    // Admin → Discounts, from the admin's menu.
    await adminPage.goto('/admin');
    await adminPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Discounts' }).click();
    await adminPage.getByRole('heading', { name: 'Discounts', level: 1 }).waitFor();
    await adminPage.getByText('No discount codes yet').waitFor();
    await adminPage.getByRole('button', { name: 'New Discount Code' }).click();
    const form = adminPage.getByTestId('discount-form');
    await form.getByLabel('Code').fill('LAUNCH 20');
    await form.getByLabel('Percentage (%)').fill('101');
    await form.getByRole('button', { name: 'Create Discount Code' }).click();
    await form.getByText('A discount code has only letters, digits, - and _').waitFor();
    await form.getByText('Percentage must be a whole number from 1 to 100').waitFor();
    await form.getByLabel('Starts on').fill('2027-03-05');
    await form.getByLabel('Ends on').fill('2027-03-01');
    await form.getByRole('button', { name: 'Create Discount Code' }).click();
    await form.getByText('The end must not be before the start').waitFor();
    expect(await env.db.selectFrom('discount_codes').select('id').execute()).toEqual([]);

    await form.getByLabel('Code').fill('LAUNCH20');
    await form.getByLabel('Percentage (%)').fill('20');
    await form.getByLabel('Starts on').fill('');
    await form.getByLabel('Ends on').fill('');
    await form.getByLabel('Once per customer').check();
    await saveScreenshot(adminPage, 'discounts-form-1280');
    await form.getByRole('button', { name: 'Create Discount Code' }).click();
    await adminPage.getByTestId('toast-success').filter({ hasText: 'Discount code LAUNCH20 saved.' }).waitFor();
    const row = adminPage.getByTestId('discount-row').filter({ hasText: 'LAUNCH20' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/LAUNCH20\s+Active\s+20 % off\s+Whole order\s+Always\s+0/);
    expect(await seriousA11yViolations(adminPage)).toEqual([]);
    await saveScreenshot(adminPage, 'discounts-list-1280');
    await adminPage.setViewportSize(VIEWPORTS.mobile);
    await adminPage.getByTestId('discount-card').filter({ hasText: 'LAUNCH20' }).waitFor();
    await saveScreenshot(adminPage, 'discounts-list-375');
    await adminPage.getByTestId('discount-card').filter({ hasText: 'LAUNCH20' }).click();
    await form.waitFor();
    await saveScreenshot(adminPage, 'discounts-form-375');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await adminPage.setViewportSize(VIEWPORTS.desktop);

    // A shopper applies it at checkout: $49.95 less 20 % is $39.96.
    const customer = await createCustomer(env.db, { email: 'discount.buyer@example.com' });
    const product = await createProduct(env.db, { name: 'Launch Day Tee', price: '49.95' });
    const page = await signInInBrowser(env, { email: customer.email, viewport: VIEWPORTS.mobile });
    await page.goto('/');
    await fillCart(page, { id: product.id, slug: product.slug, name: product.name, image_url: product.image_url, price: product.price });
    await page.goto('/checkout');
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await expect.poll(() => page.getByTestId('summary-total').textContent()).toBe('$49.95');
    const field = page.getByLabel('Discount code');
    await field.fill('NOPE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('discount-field').getByText('This code is not valid').waitFor();
    expect(await page.getByTestId('summary-total').textContent()).toBe('$49.95');
    await field.fill('launch20');
    await page.getByRole('button', { name: 'Apply' }).click();
    const discountLine = page.getByTestId('summary-discount');
    await discountLine.waitFor();
    expect(await discountLine.innerText()).toMatch(/^Discount \(LAUNCH20\)\s*Remove\s*−\$9\.99$/);
    expect(await page.getByTestId('summary-total').textContent()).toBe('$39.96');
    expect(await page.getByTestId('discount-field').getByTestId('field-error').count()).toBe(0);

    // Remove takes it off; applied again, it is back.
    await discountLine.getByRole('button', { name: 'Remove discount code LAUNCH20' }).click();
    await expect.poll(() => page.getByTestId('summary-total').textContent()).toBe('$49.95');
    expect(await discountLine.count()).toBe(0);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByTestId('summary-total').textContent()).toBe('$39.96');

    const shipping = page.getByTestId('shipping-form');
    await shipping.getByLabel('First name', { exact: true }).fill('Rita');
    await shipping.getByLabel('Last name', { exact: true }).fill('Rider');
    await shipping.getByLabel('Street address', { exact: true }).fill('12 Piston Way');
    await shipping.getByLabel('City', { exact: true }).fill('Austin');
    await shipping.getByLabel('State', { exact: true }).fill('TX');
    await shipping.getByLabel('ZIP code', { exact: true }).fill('78701');
    await shipping.getByLabel('Country', { exact: true }).fill('USA');
    await waitForImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByTestId('order-summary').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'checkout-discount-375');
    await page.setViewportSize(VIEWPORTS.desktop);
    await saveScreenshot(page, 'checkout-discount-1280');
    await page.getByRole('button', { name: 'Complete Order' }).click();

    // The order page shows the discount.
    await page.waitForURL((url) => /^\/orders\/TL-\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Thank you for your order!', level: 1 }).waitFor();
    const orderNumber = (await page.getByTestId('order-number').textContent())!;
    const amounts = await page.getByTestId('order-items').locator('xpath=..').innerText();
    expect(amounts).toMatch(/Discount \(LAUNCH20\)\s*−\$9\.99/);
    expect(amounts).toMatch(/Total\s*\$39\.96/);
    const order = await env.db.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ discount_code: 'LAUNCH20', discount: '9.99', total: '39.96', customer_id: customer.id });

    // The admin sees it on the order's detail, and the confirmation email carries it.
    await adminPage.goto('/admin/orders');
    await adminPage.getByTestId('order-row').filter({ hasText: orderNumber }).click();
    const detail = adminPage.getByTestId('order-detail');
    await detail.getByText('Discount (LAUNCH20)').waitFor();
    expect(await detail.innerText()).toContain('−$9.99');
    await adminPage.goto('/admin/email-logs');
    await adminPage.getByRole('button', { name: 'Process Queue' }).click();
    const subject = `Order ${orderNumber} confirmed`;
    await expect.poll(() => outboxMail(subject) !== undefined).toBe(true);
    const email = outboxMail(subject)!;
    expect(email).toContain('Discount (LAUNCH20)');
    expect(email).toContain('$39.96');

    // The list counts its use.
    await adminPage.goto('/admin/discounts?search=launch');
    await expect.poll(() => adminPage.getByTestId('discount-row').innerText()).toMatch(/\s1$/);
    expect(env.pageErrors(page)).toEqual([]);
    expect(env.pageErrors(adminPage)).toEqual([]);
  });
});
