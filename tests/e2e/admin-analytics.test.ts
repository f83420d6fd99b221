import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../support/a11y';
import { expectFitsPhone, openPage, saveScreenshot, sharedBrowserApp, signInInBrowser, VIEWPORTS } from '../support/browser';
import { createAdmin } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';

// Admin → Analytics on the demo store: the cards, a range switch through the picker, the orders
// chart's table alternative read against the rollups, a chart's tooltip reached by keyboard, the
// daily CSV, and the dashboard's small chart leading there; at desktop and phone widths.

const env = sharedBrowserApp();
const admin = sharedBeforeAll(() => createAdmin(env.db));

/** Paid orders per UTC day over the last `days` days, from the rollups, as the table shows them ("Mar 5", "2"). */
async function ordersPerDay(days: number) {
  const { rows } = await sql<{ day: string; orders: number }>`
    select d.day::date as day, coalesce(s.orders, 0)::int as orders
    from generate_series(current_date - ${days - 1}::int, current_date, interval '1 day') as d (day)
    left join sales_days s on s.day = d.day::date order by d.day`.execute(env.db);
  const label = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return rows.map((row) => [label.format(new Date(`${row.day}T00:00:00Z`)), String(row.orders)]);
}

const tableRows = (section: Locator) =>
  section.locator('tbody tr').evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => cell.textContent?.trim() ?? '')));

describe('admin analytics screen', () => {
  it('shows the cards, switches the range and reads the orders chart as a table', async () => {
    const page = await signInInBrowser(env, { email: admin.email, viewport: VIEWPORTS.desktop });
    await openPage(page, '/admin/analytics', 'Analytics');
    const totalSales = page.getByTestId('card-Total sales');
    await expect.poll(() => totalSales.textContent()).toMatch(/^\$/);
    const { rows } = await sql<{ net: string; orders: number; discounts: string }>`
      select coalesce(sum(sales - refunds), 0)::numeric(14, 2)::text as net, coalesce(sum(orders), 0)::int as orders,
        coalesce(sum(discounts), 0)::numeric(14, 2)::text as discounts
      from sales_days where day > current_date - 30`.execute(env.db);
    expect(await totalSales.textContent()).toBe(`$${Number(rows[0]!.net).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    expect(await page.getByTestId('card-Orders').textContent()).toBe(rows[0]!.orders.toLocaleString('en-US'));
    expect(await page.getByTestId('card-Discounts given').textContent()).toBe(
      `$${Number(rows[0]!.discounts).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );
    await page.locator('.uplot').first().waitFor();
    await saveScreenshot(page, 'admin-analytics-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A help tooltip says what the figure is.
    await page.getByRole('button', { name: 'About Average order value' }).focus();
    expect(await page.getByRole('tooltip', { name: /Total sales ÷ paid orders/ }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'About Discounts given' }).focus();
    expect(await page.getByRole('tooltip', { name: /Discount codes’ amounts taken off the orders paid in the range/ }).isVisible()).toBe(
      true,
    );

    // The sales chart's tooltip, by keyboard: the last day first, then the one before.
    const salesChart = page.getByRole('img', { name: /Net sales per day/ });
    await salesChart.focus();
    const tooltip = page.getByRole('region', { name: 'Sales per day' }).getByTestId('chart-tooltip');
    const [today, yesterday] = (await ordersPerDay(2)).reverse();
    await expect.poll(() => tooltip.textContent()).toContain(today![0]);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tooltip.textContent()).toContain(yesterday![0]);

    // Last 7 days, through the picker; then the orders chart as its table.
    await page.getByLabel('Date range').selectOption('7d');
    await page.waitForURL(/range=7d/);
    const orders = page.getByRole('region', { name: 'Orders per day' });
    await orders.getByLabel('Show as table').check();
    await expect.poll(() => tableRows(orders)).toEqual(await ordersPerDay(7));

    // The daily figures of the range as CSV.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const [header, ...days]: string[][] = parse(fs.readFileSync(await download.path(), 'utf8'));
    expect(header).toEqual(['Day', 'Orders', 'Sales', 'Refunds', 'Net sales']);
    expect(days.map((day) => day[1])).toEqual((await ordersPerDay(7)).map((row) => row[1]));

    // Two dates.
    await page.getByLabel('Date range').selectOption('custom');
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(from);
    await page.getByLabel('To', { exact: true }).fill(new Date().toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/range=custom/);
    await expect.poll(() => tableRows(page.getByRole('region', { name: 'Orders per day' }))).toEqual(await ordersPerDay(3));
  });

  it('fits a phone, and the dashboard’s 30-day chart links to it', async () => {
    const page = await signInInBrowser(env, { email: admin.email, viewport: VIEWPORTS.mobile });
    await openPage(page, '/admin', 'Dashboard');
    await page.getByRole('img', { name: /Net sales per day over the last 30 days/ }).waitFor();
    await page.getByRole('link', { name: 'View analytics' }).click();
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    await page.locator('.uplot').first().waitFor();
    const category = page.getByRole('region', { name: 'Sales by category' });
    await category.getByLabel('Show as table').check();
    expect((await tableRows(category)).length).toBeGreaterThan(0);
    await expectFitsPhone(page, 'admin-analytics-phone');
  });
});
