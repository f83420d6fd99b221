import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PRINT_QUEUE_COLUMNS } from '../../src/shared/schemas/admin-orders';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, signInInBrowser, VIEWPORTS, sharedBrowserApp, openPage } from '../support/browser';
import { createAdmin, createCustomer, createOrder } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';

// The Orders screen on the demo store: newest first, the status filter, the detail modal's
// status, tracking number and print status changes reaching the database (and the spec's error
// text when a change fails), and Export Print Queue as a real browser download.

const env = sharedBrowserApp();
const admin = sharedBeforeAll(() => createAdmin(env.db));

const signedInPage = (viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> =>
  signInInBrowser(env, { email: admin.email, viewport });

const ordersNewestFirst = () =>
  env.db
    .selectFrom('orders')
    .select(['id', 'order_number', 'status', 'updated_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
const storedOrder = (id: string) => env.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const orderNumbersShown = async (page: Page) =>
  (await page.getByTestId('order-row').locator('td:first-child').allInnerTexts()).map((text) => text.trim());

describe('admin orders screen', () => {
  it('lists newest first, filters by status, and saves status, tracking and print status from the modal', async () => {
    const page = await signedInPage();
    await openPage(page, '/admin/orders', 'Orders');
    await page.getByTestId('order-row').first().waitFor();
    const all = await ordersNewestFirst();
    expect(await orderNumbersShown(page)).toEqual(all.slice(0, 20).map((o) => o.order_number));
    expect(await page.getByTestId('pagination-summary').textContent()).toBe(
      `Showing 1–${Math.min(20, all.length)} of ${all.length} orders`,
    );
    await saveScreenshot(page, 'admin-orders-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The status filter.
    await page.getByLabel('Status', { exact: true }).selectOption('shipped');
    await page.waitForURL(/status=shipped/);
    const shipped = all.filter((o) => o.status === 'shipped');
    expect(shipped.length).toBeGreaterThan(0);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="order-row"]').length === n, shipped.length);
    expect(await orderNumbersShown(page)).toEqual(shipped.map((o) => o.order_number));
    await page.getByLabel('Status', { exact: true }).selectOption('all');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="order-row"]').length === n, Math.min(20, all.length));

    // The detail modal of an order with items still to print.
    const target = await env.db
      .selectFrom('orders')
      .innerJoin('order_items', 'order_items.order_id', 'orders.id')
      .select(['orders.id', 'orders.order_number', 'orders.status'])
      .where('order_items.print_status', '=', 'pending')
      .where('orders.status', '!=', 'cancelled')
      .orderBy('orders.created_at', 'desc')
      .executeTakeFirstOrThrow();
    await page.getByRole('button', { name: target.order_number, exact: true }).click();
    const dialog = page.getByRole('dialog', {
      name: `Order ${target.order_number}`,
    });
    await dialog.getByTestId('order-item').first().waitFor();
    const items = await env.db
      .selectFrom('order_items')
      .innerJoin('products', 'products.id', 'order_items.product_id')
      .select(['order_items.id', 'products.sku_number', 'order_items.product_name', 'order_items.size'])
      .where('order_id', '=', target.id)
      .orderBy('order_items.created_at')
      .orderBy('order_items.id')
      .execute();
    expect(await dialog.getByTestId('order-item').count()).toBe(items.length);
    expect(await dialog.getByTestId('order-item').first().textContent()).toContain(`SKU ${items[0]!.sku_number}`);
    await saveScreenshot(page, 'admin-orders-modal-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const before = await storedOrder(target.id);
    await dialog.getByLabel('Order Status').selectOption('cancelled');
    await dialog.getByTestId('order-status').filter({ hasText: 'cancelled' }).waitFor();
    const afterStatus = await storedOrder(target.id);
    expect(afterStatus.status).toBe('cancelled');
    expect(Date.parse(afterStatus.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));

    await dialog.getByLabel('Tracking Number').fill('  1Z-TEST-0042 ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await storedOrder(target.id)).tracking_number).toBe('1Z-TEST-0042');
    // The form shows the saved (trimmed) value once the server's answer is rendered.
    await expect.poll(() => dialog.getByLabel('Tracking Number').inputValue()).toBe('1Z-TEST-0042');

    const first = items[0]!;
    await dialog.getByLabel(`Print status of ${first.product_name} (${first.size})`).selectOption('printing');
    await expect
      .poll(
        async () =>
          (await env.db.selectFrom('order_items').select('print_status').where('id', '=', first.id).executeTakeFirstOrThrow()).print_status,
      )
      .toBe('printing');

    // A change that fails keeps the old value and shows the spec's text.
    await env.db.deleteFrom('orders').where('id', '=', target.id).execute();
    await dialog.getByLabel('Order Status').selectOption('shipped');
    await page.getByTestId('toast-error').filter({ hasText: 'Error updating status: Order not found' }).waitFor();
    await expect.poll(() => dialog.getByLabel('Order Status').inputValue()).toBe('cancelled');
    await dialog.getByLabel('Tracking Number').fill('NEW');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('toast-error').filter({ hasText: 'Error updating tracking number: Order not found' }).waitFor();
    await dialog.getByLabel(`Print status of ${first.product_name} (${first.size})`).selectOption('ready');
    await page.getByTestId('toast-error').filter({ hasText: 'Error updating print status: Order item not found' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(env.pageErrors(page).filter((e) => !e.includes('404'))).toEqual([]);
  });

  it('downloads the print queue as a CSV in the browser, and says when it is empty', async () => {
    const page = await signedInPage();
    await page.goto('/admin/orders');
    await page.getByTestId('order-row').first().waitFor();
    const items = await env.db
      .selectFrom('order_items')
      .innerJoin('orders', 'orders.id', 'order_items.order_id')
      .select(['orders.order_number', 'orders.payment_status', 'orders.status', 'order_items.product_name', 'order_items.print_status'])
      .orderBy('orders.created_at')
      .orderBy('orders.id')
      .orderBy('order_items.created_at')
      .orderBy('order_items.id')
      .execute();
    // Items waiting for or at the printer go to print, only of paid orders and never of a cancelled one.
    const queued = items.filter(
      (item) => ['pending', 'printing'].includes(item.print_status) && item.payment_status === 'paid' && item.status !== 'cancelled',
    );
    expect(queued.length).toBeGreaterThan(0);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Print Queue' }).click()]);
    expect(download.suggestedFilename()).toBe(`print-queue-${new Date().toISOString().slice(0, 10)}.csv`);
    const [header, ...rows] = parse(fs.readFileSync(await download.path(), 'utf8'));
    expect(header).toEqual([...PRINT_QUEUE_COLUMNS]);
    expect(rows.map((r) => [r[0], r[3], r[PRINT_QUEUE_COLUMNS.indexOf('Print Status')]])).toEqual(
      queued.map((q) => [q.order_number, q.product_name, q.print_status]),
    );

    await env.db.updateTable('order_items').set({ print_status: 'ready' }).execute();
    await page.getByRole('button', { name: 'Export Print Queue' }).click();
    await page.getByTestId('toast-error').filter({ hasText: 'No items in print queue' }).waitFor();
  });

  it('works at 375 px', async () => {
    const page = await signedInPage(VIEWPORTS.mobile);
    await page.goto('/admin/orders');
    const cards = page.getByTestId('order-card');
    await cards.first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await page.getByTestId('order-row').first().isVisible()).toBe(false);
    const newest = (await ordersNewestFirst())[0]!;
    expect(await cards.first().textContent()).toContain(newest.order_number);
    await saveScreenshot(page, 'admin-orders-mobile');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await cards.first().click();
    await page.getByRole('dialog').getByTestId('order-item').first().waitFor();
    await saveScreenshot(page, 'admin-orders-modal-mobile');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows a customer who gave no name by their email, once, and keeps it inside its column', async () => {
    const nameless = await createCustomer(env.db, { email: `nameless.customer.${Date.now()}@example.com`, first_name: '', last_name: '' });
    const { order_number } = await createOrder(env.db, { customer_id: nameless.id });
    const timesShown = (text: string) => text.split(nameless.email).length - 1;
    for (const [viewport, listItem] of [
      [VIEWPORTS.desktop, 'order-row'],
      [VIEWPORTS.mobile, 'order-card'],
    ] as const) {
      const page = await signedInPage(viewport);
      await openPage(page, '/admin/orders', 'Orders');
      const item = page.getByTestId(listItem).filter({ hasText: order_number });
      expect(timesShown(await item.innerText()), listItem).toBe(1);
      await (listItem === 'order-row' ? page.getByRole('button', { name: order_number, exact: true }) : item).click();
      const customer = page.getByRole('dialog', { name: `Order ${order_number}` }).getByTestId('order-customer');
      await customer.waitFor();
      expect(timesShown(await customer.innerText()), `modal at ${viewport.width} px`).toBe(1);
      // An address wider than the column wraps inside it, whole, instead of running over the next column.
      const spilling = await customer
        .locator('dd')
        .evaluateAll(
          (lines) => lines.filter((line) => line.scrollWidth > line.clientWidth && getComputedStyle(line).overflowX !== 'hidden').length,
        );
      expect(spilling, `modal at ${viewport.width} px`).toBe(0);
      await page.close();
    }
  });
});
