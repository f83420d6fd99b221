import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCycles } from '../../src/server/subscriptions/dates';
import { formatCalendarDay } from '../../src/shared/dates';
import { noShirtsInSize, PLAN_CHANGED } from '../../src/shared/schemas/subscriptions';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, signInInBrowser, startBrowserApp, VIEWPORTS, type BrowserApp } from '../support/browser';
import { createCategory, createCustomer, createProduct } from '../support/factories';

// The subscription club in the browser: join a plan from /subscriptions, then on
// /subscription skip the next shipment, pause, resume and cancel, each confirmed first, and keep
// the membership after all before the cancellation takes effect.

let env: BrowserApp;

beforeAll(async () => {
  env = await startBrowserApp();
});
afterAll(async () => {
  await env?.close();
});

describe('the subscription club', () => {
  it('joins a plan, then skips, pauses, resumes, cancels and keeps it after all on the member page', async () => {
    const cars = await createCategory(env.db, { name: 'Garage Classics' });
    await createProduct(env.db, { category_id: cars.id, name: 'Garage Classic Tee' });
    await env.db
      .insertInto('subscription_plans')
      .values({ name: 'Garage Club', slug: 'garage-club', price: '27.00', billing_interval: 'monthly', category_limit: 1, features: [] })
      .execute();
    const member = await createCustomer(env.db, { first_name: 'Rita', last_name: 'Rider' });
    await env.db
      .updateTable('customers')
      .set({ shipping_address: JSON.stringify({ street: '12 Piston Way', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' }) })
      .where('id', '=', member.id)
      .execute();
    const page = await signInInBrowser(env, { email: member.email, viewport: VIEWPORTS.mobile });

    await page.goto('/subscriptions');
    await page.getByRole('link', { name: 'Join Garage Club' }).click();
    await page.getByRole('heading', { name: 'Join Garage Club', level: 1 }).waitFor();
    expect(await page.getByLabel('Street address').inputValue()).toBe('12 Piston Way');
    await page.getByLabel('Shirt size').selectOption('XL');

    // A category must be chosen; the plan allows one, so the others are disabled once it is.
    await page.getByRole('button', { name: 'Start subscription' }).click();
    await page.getByText('Choose at least one category').waitFor();
    await page.getByLabel('Garage Classics').check();
    // No shirt of the category is made in XS (new products come in S to 4XL): refused under the size.
    await page.getByLabel('Shirt size').selectOption('XS');
    await page.getByRole('button', { name: 'Start subscription' }).click();
    await page.getByText(noShirtsInSize('XS')).waitFor();
    await page.getByLabel('Shirt size').selectOption('XL');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'subscription-join-375');
    // The price changes while the member fills in the form: refused, and the new price is shown.
    await env.db.updateTable('subscription_plans').set({ price: '28.00' }).where('slug', '=', 'garage-club').execute();
    await page.getByRole('button', { name: 'Start subscription' }).click();
    await page.getByText(PLAN_CHANGED).waitFor();
    await page.getByText('$28', { exact: true }).waitFor();
    await saveScreenshot(page, 'subscription-join-plan-changed-375');
    await page.getByRole('button', { name: 'Start subscription' }).click();

    await page.waitForURL((url) => url.pathname === '/subscription');
    const card = page.getByTestId('membership');
    await card.getByRole('heading', { name: 'Garage Club' }).waitFor();
    expect(await card.getByTestId('subscription-status').textContent()).toBe('Active');
    await expect.poll(() => card.getByTestId('membership-orders').locator('li').count()).toBe(1);
    const subscription = await env.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('customer_id', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(subscription).toMatchObject({ size: 'XL', category_ids: [cars.id], status: 'active', price: '28.00' });
    const nextShipment = await card.getByTestId('next-shipment').textContent();

    // Their category leaves the store: the change dialog lists the others, and the one they had
    // neither shows nor counts against the plan's limit of one.
    await env.db.updateTable('categories').set({ is_active: false }).where('id', '=', cars.id).execute();
    const road = await createCategory(env.db, { name: 'Road Legends' });
    await createProduct(env.db, { category_id: road.id, name: 'Road Legend Tee' });
    await page.reload();
    await card.getByRole('button', { name: 'Change size or categories' }).click();
    const change = page.getByRole('dialog');
    await change.getByLabel('Road Legends').check();
    expect(await change.getByLabel('Garage Classics').count()).toBe(0);
    await change.getByLabel('Shirt size').selectOption('M');
    await change.getByRole('button', { name: 'Save' }).click();
    await change.waitFor({ state: 'detached' });
    await expect
      .poll(async () =>
        env.db.selectFrom('subscriptions').select(['size', 'category_ids']).where('id', '=', subscription.id).executeTakeFirstOrThrow(),
      )
      .toEqual({ size: 'M', category_ids: [road.id] });

    // Skip, after a confirmation; a double click on it (or on Resume below) asks the server once.
    const calls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/trpc/subscriptions.')) calls.push(path.slice('/trpc/subscriptions.'.length));
    });
    await card.getByRole('button', { name: 'Skip next shipment' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Skip shipment' }).dblclick();
    await expect.poll(() => card.getByTestId('next-shipment').textContent()).toBe(`${nextShipment} (skipped)`);

    // Pause for two shipments, then resume.
    await card.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('alertdialog').getByLabel('2 shipments').check();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => card.getByTestId('subscription-status').textContent()).toBe('Paused');
    expect(await card.getByTestId('next-shipment').textContent()).toMatch(/^Resumes /);
    await card.getByRole('button', { name: 'Resume' }).dblclick();
    await expect.poll(() => card.getByTestId('subscription-status').textContent()).toBe('Active');
    expect(calls.filter((call) => call !== 'mine')).toEqual(['skipNext', 'pause', 'resume']);
    expect(await page.getByText(/already skipped|Only a paused subscription/).count()).toBe(0);
    // Back at once: the skipped shipment stays skipped, so the next is the one after it (today's
    // was made when joining).
    const afterSkipped = addCycles(subscription.next_cycle_on, subscription.billing_interval, 1, subscription.anchor_day);
    expect(await card.getByTestId('next-shipment').textContent()).toBe(formatCalendarDay(afterSkipped));

    // Cancel at the end of the paid period, with a reason.
    await card.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByLabel(/Why are you leaving/).fill('Moving abroad');
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect.poll(() => card.getByTestId('subscription-status').textContent()).toMatch(/^Cancels on /);
    expect(await card.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
    expect(
      await env.db.selectFrom('subscriptions').select(['cancel_reason']).where('id', '=', subscription.id).executeTakeFirstOrThrow(),
    ).toEqual({
      cancel_reason: 'Moving abroad',
    });

    const subjects = (await env.db.selectFrom('email_queue').select('subject').where('to_email', '=', member.email).execute()).map(
      (row) => row.subject,
    );
    expect(subjects).toEqual(
      expect.arrayContaining(['Welcome to Garage Club', 'Garage Club paused', 'Garage Club resumed', 'Garage Club cancelled']),
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'subscription-member-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize(VIEWPORTS.desktop);
    await saveScreenshot(page, 'subscription-member-1280');

    // Changed their mind before the day: kept, it is active again with every action back.
    await card.getByRole('button', { name: 'Keep My Membership' }).click();
    await page.getByRole('status').filter({ hasText: 'Your membership will continue' }).waitFor();
    await expect.poll(() => card.getByTestId('subscription-status').textContent()).toBe('Active');
    await card.getByRole('button', { name: 'Cancel subscription' }).waitFor();
    expect(await card.getByRole('button', { name: 'Keep My Membership' }).count()).toBe(0);
    expect(
      await env.db
        .selectFrom('subscriptions')
        .select(['cancel_at', 'cancel_reason'])
        .where('id', '=', subscription.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ cancel_at: null, cancel_reason: null });
    const keptMail = await env.db
      .selectFrom('email_queue')
      .select('subject')
      .where('to_email', '=', member.email)
      .where('subject', '=', 'Garage Club: your membership continues')
      .execute();
    expect(keptMail).toHaveLength(1);
    // The browser logs the refused joins' statuses (XS, then the changed price); nothing else may fail.
    expect(env.pageErrors(page).filter((error) => !/status of (400|409) .*\/trpc\/subscriptions\.join/.test(error))).toEqual([]);
  });

  it('tells a member what a payment waits for: a card join awaiting its first payment, shipments on hold until paid', async () => {
    const plan = await env.db
      .insertInto('subscription_plans')
      .values({ name: 'Card Club', slug: 'card-club', price: '30.00', billing_interval: 'monthly', features: [] })
      .returning('id')
      .executeTakeFirstOrThrow();
    const onHold = await env.db
      .insertInto('subscription_plans')
      .values({ name: 'Hold Club', slug: 'hold-club', price: '25.00', billing_interval: 'quarterly', features: [] })
      .returning('id')
      .executeTakeFirstOrThrow();
    const lapsed = await env.db
      .insertInto('subscription_plans')
      .values({ name: 'Lapsed Club', slug: 'lapsed-club', price: '20.00', billing_interval: 'monthly', features: [] })
      .returning('id')
      .executeTakeFirstOrThrow();
    const member = await createCustomer(env.db);
    const terms = { customer_id: member.id, size: 'M' as const, shipping_address: JSON.stringify({ street: '1 Pay St' }), anchor_day: 1 };
    await env.db
      .insertInto('subscriptions')
      .values([
        {
          ...terms,
          plan_id: plan.id,
          status: 'incomplete',
          payment_provider: 'stripe',
          price: '30.00',
          billing_interval: 'monthly',
          next_cycle_on: '2027-01-01',
          checkout_url: 'https://checkout.stripe.test/c/pay/cs_waiting',
        },
        { ...terms, plan_id: onHold.id, status: 'past_due', price: '25.00', billing_interval: 'quarterly', next_cycle_on: '2027-01-01' },
        // Its payment page expired unpaid.
        {
          ...terms,
          plan_id: lapsed.id,
          status: 'incomplete',
          payment_provider: 'stripe',
          price: '20.00',
          billing_interval: 'monthly',
          next_cycle_on: '2027-01-01',
        },
      ])
      .execute();
    const page = await signInInBrowser(env, { email: member.email, viewport: VIEWPORTS.mobile });
    await page.goto('/subscription');

    const waiting = page.getByTestId('membership').filter({ hasText: 'Card Club' });
    await waiting.getByText('We are waiting for your card payment').waitFor();
    expect(await waiting.getByTestId('subscription-status').textContent()).toBe('Awaiting payment');
    expect(await waiting.getByTestId('next-shipment').textContent()).toBe('After your first payment');
    expect(await waiting.getByRole('link', { name: 'Continue to payment' }).getAttribute('href')).toBe(
      'https://checkout.stripe.test/c/pay/cs_waiting',
    );
    expect(await waiting.getByRole('button').count()).toBe(0);

    const expired = page.getByTestId('membership').filter({ hasText: 'Lapsed Club' });
    await expired.getByText('Your card payment was not made, so you have not joined yet.').waitFor();
    expect(await expired.getByRole('link', { name: 'Join again' }).getAttribute('href')).toBe('/subscriptions/join/lapsed-club');

    const held = page.getByTestId('membership').filter({ hasText: 'Hold Club' });
    expect(await held.getByTestId('subscription-status').textContent()).toBe('Past due');
    await held.getByText('Your shipments are on hold until the unpaid order below is paid').waitFor();

    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'subscription-payment-notices-375');
    await page.setViewportSize(VIEWPORTS.desktop);
    await saveScreenshot(page, 'subscription-payment-notices-1280');
    expect(env.pageErrors(page)).toEqual([]);
  });
});
