import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishEvent } from '../../src/server/events/events';
import { seriousA11yViolations } from '../support/a11y';
import { holdsFor } from '../support/async';
import { expectFitsPhone, holdRequests, saveScreenshot, signInInBrowser, VIEWPORTS, sharedBrowserApp, openPage } from '../support/browser';
import { CONTACT_PAGE_SIZE, CUSTOMERS_PAGE_SIZE, DELETE_ACCOUNT, DOWNLOAD_DATA } from '../../src/shared/schemas/admin-people';
import { createAdmin, createCustomer, createOrder } from '../support/factories';

// The admin Customers screen (filters with counts, columns, Add to Customers, Make Admin and
// Remove Admin with the spec's messages, a promotion reaching the promoted user's open page) and
// the contact inbox (open marks read, status buttons, filter, live refresh), on the demo store;
// then each with more rows than one page, paged on the server.

const ADMIN_EMAIL = 'people.admin@example.com';
const WALK_IN = 'walk.in@example.com';
const PENDING = 'pending.signup@example.com';
const WALK_IN_SIGN_IN = new Date('2026-03-14T12:00:00Z');

const env = sharedBrowserApp();

beforeAll(async () => {
  await createAdmin(env.db, { email: ADMIN_EMAIL, first_name: 'Avery', last_name: 'Admin' });
  // Two accounts without a customer record: one confirmed that signed in once, one never confirmed.
  await env.db
    .insertInto('users')
    .values([
      { email: WALK_IN, password_hash: 'x', email_confirmed_at: new Date(), last_sign_in_at: WALK_IN_SIGN_IN },
      { email: PENDING, password_hash: 'x', email_confirmed_at: null },
    ])
    .execute();
});

