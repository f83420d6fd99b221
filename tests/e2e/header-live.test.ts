import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { publishEvent } from '../../src/server/events/events';
import { seriousA11yViolations } from '../support/a11y';
import { holdsFor } from '../support/async';
import { SCREENSHOT_DIR, saveScreenshot, signInInBrowser, VIEWPORTS, sharedBrowserApp } from '../support/browser';
import { createAdmin, createCustomer } from '../support/factories';

// The header's live parts: the admin badge counting new contact submissions (SSE), the Admin link
// following a promotion or demotion, and sign-in and sign-out reaching every open tab.

describe('live header', () => {
  const env = sharedBrowserApp();

  const open = async (viewport: { width: number; height: number } = VIEWPORTS.desktop) => {
    const page = await env.newPage({ viewport });
    page.setDefaultTimeout(10_000);
    return page;
  };

  async function newCountInDb() {
    const row = await env.db
      .selectFrom('contact_submissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'new')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** What the badge shows: its number, or null when there is none. */
  const badge = (page: Page) => async () => {
    const element = page.getByTestId('admin-badge');
    return (await element.count()) === 0 ? null : element.textContent();
  };

  it('shows admins the number of new contact submissions and updates it live', async () => {
    const admin = await createAdmin(env.db);
    const page = await signInInBrowser(env, { email: admin.email });
    await page.goto('/');
    const adminLink = page.getByTestId('admin-link');
    await adminLink.waitFor();
    expect(await adminLink.getAttribute('href')).toBe('/admin');

    // Start from a known number: one new submission.
    await env.db.updateTable('contact_submissions').set({ status: 'read' }).execute();
    await publishEvent(env.db, { type: 'contact_submissions_changed' });
    await expect.poll(badge(page)).toBeNull();

    const submit = () =>
      page.request.post('/trpc/contact.submit', {
        data: { name: 'Rider', email: 'rider@example.com', subject: 'Sizing', message: 'Does the 2XL run large?' },
        headers: { origin: env.baseUrl },
      });
    expect((await submit()).status()).toBe(200);
    await expect.poll(badge(page)).toBe('1');
    expect((await submit()).status()).toBe(200);
    await expect.poll(badge(page)).toBe(String(await newCountInDb()));
    expect(await newCountInDb()).toBe(2);
    expect(await adminLink.getAttribute('aria-label')).toBeNull();
    expect(await adminLink.textContent()).toContain('2 new contact submissions');

    // A change made elsewhere (another process, the admin screen) arrives through the database.
    const one = await env.db.selectFrom('contact_submissions').select('id').where('status', '=', 'new').executeTakeFirstOrThrow();
    await env.db.transaction().execute(async (trx) => {
      await trx.updateTable('contact_submissions').set({ status: 'resolved' }).where('id', '=', one.id).execute();
      await publishEvent(trx, { type: 'contact_submissions_changed' });
    });
    await expect.poll(badge(page)).toBe('1');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'header-admin-badge-1280');
    await page.locator('header').screenshot({ path: path.join(SCREENSHOT_DIR, 'header-admin-badge-1280-top.png') });

    // The phone menu shows the same count.
    const phone = await signInInBrowser(env, { email: admin.email, viewport: VIEWPORTS.mobile });
    await phone.goto('/');
    // The bar has no room for the Admin link on a phone: the menu button carries its count.
    await phone.getByRole('button', { name: /^Open menu\W+1 new contact submission$/ }).waitFor();
    expect(await phone.getByTestId('admin-link').isVisible()).toBe(false);
    await phone.getByRole('button', { name: 'Open menu' }).click();
    const mobileAdmin = phone.locator('#mobile-menu').getByRole('link', { name: /^Admin/ });
    await expect.poll(() => mobileAdmin.textContent()).toContain('1 new contact submission');
    expect(await seriousA11yViolations(phone)).toEqual([]);
    await saveScreenshot(phone, 'header-admin-badge-375');
    await phone.locator('header').screenshot({ path: path.join(SCREENSHOT_DIR, 'header-admin-badge-375-top.png') });

    // A customer sees neither the link nor a count.
    const shopper = await createCustomer(env.db);
    const customer = await signInInBrowser(env, { email: shopper.email });
    await customer.goto('/');
    await expect.poll(() => customer.getByTestId('account-link').getAttribute('href')).toBe('/dashboard');
    expect(await customer.getByTestId('admin-link').count()).toBe(0);
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('shows the Admin link live when the signed-in user is promoted, and hides it on demotion', async () => {
    const { id: userId, email } = await createCustomer(env.db);
    const page = await signInInBrowser(env, { email });
    await page.goto('/');
    await expect.poll(() => page.getByTestId('account-link').getAttribute('href')).toBe('/dashboard');
    expect(await page.getByTestId('admin-link').count()).toBe(0);

    const setAdmin = (isAdmin: boolean) =>
      env.db.transaction().execute(async (trx) => {
        await trx.updateTable('customers').set({ is_admin: isAdmin }).where('id', '=', userId).execute();
        await publishEvent(trx, { type: 'customer_changed', userId });
      });

    await setAdmin(true);
    await page.getByTestId('admin-link').waitFor();
    await expect.poll(badge(page)).toBe(String(await newCountInDb()));

    // The demotion ends the admin stream; the tab opens a customer's stream, which reads auth.me
    // once started (a change made meanwhile sent no event). Wait for that read to be done.
    let reopened = false;
    let readAfterReopen = false;
    page.on('request', (request) => {
      if (request.url().includes('/trpc/live.feed')) reopened = true;
    });
    page.on('response', (response) => {
      if (reopened && response.url().includes('auth.me')) readAfterReopen = true;
    });
    await setAdmin(false);
    await expect.poll(() => page.getByTestId('admin-link').count()).toBe(0);
    await expect.poll(() => readAfterReopen).toBe(true);
    // Someone else's change does not touch this page.
    const { id: otherId } = await createCustomer(env.db);
    await env.db.transaction().execute(async (trx) => {
      await trx.updateTable('customers').set({ is_admin: true }).where('id', '=', userId).execute();
      await publishEvent(trx, { type: 'customer_changed', userId: otherId });
    });
    await holdsFor(async () => (await page.getByTestId('admin-link').count()) === 0, 'no Admin link after a change to another user', 1_000);
  });

  it('signing in or out in one tab updates the other open tabs', async () => {
    const user = await createCustomer(env.db, { email: 'two.tabs@example.com' });
    const first = await open();
    const second = await first.context().newPage();
    second.setDefaultTimeout(10_000);
    await second.goto('/');
    await expect.poll(() => second.getByTestId('account-link').getAttribute('href')).toBe('/login');

    await first.goto('/login');
    await first.getByLabel('Email address').fill(user.email);
    await first.getByLabel('Password', { exact: true }).fill(user.password);
    await first.getByRole('button', { name: 'Sign In' }).click();
    await first.waitForURL('**/dashboard');
    await expect.poll(() => second.getByTestId('account-link').getAttribute('href')).toBe('/dashboard');
    expect(await second.getByRole('button', { name: 'Sign Out' }).isVisible()).toBe(true);

    // The other tab shows an account page; signing out in the first sends it to /login.
    await second.goto('/dashboard');
    await second.getByTestId('account-email').waitFor();
    await first.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
    await first.waitForURL((url) => url.pathname === '/');
    await second.waitForURL((url) => url.pathname === '/login');
    expect(new URL(second.url()).searchParams.get('redirect')).toBe('/dashboard');
    await expect.poll(() => second.getByTestId('account-link').getAttribute('href')).toBe('/login');

    // A login page open in another tab follows a sign-in made elsewhere.
    await first.goto('/login?redirect=/settings');
    const third = await first.context().newPage();
    await third.goto('/login');
    await third.getByLabel('Email address').fill(user.email);
    await third.getByLabel('Password', { exact: true }).fill(user.password);
    await third.getByRole('button', { name: 'Sign In' }).click();
    await first.waitForURL((url) => url.pathname === '/settings');
  });
});
