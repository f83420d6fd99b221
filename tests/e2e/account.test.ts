import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../support/factories';
import { ACCOUNT_DELETED, DELETE_MY_ACCOUNT, DOWNLOAD_MY_DATA, PASSWORD_INCORRECT } from '../../src/shared/schemas/account';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, VIEWPORTS, sharedBrowserApp } from '../support/browser';
import { CONFIRMATION_SUBJECT, EXISTING_ACCOUNT_SUBJECT, queuedEmail, queuedEmailLink } from '../support/email';

// Sign-in, sign-up with email confirmation, password reset, dashboard and settings, in Chromium
// against the built app. Emails are read from the email_queue table, as a user would read them.

const CREDENTIALS_REQUIRED = 'You must provide either an email or phone number and a password';
const PASSWORD_TOO_SHORT = 'Password must be at least 6 characters long';
const checkYourEmail = (email: string) => `Check your email. We sent a message to ${email} with the next step.`;

/** The link in the newest queued email to `to` whose subject contains `subject`. */
const formMessage = (page: Page) => page.locator('[data-testid="form-error"], [data-testid="form-success"]');
const pathOf = (page: Page) => new URL(page.url()).pathname;

async function fillCredentials(page: Page, email: string, password: string) {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
}

/** Fills the address fields inside `section` (the shipping or the billing address). */
async function fillAddress(section: Locator, address: { street: string; city: string; state: string; zip: string }) {
  await section.getByLabel('Street address').fill(address.street);
  await section.getByLabel('City').fill(address.city);
  await section.getByLabel('State').fill(address.state);
  await section.getByLabel('ZIP code').fill(address.zip);
}

