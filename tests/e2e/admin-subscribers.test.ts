import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/shared/money';
import { seriousA11yViolations } from '../support/a11y';
import { callerFor } from '../support/app';
import { saveScreenshot, sharedBrowserApp, signInInBrowser, VIEWPORTS } from '../support/browser';
import { createAdmin, createCustomer, RITAS_SHIPPING, type TestUser } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';

// The Subscribers screen and the club's dashboard cards on the demo store, with members who
// joined through the member's own procedure: search, the member's detail with the order of a
// cycle, a pause on the member's behalf after its confirmation, and the cards' figures.

const env = sharedBrowserApp();

const SHIPPING = RITAS_SHIPPING;
// The demo store's own club, newest member first; the members joined below come before them.
const DEMO_CLUB_MEMBERS = [
  'grace.thompson@example.com',
  'daniel.brooks@example.com',
  'maria.alvarez@example.com',
  'jake.rider@example.com',
];

const people = sharedBeforeAll(async () => {
  const join = async (user: TestUser, planSlug: string, categoryCount: number) => {
    const categories = await env.db.selectFrom('categories').select('id').where('is_active', '=', true).orderBy('sort_order').execute();
    const categoryIds = categories.slice(0, categoryCount).map((category) => category.id);
    const { caller } = callerFor(env.database, env.config, user);
    return (await caller.subscriptions.join({ planSlug, size: 'L', categoryIds, shipping: SHIPPING })).id;
  };
  const rita = await createCustomer(env.db, { email: 'rita.rider@example.com', first_name: 'Rita', last_name: 'Rider' });
  const ritaSubscription = await join(rita, 'quarterly-box', 2);
  await join(await createCustomer(env.db, { email: 'sam.stone@example.com' }), 'monthly-tee', 1);
  await join(await createCustomer(env.db, { email: 'ida.engel@example.com' }), 'all-access', 0);
  return { admin: await createAdmin(env.db), rita, ritaSubscription };
});