const signedInPage = (email: string, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> =>
  signInInBrowser(env, { email, viewport });

const toastText = (page: Page, kind: 'success' | 'error') => page.getByTestId(`toast-${kind}`).last().locator('p');
/** Waits for a toast with exactly this text. */
async function expectToast(page: Page, kind: 'success' | 'error', text: string) {
  await page.getByTestId(`toast-${kind}`).filter({ hasText: text }).first().waitFor();
  expect(await toastText(page, kind).textContent()).toBe(text);
}

const customerRecord = (email: string) =>
  env.db.selectFrom('customers').select(['first_name', 'last_name', 'phone', 'is_admin']).where('email', '=', email).executeTakeFirst();

/** `count` rows from `row(n)`, n from 0, each a minute older than the one before and all older than the demo store's. */
const bulkRows = <T extends object>(count: number, row: (n: number) => T) =>
  Array.from({ length: count }, (_, n) => ({ ...row(n), created_at: new Date(Date.UTC(2020, 0, 1) - n * 60_000) }));
const twoDigits = (n: number) => String(n).padStart(2, '0');

const shortDate = (date: Date) => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(date);

describe('admin customers screen', () => {
  const row = (page: Page, email: string) => page.getByTestId('user-row').filter({ hasText: email });
  const cells = async (locator: Locator) => (await locator.locator('td').allInnerTexts()).map((text) => text.trim());
  const footer = (page: Page) => page.getByTestId('users-footer').textContent();
  const filter = (page: Page, label: string) =>
    page.getByRole('group', { name: 'Filter users' }).getByRole('button', { name: new RegExp(`^${label} `) });

  it('lists every user with the spec columns, filters with counts, and adds users to customers', async () => {
    const page = await signedInPage(ADMIN_EMAIL);
    await openPage(page, '/admin/customers', 'Customers');
    expect(await page.getByText('View all registered customers').isVisible()).toBe(true);
    await page.getByTestId('user-row').first().waitFor();

    // The demo store's 5 customers (4 confirmed), the admin, and the two accounts without a record.
    expect(await filter(page, 'All').textContent()).toBe('All8');
    expect(await filter(page, 'Confirmed').textContent()).toBe('Confirmed6');
    expect(await filter(page, 'Unconfirmed').textContent()).toBe('Unconfirmed2');
    expect(await filter(page, 'Not in Customers').textContent()).toBe('Not in Customers2');
    expect(await filter(page, 'All').getAttribute('aria-pressed')).toBe('true');
    expect(await footer(page)).toBe('Showing 8 of 8 users');
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(
      ['User', 'Email', 'Email Status', 'Customer Status', 'Role', 'Last Sign In', 'Actions'].map((h) => h.toUpperCase()),
    );

    const jake = await env.db
      .selectFrom('users')
      .select('last_sign_in_at')
      .where('email', '=', 'jake.rider@example.com')
      .executeTakeFirstOrThrow();
    expect(await cells(row(page, 'jake.rider@example.com'))).toEqual([
      'J\nJake Rider',
      'jake.rider@example.com',
      'Confirmed',
      'In Customers',
      'Customer',
      shortDate(new Date(jake.last_sign_in_at!)),
      'Make Admin',
    ]);
    expect(await row(page, 'jake.rider@example.com').getByRole('button', { name: 'Make Admin' }).isEnabled()).toBe(true);
    // A customer who has not confirmed their address cannot be made an admin (anyone can sign up with one).
    const unconfirmed = await env.db
      .selectFrom('users')
      .innerJoin('customers', 'customers.id', 'users.id')
      .select('users.email')
      .where('users.email_confirmed_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(await row(page, unconfirmed.email).getByRole('button', { name: 'Make Admin' }).isDisabled()).toBe(true);
    const me = await env.db.selectFrom('users').select('last_sign_in_at').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow();
    expect(await cells(row(page, ADMIN_EMAIL))).toEqual([
      'A\nAvery AdminYou',
      ADMIN_EMAIL,
      'Confirmed',
      'In Customers',
      'Admin',
      shortDate(new Date(me.last_sign_in_at!)),
      'Remove Admin',
    ]);
    expect(await cells(row(page, WALK_IN))).toEqual([
      'W\nN/A',
      WALK_IN,
      'Confirmed',
      'Not Added',
      '—\nNo role',
      'Mar 14, 2026',
      'Add to Customers',
    ]);
    expect(await cells(row(page, PENDING))).toEqual([
      'P\nN/A',
      PENDING,
      'Unconfirmed',
      'Not Added',
      '—\nNo role',
      'Never',
      'Add to Customers',
    ]);
    expect(await cells(row(page, 'tom.keller@example.com'))).toEqual(
      expect.arrayContaining(['Unconfirmed', 'In Customers', 'Customer', 'Never']),
    );

    await filter(page, 'Unconfirmed').click();
    await page.waitForURL((url) => url.searchParams.get('filter') === 'unconfirmed');
    await expect.poll(() => footer(page)).toBe('Showing 2 of 8 users');
    expect(await page.getByTestId('user-row').filter({ hasText: 'tom.keller@example.com' }).count()).toBe(1);
    expect(await page.getByTestId('user-row').filter({ hasText: PENDING }).count()).toBe(1);

    await filter(page, 'Confirmed').click();
    await expect.poll(() => footer(page)).toBe('Showing 6 of 8 users');

    await filter(page, 'Not in Customers').click();
    await expect.poll(() => footer(page)).toBe('Showing 2 of 8 users');
    // The filter survives a reload.
    await page.reload();
    await expect.poll(() => footer(page)).toBe('Showing 2 of 8 users');
    expect(await filter(page, 'Not in Customers').getAttribute('aria-pressed')).toBe('true');

    // Add to Customers, with its busy label (the request is held until it has been seen) and message.
    const adding = await holdRequests(page, 'admin.customers.addToCustomers');
    const add = row(page, WALK_IN).getByRole('button', { name: /Add to Customers/ });
    await add.click();
    await row(page, WALK_IN).getByRole('button', { name: 'Adding...' }).waitFor();
    expect(await row(page, WALK_IN).getByRole('button', { name: 'Adding...' }).isDisabled()).toBe(true);
    adding.release();
    await expectToast(page, 'success', 'User added to customers successfully!');
    expect(await customerRecord(WALK_IN)).toEqual({ first_name: '', last_name: '', phone: '', is_admin: false });
    await expect.poll(() => footer(page)).toBe('Showing 1 of 8 users');
    expect(await filter(page, 'Not in Customers').textContent()).toBe('Not in Customers1');
    await page.unrouteAll();

    // A stale screen: the other account became a customer meanwhile; the refusal is reported.
    const pending = await env.db.selectFrom('users').select(['id', 'email']).where('email', '=', PENDING).executeTakeFirstOrThrow();
    await env.db.insertInto('customers').values({ id: pending.id, email: pending.email }).execute();
    await row(page, PENDING)
      .getByRole('button', { name: /Add to Customers/ })
      .click();
    await expectToast(page, 'error', 'Failed to add user to customers: This user is already in customers');
    await expect.poll(() => page.getByText('No users found').isVisible()).toBe(true);
    expect(await footer(page)).toBe('Showing 0 of 8 users');

    await filter(page, 'All').click();
    await expect.poll(() => footer(page)).toBe('Showing 8 of 8 users');
    expect(await cells(row(page, WALK_IN))).toEqual([
      'W\nN/A',
      WALK_IN,
      'Confirmed',
      'In Customers',
      'Customer',
      'Mar 14, 2026',
      'Make Admin',
    ]);

    await saveScreenshot(page, 'admin-customers-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The browser logs the refused add (409); nothing else went wrong.
    expect(env.pageErrors(page).filter((error) => !/^Failed to load resource: .* status of 409/.test(error))).toEqual([]);
  });

  it('makes and removes admins with the spec messages, and never removes the last admin', async () => {
    const page = await signedInPage(ADMIN_EMAIL);
    await page.goto('/admin/customers');
    const maria = row(page, 'maria.alvarez@example.com');
    await maria.waitFor();

    // The request is held until its busy label has been seen.
    const updating = await holdRequests(page, 'admin.customers.setAdmin');
    await maria.getByRole('button', { name: /Make Admin/ }).click();
    await maria.getByRole('button', { name: 'Updating...' }).waitFor();
    updating.release();
    await expectToast(page, 'success', 'User promoted to admin successfully!');
    expect((await customerRecord('maria.alvarez@example.com'))?.is_admin).toBe(true);
    await maria.getByRole('button', { name: /Remove Admin/ }).waitFor();
    expect(await cells(maria)).toContain('Admin');

    await maria.getByRole('button', { name: /Remove Admin/ }).click();
    await expectToast(page, 'success', 'User removed from admin successfully!');
    expect((await customerRecord('maria.alvarez@example.com'))?.is_admin).toBe(false);
    await maria.getByRole('button', { name: /Make Admin/ }).waitFor();
    await page.unrouteAll();

    // The only admin removing themselves: asked first, then refused by the server.
    await row(page, ADMIN_EMAIL)
      .getByRole('button', { name: /Remove Admin/ })
      .click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove your own admin access?' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect((await customerRecord(ADMIN_EMAIL))?.is_admin).toBe(true);
    await row(page, ADMIN_EMAIL)
      .getByRole('button', { name: /Remove Admin/ })
      .click();
    await dialog.getByRole('button', { name: 'Remove Admin' }).click();
    await expectToast(page, 'error', 'Failed to update admin status: Cannot remove the last admin');
    expect((await customerRecord(ADMIN_EMAIL))?.is_admin).toBe(true);
    expect(await dialog.count()).toBe(0);
  });

  it('reports a failed load', async () => {
    const page = await signedInPage(ADMIN_EMAIL);
    // The network drops every read of the list.
    await page.route(
      (url) => url.pathname.includes('admin.customers.list'),
      (route) => route.abort(),
    );
    await page.goto('/admin/customers');
    await expectToast(page, 'error', 'Failed to load users: Failed to fetch');
    expect(await page.getByText('No users found').isVisible()).toBe(true);
  });

  it("shows the Admin link in the promoted user's open page, and takes the admin area away on demotion", async () => {
    const email = 'rising.star@example.com';
    await createCustomer(env.db, { email });
    const shopper = await signedInPage(email);
    await shopper.goto('/');
    await expect.poll(() => shopper.getByTestId('account-link').getAttribute('href')).toBe('/dashboard');
    expect(await shopper.getByTestId('admin-link').count()).toBe(0);

    const admin = await signedInPage(ADMIN_EMAIL);
    await admin.goto('/admin/customers');
    const star = row(admin, email);
    await star.getByRole('button', { name: /Make Admin/ }).click();
    await expectToast(admin, 'success', 'User promoted to admin successfully!');

    // No reload: the shopper's page learns of the promotion over its live stream.
    await shopper.getByTestId('admin-link').waitFor();
    await shopper.getByTestId('admin-link').click();
    await shopper.getByTestId('admin-layout').waitFor();

    await star.getByRole('button', { name: /Remove Admin/ }).click();
    await expectToast(admin, 'success', 'User removed from admin successfully!');
    await shopper.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => shopper.getByTestId('admin-link').count()).toBe(0);
  });

  it('lets an admin remove their own access while another admin remains, and sends them out', async () => {
    const email = 'stepping.down@example.com';
    await createAdmin(env.db, { email });
    const page = await signedInPage(email);
    await page.goto('/admin/customers');
    await row(page, email)
      .getByRole('button', { name: /Remove Admin/ })
      .click();
    await page.getByRole('alertdialog', { name: 'Remove your own admin access?' }).getByRole('button', { name: 'Remove Admin' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect((await customerRecord(email))?.is_admin).toBe(false);
    await expect.poll(() => page.getByTestId('account-link').getAttribute('href')).toBe('/dashboard');
    expect(await page.getByTestId('admin-link').count()).toBe(0);
  });

  it('works on a phone', async () => {
    const page = await signedInPage(ADMIN_EMAIL, VIEWPORTS.mobile);
    await page.goto('/admin/customers');
    const card = page.getByTestId('user-card').filter({ hasText: 'daniel.brooks@example.com' });
    await card.waitFor();
    expect(await card.innerText()).toMatch(
      /Daniel Brooks[\s\S]*Email Status\s*Confirmed[\s\S]*Customer Status\s*In Customers[\s\S]*Role\s*Customer/,
    );
    await card.getByRole('button', { name: /Make Admin/ }).click();
    await expectToast(page, 'success', 'User promoted to admin successfully!');
    expect((await customerRecord('daniel.brooks@example.com'))?.is_admin).toBe(true);
    await expectFitsPhone(page, 'admin-customers-375');
  });

  it('pages many users, with the spec footer true on every page, a search, and the view in the address', async () => {
    // Older than everyone else, "bulk.user.00" newest of them.
    const extra = CUSTOMERS_PAGE_SIZE + 5;
    await env.db
      .insertInto('users')
      .values(bulkRows(extra, (n) => ({ email: `bulk.user.${twoDigits(n)}@example.com`, password_hash: 'x', email_confirmed_at: null })))
      .execute();
    const total = (
      await env.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    const all = Number(total);
    const onPage2 = all - CUSTOMERS_PAGE_SIZE;
    const pageLabel = (page: Page) => page.getByTestId('users-page').textContent();

    const page = await signedInPage(ADMIN_EMAIL);
    await page.goto('/admin/customers');
    await page.getByTestId('user-row').first().waitFor();
    expect(await page.getByTestId('user-row').count()).toBe(CUSTOMERS_PAGE_SIZE);
    expect(await footer(page)).toBe(`Showing ${CUSTOMERS_PAGE_SIZE} of ${all} users`);
    expect(await pageLabel(page)).toBe('Page 1 of 2');
    expect(await page.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    // One "Showing" line only: the spec's.
    expect(await page.getByText(/^Showing /).count()).toBe(1);

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await expect.poll(() => footer(page)).toBe(`Showing ${onPage2} of ${all} users`);
    expect(await pageLabel(page)).toBe('Page 2 of 2');
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    // The oldest users are last.
    expect(await page.getByTestId('user-row').last().innerText()).toContain(`bulk.user.${twoDigits(extra - 1)}@example.com`);
    // The filter buttons count every user, whatever the page.
    expect(await filter(page, 'All').textContent()).toBe(`All${all}`);
    await page.reload();
    await expect.poll(() => footer(page)).toBe(`Showing ${onPage2} of ${all} users`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-customers-page2-1280');

    // A filter starts again on its first page.
    await filter(page, 'Unconfirmed').click();
    await page.waitForURL((url) => url.searchParams.get('filter') === 'unconfirmed' && !url.searchParams.has('page'));
    await expect.poll(() => pageLabel(page)).toBe('Page 1 of 2');

    // The search runs on the server, over every user: by email, then by name.
    const search = page.getByPlaceholder('Search by email or name...');
    await search.fill('BULK.USER.2');
    await page.waitForURL((url) => url.searchParams.get('search') === 'BULK.USER.2');
    await expect.poll(() => footer(page)).toBe(`Showing 10 of ${all} users`);
    expect(await page.getByTestId('users-page').count()).toBe(0);
    await filter(page, 'All').click();
    await search.fill('avery admin');
    await expect.poll(() => footer(page)).toBe(`Showing 1 of ${all} users`);
    expect(await row(page, ADMIN_EMAIL).count()).toBe(1);
    await search.fill('no such person');
    await page.getByText('No users found').waitFor();
    expect(await footer(page)).toBe(`Showing 0 of ${all} users`);
    expect(env.pageErrors(page)).toEqual([]);

    const phone = await signedInPage(ADMIN_EMAIL, VIEWPORTS.mobile);
    await phone.goto('/admin/customers?page=2');
    await expect.poll(() => footer(phone)).toBe(`Showing ${onPage2} of ${all} users`);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.mobile.width);
    await saveScreenshot(phone, 'admin-customers-page2-375');
  });
});

describe('admin contact inbox', () => {
  const items = (page: Page) => page.getByTestId('submission-item');
  const item = (page: Page, name: string) => items(page).filter({ hasText: name });
  const detail = (page: Page) => page.getByTestId('submission-detail');
  const stat = (page: Page, name: string) => page.getByTestId(`stat-${name}`).textContent();
  const statusInDb = async (email: string) =>
    (await env.db.selectFrom('contact_submissions').select('status').where('email', '=', email).executeTakeFirstOrThrow()).status;
  const DATE_TIME = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/;

  it('opens submissions (a new one becomes read), changes status, filters, and follows new arrivals live', async () => {
    const page = await signedInPage(ADMIN_EMAIL);
    await page.goto('/admin/contact');
    await items(page).first().waitFor();
    expect(await detail(page).innerText()).toContain('Select a submission to view details');

    // The demo inbox: 2 new, 2 read, 2 resolved, newest first.
    expect([await stat(page, 'total'), await stat(page, 'new'), await stat(page, 'read'), await stat(page, 'resolved')]).toEqual([
      '6',
      '2',
      '2',
      '2',
    ]);
    expect(await items(page).count()).toBe(6);
    const first = items(page).first();
    expect(await first.locator('> span').allInnerTexts()).toEqual([
      'Chris Nguyen\nNew',
      'chris.nguyen@example.com',
      'How do your tees fit?',
      expect.stringMatching(/^Quick question before I order/),
      expect.stringMatching(DATE_TIME),
    ]);
    // The preview is cut to two lines.
    expect(await first.locator('.line-clamp-2').count()).toBe(1);
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('all');
    expect(await page.getByLabel('Status', { exact: true }).locator('option').allInnerTexts()).toEqual([
      'All Submissions',
      'New',
      'Read',
      'Resolved',
    ]);

    // Opening the new one marks it read, on the server and on screen (list, detail, tiles, header badge).
    await first.click();
    await detail(page).getByRole('heading', { name: 'How do your tees fit?' }).waitFor();
    await expect.poll(() => detail(page).getByTestId('status-badge').first().textContent()).toBe('Read');
    expect(await statusInDb('chris.nguyen@example.com')).toBe('read');
    expect(await detail(page).getByRole('link', { name: 'chris.nguyen@example.com' }).getAttribute('href')).toBe(
      'mailto:chris.nguyen@example.com',
    );
    expect(await detail(page).innerText()).toMatch(/Name\s*Chris Nguyen/);
    expect(await detail(page).innerText()).toMatch(/Received\s*[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/);
    expect(await detail(page).getByTestId('submission-message').textContent()).toMatch(/^Quick question before I order[\s\S]*shoulders\.$/);
    await expect.poll(() => item(page, 'Chris Nguyen').getByTestId('status-badge').textContent()).toBe('Read');
    await expect.poll(() => stat(page, 'new')).toBe('1');
    expect(await stat(page, 'read')).toBe('3');
    await expect.poll(() => page.getByTestId('admin-badge').textContent()).toBe('1');

    // Update Status buttons.
    const statusButtons = detail(page).getByRole('group', { name: 'Update Status' }).getByRole('button');
    expect(await statusButtons.allInnerTexts()).toEqual(['New', 'Read', 'Resolved']);
    await detail(page).getByRole('button', { name: 'Resolved' }).click();
    await expect.poll(() => statusInDb('chris.nguyen@example.com')).toBe('resolved');
    await expect.poll(() => detail(page).getByTestId('status-badge').first().textContent()).toBe('Resolved');
    expect(await detail(page).getByRole('button', { name: 'Resolved' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => item(page, 'Chris Nguyen').getByTestId('status-badge').textContent()).toBe('Resolved');
    await expect.poll(() => stat(page, 'resolved')).toBe('3');
    await detail(page).getByRole('button', { name: 'New' }).click();
    await expect.poll(() => statusInDb('chris.nguyen@example.com')).toBe('new');
    await expect.poll(() => detail(page).getByTestId('status-badge').first().textContent()).toBe('New');
    await expect.poll(() => page.getByTestId('admin-badge').textContent()).toBe('2');

    // A failed update changes nothing on screen: not while it fails (no optimistic change), nor
    // once the page has reported the failure.
    await page.route(
      (url) => url.pathname.includes('admin.contact.setStatus'),
      (route) => route.abort(),
    );
    const stillNew = async () =>
      (await detail(page).getByTestId('status-badge').first().textContent()) === 'New' &&
      (await item(page, 'Chris Nguyen').getByTestId('status-badge').textContent()) === 'New';
    await detail(page).getByRole('button', { name: 'Read' }).click();
    await holdsFor(stillNew, 'the New badges after a failed update', 500);
    await expect.poll(() => env.pageErrors(page).some((error) => error.includes('Failed to update the contact submission'))).toBe(true);
    expect(await stillNew()).toBe(true);
    expect(await statusInDb('chris.nguyen@example.com')).toBe('new');
    await page.unrouteAll();

    await saveScreenshot(page, 'admin-contact-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The status filter, on the server, kept in the address.
    await page.getByLabel('Status', { exact: true }).selectOption('resolved');
    await page.waitForURL((url) => url.searchParams.get('status') === 'resolved');
    // Poll the contents, not the count: one filter's list can be as long as the next one's.
    await expect.poll(() => items(page).getByTestId('status-badge').allInnerTexts()).toEqual(['Resolved', 'Resolved']);
    await page.getByLabel('Status', { exact: true }).selectOption('new');
    await page.waitForURL((url) => url.searchParams.get('status') === 'new');
    await expect
      .poll(() => items(page).allInnerTexts())
      .toEqual([expect.stringContaining('Chris Nguyen'), expect.stringContaining('Linda Park')]);

    // Another admin reads everything: this screen follows without a reload.
    await env.db.transaction().execute(async (trx) => {
      await trx.updateTable('contact_submissions').set({ status: 'read' }).where('status', '=', 'new').execute();
      await publishEvent(trx, { type: 'contact_submissions_changed' });
    });
    await page.getByText('No submissions found').waitFor();
    expect(await stat(page, 'new')).toBe('0');

    // And a new message arrives live.
    const sent = await page.request.post('/trpc/contact.submit', {
      data: { name: 'Jordan Miles', email: 'jordan@example.com', subject: 'Bulk order', message: 'Can I order 30 shirts?' },
      headers: { origin: env.baseUrl },
    });
    expect(sent.status()).toBe(200);
    await item(page, 'Jordan Miles').waitFor();
    expect(await stat(page, 'total')).toBe('7');
    expect(
      env
        .pageErrors(page)
        .filter((error) => !error.includes('Failed to update the contact submission') && !error.includes('net::ERR_FAILED')),
    ).toEqual([]);
  });

  it('works on a phone', async () => {
    const page = await signedInPage(ADMIN_EMAIL, VIEWPORTS.mobile);
    await page.goto('/admin/contact');
    await item(page, 'Linda Park').click();
    await detail(page).getByRole('heading', { name: 'Matching tees for our charity ride' }).waitFor();
    expect(
      await detail(page)
        .getByRole('heading')
        .first()
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await expectFitsPhone(page, 'admin-contact-375');
  });

  it('pages a long inbox, the tiles and badge counting all of it', async () => {
    // Older than the demo inbox, "Bulk sender 00" newest of them; all new.
    const extra = CONTACT_PAGE_SIZE + 4;
    await env.db
      .insertInto('contact_submissions')
      .values(
        bulkRows(extra, (n) => ({
          name: `Bulk sender ${twoDigits(n)}`,
          email: `bulk${n}@example.com`,
          subject: `Bulk question ${n}`,
          message: 'Do you ship abroad?',
        })),
      )
      .execute();
    const inbox = await env.db.selectFrom('contact_submissions').select('status').execute();
    const all = inbox.length;
    const fresh = inbox.filter((row) => row.status === 'new').length;

    const page = await signedInPage(ADMIN_EMAIL);
    await page.goto('/admin/contact');
    await items(page).first().waitFor();
    expect(await items(page).count()).toBe(CONTACT_PAGE_SIZE);
    expect(await stat(page, 'total')).toBe(String(all));
    expect(await stat(page, 'new')).toBe(String(fresh));
    await expect.poll(() => page.getByTestId('admin-badge').textContent()).toBe(String(fresh));
    expect(await page.getByTestId('pagination-summary').textContent()).toBe(`Showing 1–${CONTACT_PAGE_SIZE} of ${all} submissions`);

    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await expect.poll(() => items(page).last().innerText()).toContain(`Bulk sender ${twoDigits(extra - 1)}`);
    expect(await items(page).count()).toBe(all - CONTACT_PAGE_SIZE);
    expect(await page.getByTestId('pagination-summary').textContent()).toBe(
      `Showing ${CONTACT_PAGE_SIZE + 1}–${all} of ${all} submissions`,
    );

    // Opening one on page 2 marks it read: the tiles and the badge count the whole inbox.
    await item(page, `Bulk sender ${twoDigits(extra - 1)}`).click();
    await expect.poll(() => stat(page, 'new')).toBe(String(fresh - 1));
    await expect.poll(() => page.getByTestId('admin-badge').textContent()).toBe(String(fresh - 1));
    expect(await stat(page, 'total')).toBe(String(all));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-contact-page2-1280');

    // A status filter starts again on its first page.
    await page.getByLabel('Status', { exact: true }).selectOption('new');
    await page.waitForURL((url) => url.searchParams.get('status') === 'new' && !url.searchParams.has('page'));
    await expect.poll(() => items(page).count()).toBe(CONTACT_PAGE_SIZE);
    expect(await items(page).getByTestId('status-badge').allInnerTexts()).toEqual(Array<string>(CONTACT_PAGE_SIZE).fill('New'));
    expect(await page.getByTestId('pagination-summary').textContent()).toBe(`Showing 1–${CONTACT_PAGE_SIZE} of ${fresh - 1} submissions`);
    expect(env.pageErrors(page)).toEqual([]);

    const phone = await signedInPage(ADMIN_EMAIL, VIEWPORTS.mobile);
    await phone.goto('/admin/contact?page=2');
    await expect.poll(() => items(phone).count()).toBe(all - CONTACT_PAGE_SIZE);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.mobile.width);
    await saveScreenshot(phone, 'admin-contact-page2-375');
  });
});

describe('privacy requests in Customers', () => {
  it("downloads a customer's data and deletes their account, keeping their orders as Deleted customer", async () => {
    const email = 'forget.me@example.com';
    const customer = await createCustomer(env.db, { email, first_name: 'Fern', last_name: 'Gotten' });
    const order = await createOrder(env.db, {
      customer_id: customer.id,
      shipping_address: { name: 'Fern Gotten', street: '5 Lost Lane', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' },
    });
    const page = await signedInPage(ADMIN_EMAIL);
    await page.goto(`/admin/customers?search=${encodeURIComponent(email)}`);
    const row = page.getByTestId('user-row').filter({ hasText: email });
    await row.waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: `${DOWNLOAD_DATA} of ${email}` }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^customer-data-forget\.me@example\.com-\d{4}-\d\d-\d\d\.json$/);
    const data = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as {
      account: { email: string };
      orders: { order_number: string }[];
    };
    expect(data.account.email).toBe(email);
    expect(data.orders.map((o) => o.order_number)).toEqual([order.order_number]);

    await row.getByRole('button', { name: `${DELETE_ACCOUNT} of ${email}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this account?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await env.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeDefined();
    await row.getByRole('button', { name: `${DELETE_ACCOUNT} of ${email}` }).click();
    await confirm.getByRole('button', { name: DELETE_ACCOUNT }).click();
    await expectToast(page, 'success', `The account of ${email} was deleted.`);
    await expect.poll(() => page.getByTestId('user-row').filter({ hasText: email }).count()).toBe(0);
    expect(await env.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();

    // The order stays in Orders, for no one.
    await page.goto('/admin/orders');
    const kept = page.getByRole('row').filter({ hasText: order.order_number });
    await expect.poll(() => kept.innerText()).toContain('Deleted customer');
    expect(env.pageErrors(page)).toEqual([]);
  });
});
