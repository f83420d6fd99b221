import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInInBrowser, sharedBrowserApp } from '../support/browser';
import { createAdmin, DEFAULT_PASSWORD } from '../support/factories';

// Browsers open at most six HTTP/1.1 connections per origin. A live stream per tab (two or three
// per admin tab, as there were) stalled every request once a few tabs were open. One tab of the browser now holds the one stream and passes its news to the others.

// A stream that ended is opened again after a second; the machine may be busy.
const POLL = { timeout: 10_000 };

describe('live updates in many tabs of one browser', () => {
  const env = sharedBrowserApp();

  it('keep 5 admin tabs and 3 storefront tabs responsive and current through one connection', async () => {
    await env.db.deleteFrom('contact_submissions').execute();
    const admin = await createAdmin(env.db);
    const first = await signInInBrowser(env, { email: admin.email, timeout: 15_000 });
    const browser = first.context();

    // The live streams this browser has open, with the tab holding each.
    const streams = new Map<Request, Page>();
    browser.on('request', (request) => {
      const page = request.frame().page();
      if (request.url().includes('/trpc/live.')) streams.set(request, page);
    });
    const closed = (request: Request) => streams.delete(request);
    browser.on('requestfinished', closed);
    browser.on('requestfailed', closed);
    // A closed tab's requests end without an event.
    const streamHolders = () => [...new Set(streams.values())].filter((page) => !page.isClosed());

    const tabs = [first];
    for (let i = 1; i < 8; i++) {
      const tab = await browser.newPage();
      tab.setDefaultTimeout(15_000);
      tabs.push(tab);
    }
    const adminTabs = tabs.slice(0, 5);
    const storeTabs = tabs.slice(5);
    for (const tab of adminTabs) {
      await tab.goto('/admin/contact');
      await tab.getByRole('heading', { level: 1, name: 'Contact Submissions' }).waitFor();
      await tab.getByText('No submissions found').waitFor();
    }
    for (const tab of storeTabs) {
      await tab.goto('/');
      await tab.getByTestId('admin-link').waitFor();
    }
    await expect.poll(() => streamHolders().length, POLL).toBe(1);

    // Every tab still gets its pages' data at once.
    for (const tab of adminTabs) {
      await tab.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Orders' }).click();
      await tab.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      await tab
        .getByRole('navigation', { name: 'Admin' })
        .getByRole('link', { name: /^Contact/ })
        .click();
      await tab.getByText('No submissions found').waitFor();
    }
    for (const tab of storeTabs) {
      await tab.getByRole('link', { name: 'Shop', exact: true }).first().click();
      await tab.getByTestId('product-card').first().waitFor();
    }

    const visitor = await env.newPage();
    let sent = 0;
    const submitContact = async () => {
      const res = await visitor.request.post('/trpc/contact.submit', {
        data: { name: 'Rider', email: 'rider@example.com', subject: `Sizing ${++sent}`, message: 'Does the 2XL run large?' },
        headers: { origin: env.baseUrl },
      });
      expect(res.status()).toBe(200);
    };
    /** Every open tab shows `count` new submissions: the admin sidebar's badge and inbox, the storefront header's badge. */
    const everyTabShows = async (count: number) => {
      for (const tab of adminTabs.filter((page) => !page.isClosed())) {
        await expect.poll(() => tab.getByTestId('submission-item').count(), POLL).toBe(count);
        const inboxLink = tab.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: /^Contact/ });
        await expect.poll(() => inboxLink.textContent(), POLL).toContain(`${count} new`);
      }
      for (const tab of storeTabs) await expect.poll(() => tab.getByTestId('admin-badge').textContent(), POLL).toBe(String(count));
    };

    await submitContact();
    await everyTabShows(1);

    // The leading tab closes: another takes over the one connection, and nothing is missed.
    const leader = streamHolders()[0]!;
    await leader.close();
    await expect.poll(() => streamHolders().length, POLL).toBe(1);
    await submitContact();
    await everyTabShows(2);

    // A password change renews this browser's session and ends the stream opened with the old one;
    // the stream is opened again with the new session.
    const changed = await storeTabs[0]!.request.post('/trpc/account.changePassword', {
      data: { currentPassword: DEFAULT_PASSWORD, password: 'a-new-password' },
      headers: { origin: env.baseUrl },
    });
    expect(changed.status()).toBe(200);
    await submitContact();
    await everyTabShows(3);
    await expect.poll(() => streamHolders().length, POLL).toBe(1);
    for (const tab of tabs.filter((page) => !page.isClosed())) expect(env.pageErrors(tab)).toEqual([]);
  });
});