const signedInPage = (viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> =>
  signInInBrowser(env, { email: people.admin.email, viewport });

const emailsShown = (page: Page) => page.getByTestId('subscriber-row').locator('td:first-child').allInnerTexts();

describe('admin subscribers screen', () => {
  it('searches, opens a member with their cycle order, and pauses them after a confirmation', async () => {
    const page = await signedInPage();
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Subscribers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Subscribers' }).waitFor();
    await expect
      .poll(() => emailsShown(page))
      .toEqual(['ida.engel@example.com', 'sam.stone@example.com', 'rita.rider@example.com', ...DEMO_CLUB_MEMBERS]);
    expect(await page.getByTestId('pagination-summary').textContent()).toBe('Showing 1–7 of 7 subscribers');
    const ritaRow = page.getByTestId('subscriber-row').filter({ hasText: 'rita.rider@example.com' });
    expect(await ritaRow.textContent()).toContain('Quarterly Box');
    expect(await ritaRow.textContent()).toContain('$64.00/qtr');
    await saveScreenshot(page, 'admin-subscribers-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByPlaceholder('Search by email...').fill('RIDER');
    await page.waitForURL(/search=RIDER/);
    await expect.poll(() => emailsShown(page)).toEqual(['rita.rider@example.com', 'jake.rider@example.com']);

    await page.getByRole('button', { name: 'rita.rider@example.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rita Rider' });
    await dialog.getByTestId('subscriber-detail').waitFor();
    expect(await dialog.getByTestId('subscriber-detail-status').textContent()).toBe('Active');
    expect(await dialog.textContent()).toContain('12 Piston Way, Austin, TX 78701, USA');
    const order = await env.db
      .selectFrom('orders')
      .select('order_number')
      .where('subscription_id', '=', people.ritaSubscription)
      .executeTakeFirstOrThrow();
    await saveScreenshot(page, 'admin-subscriber-detail-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The cycle's order opens in the order's own modal, over the member's.
    await dialog.getByRole('button', { name: `Open order ${order.order_number}` }).click();
    const orderDialog = page.getByRole('dialog', { name: `Order ${order.order_number}` });
    await orderDialog.getByTestId('order-detail').waitFor();
    await page.keyboard.press('Escape');
    await orderDialog.waitFor({ state: 'hidden' });
    await dialog.getByTestId('subscriber-detail').waitFor();

    // Pause for two shipments on the member's behalf; nothing changes until it is confirmed.
    await dialog.getByRole('button', { name: 'Pause' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Pause this subscription?' });
    await confirm.getByLabel('2 shipments').check();
    await saveScreenshot(page, 'admin-subscriber-pause-1280');
    await confirm.getByRole('button', { name: 'Pause' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => dialog.getByTestId('subscriber-detail-status').textContent()).toBe('Paused');
    expect(await dialog.getByTestId('subscriber-next-shipment').textContent()).toMatch(/^Resumes /);
    expect(await dialog.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    const stored = await env.db
      .selectFrom('subscriptions')
      .select(['status', 'paused_until'])
      .where('id', '=', people.ritaSubscription)
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe('paused');
    expect(stored.paused_until).not.toBeNull();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('subscriber-status').allInnerTexts()).toEqual(['Paused', 'Active']);

    // The status filter, with the search cleared.
    await page.getByPlaceholder('Search by email...').fill('');
    await page.getByLabel('Status', { exact: true }).selectOption('paused');
    await page.waitForURL((url) => url.searchParams.get('status') === 'paused' && !url.searchParams.has('search'));
    await expect.poll(() => emailsShown(page)).toEqual(['rita.rider@example.com']);
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('fits a phone: one card per member, their detail, and a cancellation with its reason', async () => {
    const page = await signedInPage(VIEWPORTS.mobile);
    await page.goto('/admin/subscribers');
    await expect.poll(() => page.getByTestId('subscriber-card').count()).toBe(3 + DEMO_CLUB_MEMBERS.length);
    await saveScreenshot(page, 'admin-subscribers-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.getByTestId('subscriber-card').filter({ hasText: 'sam.stone@example.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'sam.stone@example.com' });
    await dialog.getByTestId('subscriber-detail').waitFor();
    await saveScreenshot(page, 'admin-subscriber-detail-375');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel this subscription?' });
    await confirm.getByLabel('Reason (optional)').fill('Asked by phone');
    await saveScreenshot(page, 'admin-subscriber-cancel-375');
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => dialog.getByTestId('subscriber-detail-status').textContent()).toMatch(/^Cancels on /);
    expect(await dialog.textContent()).toContain('Asked by phone');
    expect(await dialog.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    const samCard = page.getByTestId('subscriber-card').filter({ hasText: 'sam.stone@example.com' });
    await expect.poll(() => samCard.textContent()).toContain('Cancels on ');

    // They call back to stay: Keep subscription takes the cancellation back.
    await samCard.click();
    await dialog.getByRole('button', { name: 'Keep subscription' }).waitFor();
    await saveScreenshot(page, 'admin-subscriber-keep-375');
    await dialog.getByRole('button', { name: 'Keep subscription' }).click();
    await dialog.getByTestId('toast-success').filter({ hasText: 'Subscription will continue' }).waitFor();
    await expect.poll(() => dialog.getByTestId('subscriber-detail-status').textContent()).toBe('Active');
    expect(await dialog.getByRole('button', { name: 'Keep subscription' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel subscription' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => samCard.textContent()).not.toContain('Cancels on ');
    expect(env.pageErrors(page)).toEqual([]);
  });
});

describe('the club on the admin dashboard', () => {
  it("shows the members being billed, MRR, this month's churn and the shipments due", async () => {
    const { caller } = callerFor(env.database, env.config, people.admin);
    const { club } = await caller.admin.dashboard.overview();
    // The figures themselves are checked in tests/integration/admin-subscribers.test.ts; here, that the cards show them.
    expect(club.activeMembers).toBeGreaterThan(0);

    for (const [viewport, suffix] of [
      [VIEWPORTS.desktop, '1280'],
      [VIEWPORTS.mobile, '375'],
    ] as const) {
      const page = await signedInPage(viewport);
      await page.goto('/admin');
      const cards = page.getByRole('region', { name: 'Subscription Club' });
      await expect.poll(() => page.getByTestId('stat-members').textContent()).toBe(String(club.activeMembers));
      expect(await page.getByTestId('stat-mrr').textContent()).toBe(formatMoney(club.mrr));
      expect(await page.getByTestId('stat-churn').textContent()).toBe(`${club.churnPercent}%`);
      expect(await page.getByTestId('stat-shipments-due').textContent()).toBe(String(club.shipmentsDue));
      expect(await cards.getByRole('link', { name: 'View subscribers' }).getAttribute('href')).toBe('/admin/subscribers');
      await saveScreenshot(page, `admin-dashboard-club-${suffix}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(env.pageErrors(page)).toEqual([]);
    }
  });
});
