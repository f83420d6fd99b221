import type { Page } from 'playwright-core';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedIfEmpty } from '../../src/server/seed/seed';
import { seriousA11yViolations } from '../support/a11y';
import { holdRequests, openPage, saveScreenshot, sharedBrowserApp, signInInBrowser, VIEWPORTS } from '../support/browser';
import { createAdmin } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';
import { startSmtpServer } from '../support/smtp';

// The Email Logs screen on the demo store with a known queue: stat tiles, filters, expanded
// delivery attempts, Retry Now, and Process Queue against a REAL local SMTP server that turns the
// first delivery of one email away with 451 and takes the second, so both attempts show.

const FLAKY = 'flaky.reader@example.com';
const MINUTE = 60_000;

const smtp = sharedBeforeAll(startSmtpServer, (server) => server.close());
const env = sharedBrowserApp(() => ({
  env: { SMTP_URL: smtp.url },
  seed: async (db, storage) => {
    await seedIfEmpty(db, storage);
    // A queue whose every number the test knows.
    await db.deleteFrom('email_queue').execute();
  },
}));
const admin = sharedBeforeAll(() => createAdmin(env.db));
let flakyId: string;
let gaveUpId: string;

beforeAll(async () => {
  const now = Date.now();
  const insert = (values: {
    subject: string;
    to: string;
    status: 'pending' | 'sent' | 'failed' | 'permanently_failed';
    retry: number;
    minutesAgo: number;
    nextRetryAt?: Date;
    lastError?: string;
  }) =>
    env.db
      .insertInto('email_queue')
      .values({
        to_email: values.to,
        subject: values.subject,
        text_body: 'Hello',
        status: values.status,
        retry_count: values.retry,
        max_retries: 5,
        next_retry_at: values.nextRetryAt ?? null,
        last_error: values.lastError ?? null,
        sent_at: values.status === 'sent' ? new Date(now - (values.minutesAgo - 1) * MINUTE) : null,
        created_at: new Date(now - values.minutesAgo * MINUTE),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const shipped = await insert({
    subject: 'Your order has shipped',
    to: 'ann@example.com',
    status: 'sent',
    retry: 0,
    minutesAgo: 40,
  });
  const reset = await insert({
    subject: 'Reset your password',
    to: 'bo@example.com',
    status: 'failed',
    retry: 1,
    minutesAgo: 30,
    nextRetryAt: new Date(now + 60 * MINUTE),
    lastError: 'Mailbox busy, try again later',
  });
  gaveUpId = (
    await insert({
      subject: 'Welcome to the club',
      to: 'cy@example.com',
      status: 'permanently_failed',
      retry: 5,
      minutesAgo: 20,
      lastError: 'Connection timed out',
    })
  ).id;
  flakyId = (
    await insert({
      subject: 'Flaky delivery',
      to: FLAKY,
      status: 'pending',
      retry: 0,
      minutesAgo: 10,
    })
  ).id;
  await env.db
    .insertInto('email_logs')
    .values([
      {
        email_queue_id: shipped.id,
        attempt_number: 1,
        status: 'success',
        response_code: 250,
        error_message: null,
      },
      {
        email_queue_id: reset.id,
        attempt_number: 1,
        status: 'failed',
        response_code: 451,
        error_message: 'Mailbox busy, try again later',
      },
    ])
    .execute();

  // The flaky reader's mailbox is busy the first time only.
  let flakyTries = 0;
  smtp.reply = (mail) => (mail.to.includes(FLAKY) && ++flakyTries === 1 ? 451 : 250);
});

const signedInPage = (viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> =>
  signInInBrowser(env, { email: admin.email, viewport });

async function expectToast(page: Page, text: string) {
  await page.getByTestId('toast-success').filter({ hasText: text }).first().waitFor();
}

const row = (page: Page, subject: string) => page.getByTestId('email-row').filter({ hasText: subject });
const subjects = async (page: Page) => (await page.getByTestId('email-subject').allInnerTexts()).map((s) => s.trim());
const stat = async (page: Page, id: string) => (await page.getByTestId(`stat-${id}`).textContent())?.trim();
const emailState = (id: string) =>
  env.db.selectFrom('email_queue').select(['status', 'next_retry_at', 'retry_count']).where('id', '=', id).executeTakeFirstOrThrow();

describe('admin email logs screen', () => {
  it('shows tiles, rows and filters, expands attempts, retries and processes the queue through SMTP', async () => {
    const page = await signedInPage();
    await openPage(page, '/admin/email-logs', 'Email Logs');
    expect(await page.getByText('Monitor and manage email delivery').isVisible()).toBe(true);
    await page.getByTestId('email-row').first().waitFor();

    // Tiles and newest-first rows.
    expect([
      await stat(page, 'total'),
      await stat(page, 'sent'),
      await stat(page, 'pending'),
      await stat(page, 'failed'),
      await stat(page, 'permanently-failed'),
    ]).toEqual(['4', '1', '1', '1', '1']);
    expect(await subjects(page)).toEqual(['Flaky delivery', 'Welcome to the club', 'Reset your password', 'Your order has shipped']);
    const failedRow = row(page, 'Reset your password');
    expect(await failedRow.getByTestId('email-status').textContent()).toBe('Failed');
    expect(await failedRow.getByTestId('email-attempts').textContent()).toBe('Attempts: 1/5');
    expect(await failedRow.textContent()).toContain('To: bo@example.com');
    expect(await failedRow.textContent()).toContain('Next Retry:');
    expect(await failedRow.getByTestId('email-last-error').textContent()).toBe('Mailbox busy, try again later');
    expect(await row(page, 'Your order has shipped').textContent()).toContain('Sent:');
    // Retry Now only on failed and permanently failed rows.
    expect(await page.getByRole('button', { name: 'Retry Now' }).count()).toBe(2);
    await saveScreenshot(page, 'admin-email-logs-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Filters.
    const filters = page.getByRole('group', { name: 'Filter emails' });
    expect(await filters.getByRole('button').allInnerTexts()).toEqual(['All', 'Sent', 'Pending', 'Failed', 'Permanent Failures']);
    await filters.getByRole('button', { name: 'Permanent Failures' }).click();
    await page.waitForURL(/status=permanently_failed/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="email-row"]').length === 1);
    expect(await subjects(page)).toEqual(['Welcome to the club']);
    await filters.getByRole('button', { name: 'Sent' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="email-row"]')?.getAttribute('data-status') === 'sent');
    expect(await subjects(page)).toEqual(['Your order has shipped']);
    await filters.getByRole('button', { name: 'All', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="email-row"]').length === 4);

    // A click expands the delivery attempts; another collapses them.
    const toggle = row(page, 'Reset your password').getByRole('button', {
      expanded: false,
    });
    await toggle.click();
    const attempt = row(page, 'Reset your password').getByTestId('delivery-attempt');
    await attempt.first().waitFor();
    expect(await attempt.count()).toBe(1);
    const attemptText = await attempt.first().textContent();
    expect(attemptText).toContain('Attempt #1');
    expect(attemptText).toContain('failed');
    expect(attemptText).toContain('Response: 451');
    expect(attemptText).toContain('Mailbox busy, try again later');
    await row(page, 'Reset your password').getByRole('button', { expanded: true }).click();
    await attempt.first().waitFor({ state: 'hidden' });

    // Retry Now: back to pending with no retry time.
    await row(page, 'Welcome to the club').getByRole('button', { name: 'Retry Now' }).click();
    await expectToast(page, 'Email marked for retry');
    expect(await emailState(gaveUpId)).toMatchObject({
      status: 'pending',
      next_retry_at: null,
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="stat-pending"]')?.textContent === '2');

    // Process Queue: the retried email is sent, the flaky one is turned away once (451). The run
    // is held until its busy button has been seen.
    const processing = await holdRequests(page, 'admin.emails.processQueue');
    await page.getByRole('button', { name: 'Process Queue' }).click();
    await page.getByRole('button', { name: 'Processing...' }).waitFor();
    processing.release();
    await expectToast(page, 'Queue processed: 1 sent, 1 queued for retry, 0 permanently failed');
    expect(smtp.received.map((m) => [m.subject, m.code])).toEqual([
      ['Welcome to the club', 250],
      ['Flaky delivery', 451],
    ]);
    await row(page, 'Flaky delivery').getByTestId('email-status').filter({ hasText: 'Failed' }).waitFor();
    expect(await row(page, 'Flaky delivery').getByTestId('email-attempts').textContent()).toBe('Attempts: 1/5');

    // Due now, then a second run delivers it.
    await env.db
      .updateTable('email_queue')
      .set({ next_retry_at: sql<string>`now()` })
      .where('id', '=', flakyId)
      .execute();
    await page.getByRole('button', { name: 'Process Queue' }).click();
    await expectToast(page, 'Queue processed: 1 sent, 0 queued for retry, 0 permanently failed');
    expect((await emailState(flakyId)).status).toBe('sent');
    const flaky = row(page, 'Flaky delivery');
    await flaky.getByTestId('email-status').filter({ hasText: 'Sent' }).waitFor();
    await flaky.getByRole('button', { expanded: false }).click();
    await flaky.getByTestId('delivery-attempt').nth(1).waitFor();
    const attempts = (await flaky.getByTestId('delivery-attempt').allInnerTexts()).map((text) => text.replace(/\s+/g, ' '));
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatch(/^Attempt #2 Success Response: 250 /);
    expect(attempts[1]).toMatch(/^Attempt #1 Failed Response: 451 /);
    expect(attempts[1]).toContain('Mailbox busy, try again later');
    expect(smtp.accepted().map((m) => m.subject)).toEqual(['Welcome to the club', 'Flaky delivery']);
    await saveScreenshot(page, 'admin-email-logs-expanded-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('shows its loading and empty states, and works at 375 px', async () => {
    const page = await signedInPage(VIEWPORTS.mobile);
    // Arrive from another admin screen, so the list is read alone (not batched with the header's first reads).
    await page.goto('/admin/contact');
    await page.getByRole('heading', { level: 1 }).waitFor();
    // The list is held until its loading state has been seen.
    const list = await holdRequests(page, 'admin.emails.list');
    await page.getByRole('button', { name: 'Admin menu' }).click();
    await page.getByRole('link', { name: 'Email Logs' }).click();
    await page.getByText('Loading emails...').waitFor();
    list.release();
    await page.getByTestId('email-row').first().waitFor();
    // After the first test nothing is pending any more.
    await page.getByRole('group', { name: 'Filter emails' }).getByRole('button', { name: 'Pending' }).click();
    await page.getByText('No emails found').waitFor();
    expect(await page.getByTestId('email-row').count()).toBe(0);
    await page.getByRole('group', { name: 'Filter emails' }).getByRole('button', { name: 'All', exact: true }).click();
    await page.getByTestId('email-row').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await saveScreenshot(page, 'admin-email-logs-mobile');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