async function signInThroughUi(page: Page, email: string, password = 'secret123') {
  await page.goto('/login');
  await fillCredentials(page, email, password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
}

/** Page errors other than the browser's log line for a refused request (an invalid link answers 400). */
const unexpectedErrors = (errors: string[]) => errors.filter((error) => !/^Failed to load resource: .* status of 4\d\d/.test(error));

async function expectNoA11yViolations(page: Page) {
  expect(await seriousA11yViolations(page)).toEqual([]);
}

describe('account screens', () => {
  const env = sharedBrowserApp();

  // Shorter waits than Playwright's 30 s, so a broken step fails fast with its own message.
  const open = async (options?: { viewport: { width: number; height: number } }) => {
    const page = await env.newPage(options);
    page.setDefaultTimeout(10_000);
    return page;
  };

  /** A new user, and a browser signed in as them: a session that a password change must end. */
  async function userSignedInElsewhere(email: string, password: string): Promise<Page> {
    await createCustomer(env.db, { email, password });
    const elsewhere = await open();
    await signInThroughUi(elsewhere, email, password);
    return elsewhere;
  }

  it('signs up through the form, is signed in by the emailed confirmation link, and signs in again later', async () => {
    const email = 'new.rider@example.com';
    const page = await open();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');

    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    expect(new URL(page.url()).searchParams.get('mode')).toBe('signup');

    // The spec's validation messages, before anything reaches the server.
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe(CREDENTIALS_REQUIRED);
    await fillCredentials(page, email, '');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe(CREDENTIALS_REQUIRED);
    await fillCredentials(page, 'not-an-email', 'secret123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe('Please enter a valid email address');
    expect(await page.getByLabel('Email address').getAttribute('aria-invalid')).toBe('true');
    await fillCredentials(page, email, 'abc');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe(PASSWORD_TOO_SHORT);
    expect(await env.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();

    // Signed up, not signed in: the next step is in the email.
    await fillCredentials(page, email, 'ride-free-99');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe(checkYourEmail(email));
    expect(await page.getByTestId('form-success').isVisible()).toBe(true);
    expect(pathOf(page)).toBe('/login');
    expect(await page.getByTestId('account-link').getAttribute('href')).toBe('/login');
    await expectNoA11yViolations(page);
    const link = await queuedEmailLink(env.db, email, CONFIRMATION_SUBJECT);
    expect(new URL(link).pathname).toBe('/confirm-email');
    const user = await env.db.selectFrom('users').select(['id', 'email_confirmed_at']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.email_confirmed_at).toBeNull();

    // Changing mode clears the message.
    await page.getByRole('main').getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    expect(await formMessage(page).count()).toBe(0);

    // Signing up again with the same address, in other case, looks the same; the owner gets a note.
    const other = await open();
    await other.goto('/login?mode=signup');
    await fillCredentials(other, email.toUpperCase(), 'another-pass');
    await other.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => formMessage(other).textContent()).toBe(checkYourEmail(email.toUpperCase()));
    await queuedEmail(env.db, email, EXISTING_ACCOUNT_SUBJECT);
    expect(await env.db.selectFrom('users').select('id').where('email', 'ilike', email).execute()).toHaveLength(1);

    // The emailed link says whose address it confirms, and confirms it and signs its owner in, on
    // to My Account, even in a browser where someone else is signed in (who is told). Opened in
    // another browser than the one that signed up, the account's password may be a stranger's:
    // the confirmer chooses it there.
    const shared = await userSignedInElsewhere('someone.else@example.com', 'their-pass-1');
    await shared.goto(link);
    await expect.poll(() => shared.getByTestId('confirm-switches-account').textContent()).toContain('someone.else@example.com');
    expect(await shared.getByRole('main').getByText(email).isVisible()).toBe(true);
    expect(await shared.getByTestId('confirm-choose-password').textContent()).toBe(
      "This link was opened in a browser other than the one used to sign up. To confirm here, choose the account's password: any password set before stops working, and every device signed in to the account is signed out.",
    );
    await expectNoA11yViolations(shared);
    await saveScreenshot(shared, 'confirm-email-signed-in-elsewhere');
    await shared.getByRole('button', { name: 'Confirm Email' }).click();
    await expect.poll(() => shared.getByText('Password must be at least 6 characters long').count()).toBe(1);
    await shared.getByLabel('New password', { exact: true }).fill('ride-free-99');
    await shared.getByLabel('Confirm new password').fill('ride-free-99');
    await shared.getByRole('button', { name: 'Confirm Email' }).click();
    await shared.waitForURL('**/dashboard');
    await expect.poll(() => shared.getByTestId('account-email').textContent()).toBe(email);
    await expect.poll(() => shared.getByTestId('toast-success').textContent()).toBe(`Thanks! ${email} is confirmed.`);
    expect(await shared.getByTestId('unconfirmed-notice').count()).toBe(0);
    await shared.reload();
    await expect.poll(() => shared.getByTestId('account-email').textContent()).toBe(email);
    const confirmed = await env.db.selectFrom('users').select('email_confirmed_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(confirmed.email_confirmed_at).not.toBeNull();

    // Opened again by its owner, now confirmed: no error, just that there is nothing more to do.
    await shared.goto(link);
    await expect.poll(() => formMessage(shared).textContent()).toBe('Your email address is already confirmed.');
    expect(await shared.getByRole('link', { name: 'Go to My Account' }).isVisible()).toBe(true);

    // The link works once; the second visit, signed out, says so and offers a way forward.
    await page.goto(link);
    await expect.poll(() => formMessage(page).textContent()).toBe('Invalid or expired confirmation link');
    expect(await page.getByRole('main').getByRole('link', { name: 'Sign In' }).isVisible()).toBe(true);
    await expectNoA11yViolations(page);

    await signInThroughUi(page, email, 'ride-free-99');
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe(email);
    expect(await page.getByTestId('unconfirmed-notice').count()).toBe(0);
    expect(unexpectedErrors(env.pageErrors(page))).toEqual([]);
  });

  it('a user who signs in before confirming can ask for a new confirmation link', async () => {
    const email = 'lost.link@example.com';
    const page = await open();
    await page.goto('/login?mode=signup');
    await fillCredentials(page, email, 'secret123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe(checkYourEmail(email));
    await queuedEmailLink(env.db, email, CONFIRMATION_SUBJECT);
    await signInThroughUi(page, email);
    await page.getByTestId('unconfirmed-notice').waitFor();
    const countEmails = async () =>
      Number(
        (
          await env.db
            .selectFrom('email_queue')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('to_email', '=', email)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await countEmails()).toBe(1);
    await page.getByRole('button', { name: 'Send a New Confirmation Link' }).click();
    await expect
      .poll(() => page.getByTestId('unconfirmed-notice').getByTestId('form-success').textContent())
      .toBe(`We sent a new confirmation link to ${email}.`);
    expect(await countEmails()).toBe(2);
    await page.goto(await queuedEmailLink(env.db, email, CONFIRMATION_SUBJECT));
    // Their own link, in their own browser: nothing to warn about, and one press confirms.
    await page.getByRole('button', { name: 'Confirm Email' }).waitFor();
    expect(await page.getByTestId('confirm-switches-account').count()).toBe(0);
    expect(await page.getByTestId('confirm-choose-password').count()).toBe(0);
    await page.getByRole('button', { name: 'Confirm Email' }).click();
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe(email);
    expect(await page.getByTestId('unconfirmed-notice').count()).toBe(0);
  });

  it('shows the provider message for a wrong password, and changing mode clears messages', async () => {
    await createCustomer(env.db, { email: 'wrong.pass@example.com' });
    const page = await open();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe(CREDENTIALS_REQUIRED);

    await fillCredentials(page, 'wrong.pass@example.com', 'not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe('Invalid login credentials');
    expect(pathOf(page)).toBe('/login');

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    expect(await formMessage(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe('Please enter your email address');

    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    expect(await formMessage(page).count()).toBe(0);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    expect(await formMessage(page).count()).toBe(0);

    // A failure that is not an answer from the server gives the generic message.
    await page.getByRole('main').getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.route('**/trpc/auth.signIn**', (route) => route.abort());
    await fillCredentials(page, 'wrong.pass@example.com', 'secret123');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe('An unexpected error occurred');
    await page.unroute('**/trpc/auth.signIn**');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');
  });

  it('resets a forgotten password through the emailed link and ends the old sessions', async () => {
    const email = 'forgetful@example.com';
    // Another browser signed in before the reset.
    const elsewhere = await userSignedInElsewhere(email, 'old-password');

    const page = await open();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe('Password reset link sent! Check your email.');

    const link = await queuedEmailLink(env.db, email, 'Reset your');
    const url = new URL(link);
    expect(url.pathname).toBe('/reset-password');
    expect(url.searchParams.get('type')).toBe('recovery');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set a New Password' }).waitFor();
    await expectNoA11yViolations(page);

    await page.getByLabel('New password', { exact: true }).fill('abc');
    await page.getByLabel('Confirm new password').fill('abc');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => page.getByText(PASSWORD_TOO_SHORT).count()).toBe(1);
    await page.getByLabel('New password', { exact: true }).fill('brand-new-1');
    await page.getByLabel('Confirm new password').fill('brand-new-2');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => page.getByText('Passwords do not match').count()).toBe(1);

    await page.getByLabel('Confirm new password').fill('brand-new-1');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByRole('heading', { name: 'Password Updated' }).waitFor();
    const shownAt = Date.now();
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(2_000);

    // The browser signed in before the reset is signed out.
    await elsewhere.goto('/dashboard');
    await elsewhere.waitForURL((u) => u.pathname === '/login');
    expect(new URL(elsewhere.url()).searchParams.get('redirect')).toBe('/dashboard');
    await expect.poll(() => elsewhere.getByTestId('account-link').getAttribute('href')).toBe('/login');

    // Old password refused, new one accepted; the used link is refused.
    await fillCredentials(page, email, 'old-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe('Invalid login credentials');
    await fillCredentials(page, email, 'brand-new-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto(link);
    await expect.poll(() => formMessage(page).textContent()).toBe('Invalid or expired reset link');
  });

  it('asking to reset an unknown address looks the same and sends nothing', async () => {
    const page = await open();
    await page.goto('/login?mode=reset');
    await page.getByLabel('Email address').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe('Password reset link sent! Check your email.');
    expect(await env.db.selectFrom('email_queue').select('id').where('to_email', '=', 'nobody@example.com').execute()).toEqual([]);

    // A failure of the request itself shows the spec's fallback.
    await page.route('**/trpc/auth.requestPasswordReset**', (route) => route.abort());
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect.poll(() => formMessage(page).textContent()).toBe('Failed to send password reset email');
  });

  it('reset links without a token, without type=recovery, or unknown are refused', async () => {
    const page = await open();
    const cases: [string, string][] = [
      ['/reset-password', 'Invalid reset link'],
      ['/reset-password?type=recovery', 'Invalid reset link'],
      ['/reset-password?token=abc123', 'Invalid or expired reset link'],
      ['/reset-password?token=abc123&type=signup', 'Invalid or expired reset link'],
      ['/reset-password?token=abc123&type=recovery', 'Invalid or expired reset link'],
      ['/reset-password?token_hash=abc123&type=recovery', 'Invalid or expired reset link'],
    ];
    for (const [path, message] of cases) {
      await page.goto(path);
      await expect.poll(() => formMessage(page).textContent(), { message: path }).toBe(message);
      expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    }
    expect(await page.getByRole('link', { name: 'Request a New Link' }).getAttribute('href')).toBe('/login?mode=reset');
    await expectNoA11yViolations(page);

    // A real token is accepted under the token_hash name too.
    await createCustomer(env.db, { email: 'hash.param@example.com' });
    const res = await page.request.post('/trpc/auth.requestPasswordReset', {
      data: { email: 'hash.param@example.com' },
      headers: { origin: env.baseUrl },
    });
    expect(res.status()).toBe(200);
    const token = new URL(await queuedEmailLink(env.db, 'hash.param@example.com', 'Reset your')).searchParams.get('token');
    await page.goto(`/reset-password?token_hash=${token}&type=recovery`);
    await page.getByLabel('New password', { exact: true }).waitFor();
  });

  it('sends signed-out visitors of the dashboard and settings to /login and back after signing in', async () => {
    await createCustomer(env.db, { email: 'returning@example.com' });
    const page = await open();
    await page.goto('/dashboard');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard');
    await fillCredentials(page, 'returning@example.com', 'secret123');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');

    // The dashboard of the spec.
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe('returning@example.com');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('My Account');
    const cards = page.getByTestId('account-card');
    expect(await cards.locator('h2').allTextContents()).toEqual(['Orders', 'Subscriptions', 'Settings']);
    expect(await cards.filter({ hasText: 'Settings' }).locator('a').getAttribute('href')).toBe('/settings');
    const recent = page.getByRole('region', { name: 'Recent Orders' });
    expect(await recent.getByText('No orders yet').isVisible()).toBe(true);
    expect(await recent.getByRole('link', { name: 'Start Shopping' }).getAttribute('href')).toBe('/shop');
    await cards.filter({ hasText: 'Settings' }).locator('a').click();
    await page.waitForURL('**/settings');

    // A signed-in visitor of /login goes straight on.
    await page.goto('/login?redirect=/settings');
    await page.waitForURL((u) => u.pathname === '/settings');

    // Sign out from the dashboard; /settings then asks for a sign-in and comes back to it.
    await page.goto('/dashboard');
    await page.getByRole('main').getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect.poll(() => page.getByTestId('account-link').getAttribute('href')).toBe('/login');
    await page.goto('/settings');
    await page.waitForURL((u) => u.pathname === '/login');
    await fillCredentials(page, 'returning@example.com', 'secret123');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/settings');

    // A redirect to another site is ignored.
    const fresh = await open();
    await fresh.goto('/login?redirect=//evil.example/steal');
    await fillCredentials(fresh, 'returning@example.com', 'secret123');
    await fresh.getByRole('button', { name: 'Sign In' }).click();
    await fresh.waitForURL((u) => u.pathname === '/dashboard');
    expect(new URL(fresh.url()).origin).toBe(env.baseUrl);
  });

  it('saves settings, shows them after a reload, and handles Same as shipping and required fields', async () => {
    const email = 'settings@example.com';
    const { id: userId } = await createCustomer(env.db, { email });
    const page = await open();
    await signInThroughUi(page, email);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();

    const shipping = page.getByRole('group', { name: 'Shipping Address' });
    const billing = page.getByRole('group', { name: 'Billing Address' });
    const same = page.getByLabel('Same as shipping');
    const save = page.getByRole('button', { name: 'Save Settings' });
    const saved = page.getByTestId('toast-success').last();
    const failed = page.getByTestId('toast-error').last();

    // A new customer has no addresses yet: they match, so the box starts checked and billing is hidden.
    expect(await same.isChecked()).toBe(true);
    expect(await billing.count()).toBe(0);

    await save.click();
    for (const message of [
      'First name is required',
      'Last name is required',
      'Phone is required',
      'Street address is required',
      'City is required',
      'State is required',
      'ZIP code is required',
    ]) {
      await expect.poll(() => page.getByText(message, { exact: true }).count(), { message }).toBe(1);
    }
    expect(await page.getByLabel('First name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[data-testid^="toast-"]').count()).toBe(0);

    await page.getByLabel('First name').fill('Jake');
    await page.getByLabel('Last name').fill('Rider');
    await page.getByLabel('Phone').fill('555-0100');
    await fillAddress(shipping, { street: '12 Harley Ave', city: 'Milwaukee', state: 'WI', zip: '53201' });
    await save.click();
    await expect.poll(() => saved.textContent()).toBe('Settings saved successfully!');
    const address = { street: '12 Harley Ave', city: 'Milwaukee', state: 'WI', zip: '53201', country: 'USA' };
    const row = await env.db.selectFrom('customers').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      first_name: 'Jake',
      last_name: 'Rider',
      phone: '555-0100',
      shipping_address: address,
      billing_address: address,
    });
    await expectNoA11yViolations(page);

    await page.reload();
    await expect.poll(() => page.getByLabel('First name').inputValue()).toBe('Jake');
    expect(await page.getByLabel('Phone').inputValue()).toBe('555-0100');
    expect(await shipping.getByLabel('City').inputValue()).toBe('Milwaukee');
    expect(await same.isChecked()).toBe(true);

    // Unchecked, the billing address becomes required.
    await same.uncheck();
    await billing.waitFor();
    for (const label of ['Street address', 'City', 'State', 'ZIP code']) await billing.getByLabel(label).fill('');
    await save.click();
    await expect.poll(() => billing.getByText('Street address is required').count()).toBe(1);
    expect(await billing.getByText('ZIP code is required').count()).toBe(1);
    await fillAddress(billing, { street: '1 Office Park', city: 'Austin', state: 'TX', zip: '73301' });
    await save.click();
    await expect.poll(() => saved.textContent()).toBe('Settings saved successfully!');
    const split = await env.db
      .selectFrom('customers')
      .select(['billing_address', 'shipping_address'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(split.billing_address).toEqual({ street: '1 Office Park', city: 'Austin', state: 'TX', zip: '73301', country: 'USA' });
    expect(split.shipping_address).toEqual(address);

    // After a reload the box starts unchecked, because the addresses differ.
    await page.reload();
    await expect.poll(() => page.getByLabel('First name').inputValue()).toBe('Jake');
    expect(await same.isChecked()).toBe(false);
    expect(await billing.getByLabel('City').inputValue()).toBe('Austin');

    // A save that fails shows the spec's alert and changes nothing.
    await page.getByLabel('First name').fill('Jacob');
    await page.route('**/trpc/account.saveProfile**', (route) => route.abort());
    await save.click();
    await expect.poll(() => failed.textContent()).toBe('Failed to save settings. Please try again.');
    expect(await page.getByRole('alert').filter({ hasText: 'Failed to save settings' }).count()).toBe(1);
    const unchanged = await env.db.selectFrom('customers').select('first_name').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(unchanged.first_name).toBe('Jake');
    // Escape dismisses the toast.
    await page.keyboard.press('Escape');
    await expect.poll(() => failed.count()).toBe(0);
  });

  it('changes the password with the spec messages', async () => {
    const email = 'changer@example.com';
    const elsewhere = await userSignedInElsewhere(email, 'first-pass');
    const page = await open();
    await signInThroughUi(page, email, 'first-pass');
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Change Password' });
    await section.waitFor();
    const submit = section.getByRole('button', { name: 'Change Password' });
    const saved = page.getByTestId('toast-success').last();
    const failed = page.getByTestId('toast-error').last();

    await section.getByLabel('Current password').fill('first-pass');
    await section.getByLabel('New password', { exact: true }).fill('second-pass');
    await section.getByLabel('Confirm new password').fill('second-pasz');
    await submit.click();
    await expect.poll(() => section.getByText('Passwords do not match').count()).toBe(1);
    await section.getByLabel('New password', { exact: true }).fill('abc');
    await section.getByLabel('Confirm new password').fill('abc');
    await submit.click();
    await expect.poll(() => section.getByText(PASSWORD_TOO_SHORT).count()).toBe(1);

    await section.getByLabel('Current password').fill('wrong-pass');
    await section.getByLabel('New password', { exact: true }).fill('second-pass');
    await section.getByLabel('Confirm new password').fill('second-pass');
    await submit.click();
    // The server's answer is shown under the field it is about.
    await section.getByText('Current password is incorrect').waitFor();
    expect(await section.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');

    await section.getByLabel('Current password').fill('first-pass');
    await submit.click();
    await expect.poll(() => saved.textContent()).toBe('Password changed successfully!');
    expect(await section.getByLabel('Current password').inputValue()).toBe('');

    // This browser stays signed in; the other one is signed out; the new password works.
    await page.reload();
    await expect.poll(() => page.getByTestId('account-link').getAttribute('href')).toBe('/dashboard');
    await elsewhere.goto('/dashboard');
    await elsewhere.waitForURL((u) => u.pathname === '/login');
    await fillCredentials(elsewhere, email, 'second-pass');
    await elsewhere.getByRole('button', { name: 'Sign In' }).click();
    await elsewhere.waitForURL('**/dashboard');

    // A failure that is not a server answer gets the spec's fallback.
    await page.route('**/trpc/account.changePassword**', (route) => route.abort());
    await section.getByLabel('Current password').fill('second-pass');
    await section.getByLabel('New password', { exact: true }).fill('third-pass');
    await section.getByLabel('Confirm new password').fill('third-pass');
    await submit.click();
    await expect.poll(() => failed.textContent()).toBe('Failed to change password. Please try again.');
  });

  it('downloads my data, and deletes my account once the password is given and the deletion confirmed', async () => {
    const email = 'leaving@example.com';
    await createCustomer(env.db, { email, password: 'leave-pass', first_name: 'Lee', last_name: 'Ving' });
    const page = await open();
    await signInThroughUi(page, email, 'leave-pass');
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Your Data' });
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: DOWNLOAD_MY_DATA }).click()]);
    expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d\d-\d\d\.json$/);
    const data = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as { account: { email: string; first_name: string } };
    expect(data.account).toMatchObject({ email, first_name: 'Lee' });

    const passwordStep = page.getByRole('dialog', { name: DELETE_MY_ACCOUNT });
    const confirmStep = page.getByRole('alertdialog', { name: 'Delete your account for good?' });
    await section.getByRole('button', { name: DELETE_MY_ACCOUNT }).click();
    await passwordStep.getByRole('button', { name: 'Continue' }).click();
    await passwordStep.getByText('Please enter your password').waitFor();
    // A wrong password, though confirmed, deletes nothing and says so under the field.
    await passwordStep.getByLabel('Password').fill('not-my-pass');
    await passwordStep.getByRole('button', { name: 'Continue' }).click();
    await confirmStep.getByRole('button', { name: DELETE_MY_ACCOUNT }).click();
    await page.getByTestId('toast-error').filter({ hasText: PASSWORD_INCORRECT }).waitFor();
    await expect.poll(() => passwordStep.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(await env.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeDefined();

    await passwordStep.getByLabel('Password').fill('leave-pass');
    await passwordStep.getByRole('button', { name: 'Continue' }).click();
    await confirmStep.getByRole('button', { name: DELETE_MY_ACCOUNT }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('toast-success').filter({ hasText: ACCOUNT_DELETED }).waitFor();
    await expect.poll(() => page.getByTestId('account-link').getAttribute('href')).toBe('/login');
    expect(await env.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  describe('every account screen passes axe and is saved as a screenshot', () => {
    beforeAll(async () => {
      await createCustomer(env.db, { email: 'looks@example.com' });
      await env.db
        .insertInto('users')
        .values({
          email: 'unconfirmed.look@example.com',
          password_hash: (
            await env.db.selectFrom('users').select('password_hash').where('email', '=', 'looks@example.com').executeTakeFirstOrThrow()
          ).password_hash,
        })
        .execute();
    });

    // One test per width: each is a dozen pages with an axe run, too long together for one test's time.
    it.each([
      ['375', VIEWPORTS.mobile],
      ['1280', VIEWPORTS.desktop],
    ] as const)('at %s px', async (size, viewport) => {
      const page = await open({ viewport });
      for (const [name, path, heading] of [
        ['login', '/login', 'Sign In'],
        ['login-signup', '/login?mode=signup', 'Create Account'],
        ['login-reset', '/login?mode=reset', 'Reset Password'],
        ['reset-password-invalid', '/reset-password?token=nope&type=recovery', 'Reset Password'],
        ['confirm-email-invalid', '/confirm-email?token=nope', 'Confirm Email'],
      ] as const) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.waitForLoadState('networkidle');
        if (name === 'login') {
          await page.getByRole('button', { name: 'Sign In' }).click();
          await formMessage(page).waitFor();
        }
        await expectNoA11yViolations(page);
        await saveScreenshot(page, `account-${name}-${size}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), name).toBeLessThanOrEqual(0);
      }

      await signInThroughUi(page, 'unconfirmed.look@example.com');
      await page.getByTestId('unconfirmed-notice').waitFor();
      await expectNoA11yViolations(page);
      await saveScreenshot(page, `account-dashboard-${size}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

      await page.goto('/settings');
      await page.getByLabel('First name').waitFor();
      await page.getByLabel('Same as shipping').uncheck();
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page.getByText('First name is required').waitFor();
      await expectNoA11yViolations(page);
      await saveScreenshot(page, `account-settings-${size}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      expect(unexpectedErrors(env.pageErrors(page))).toEqual([]);
    });
  });
});
