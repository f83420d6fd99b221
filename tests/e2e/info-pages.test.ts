import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, VIEWPORTS, waitForImages, sharedBrowserApp } from '../support/browser';

// The subscription club page, the shipping / returns / FAQ help pages, the home page's and the
// not-found page's accessibility, all with a configured store email.

const STORE_EMAIL = 'help@tees.example';

const HELP_PAGES = [
  { path: '/shipping', link: 'Shipping Info', heading: 'Shipping Info' },
  { path: '/returns', link: 'Returns & Exchanges', heading: 'Returns & Exchanges' },
  { path: '/faq', link: 'FAQ', heading: 'Frequently Asked Questions' },
] as const;

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('subscription club and information pages', () => {
  const env = sharedBrowserApp({ env: { STORE_EMAIL } });

  const activePlans = () =>
    env.db
      .selectFrom('subscription_plans')
      .select(['name', 'slug', 'price', 'billing_interval', 'category_limit', 'features'])
      .where('is_active', '=', true)
      .orderBy('price')
      .execute();

  it('lists the active plans by price with whole-dollar prices, interval labels, features and the Most Popular badge', async () => {
    // An inactive plan, cheaper than all others, must not show.
    await env.db
      .insertInto('subscription_plans')
      .values({
        name: 'Retired Plan',
        slug: 'retired-plan',
        price: '5.00',
        billing_interval: 'monthly',
        category_limit: 1,
        features: ['Gone'],
        is_active: false,
      })
      .execute();
    const plans = await activePlans();
    expect(plans.length).toBeGreaterThan(1);
    expect(plans.some((plan) => plan.billing_interval === 'quarterly')).toBe(true);

    const page = await env.newPage();
    await page.goto('/subscriptions');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const cards = page.getByTestId('plan-card');
    await cards.first().waitFor();

    expect(await cards.locator('h3').allTextContents()).toEqual(plans.map((plan) => plan.name));
    expect(await page.getByText('Retired Plan').count()).toBe(0);
    // Joining is open: nothing says sign-up is still to come.
    expect(await page.getByText('Skip a shipment, pause or cancel at any time from your membership page.').isVisible()).toBe(true);
    expect(await page.getByText(/coming soon|waitlist/i).count()).toBe(0);

    const prices = (await cards.getByTestId('plan-price').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(prices).toEqual(
      plans.map((plan) => `$${Math.round(Number(plan.price))} / ${plan.billing_interval === 'quarterly' ? '3 months' : 'month'}`),
    );
    for (const price of prices) expect(price).toMatch(/^\$\d+ \/ (month|3 months)$/);

    // 'Most Popular' sits on the category_limit 0 plan only.
    const popularIndex = plans.findIndex((plan) => plan.category_limit === 0);
    expect(popularIndex).toBeGreaterThanOrEqual(0);
    expect(await page.getByText('Most Popular', { exact: true }).count()).toBe(1);
    expect(await cards.nth(popularIndex).getByText('Most Popular', { exact: true }).count()).toBe(1);

    for (const [index, plan] of plans.entries()) {
      const features = await cards.nth(index).getByRole('list').getByRole('listitem').allTextContents();
      expect(features).toEqual(plan.features);
    }

    expect(await page.getByRole('heading', { name: 'How It Works' }).isVisible()).toBe(true);
    expect(await page.locator('section[aria-labelledby="how-heading"] ol > li').count()).toBeGreaterThanOrEqual(3);

    // Support link: a mailto to the configured STORE_EMAIL.
    const support = page.getByTestId('club-support-email');
    expect(await support.getAttribute('href')).toBe(`mailto:${STORE_EMAIL}`);
    expect(await support.textContent()).toContain(STORE_EMAIL);

    // A plan's Join button: signed out, to sign in first, then back to that plan's join page.
    const [firstPlan] = plans;
    await cards
      .first()
      .getByRole('link', { name: `Join ${firstPlan!.name}` })
      .click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/subscriptions/join/${firstPlan!.slug}`);

    expect(env.pageErrors(page)).toEqual([]);
  });

  it('the subscriptions page passes axe and fits 375 px and 1280 px (screenshots)', async () => {
    for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
      const page = await env.newPage({ viewport });
      await page.goto('/subscriptions');
      await page.getByTestId('plan-card').first().waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await saveScreenshot(page, `subscriptions-${viewport.width}`);
    }
  });

  it('shows an empty state when no plan is active', async () => {
    const active = await env.db.selectFrom('subscription_plans').select('id').where('is_active', '=', true).execute();
    await env.db.updateTable('subscription_plans').set({ is_active: false }).execute();
    try {
      const page = await env.newPage();
      await page.goto('/subscriptions');
      await page.getByText('No plans are open right now.').waitFor();
      expect(await page.getByTestId('plan-card').count()).toBe(0);
      const contact = page.locator('main').getByRole('link', { name: 'Contact Us' });
      expect(await contact.getAttribute('href')).toBe('/contact');
      expect(await seriousA11yViolations(page)).toEqual([]);
    } finally {
      await env.db
        .updateTable('subscription_plans')
        .set({ is_active: true })
        .where(
          'id',
          'in',
          active.map((plan) => plan.id),
        )
        .execute();
    }
  });

  it('the footer links reach the shipping, returns and FAQ pages, which pass axe at both widths', async () => {
    for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
      const page = await env.newPage({ viewport });
      await page.goto('/');
      await page.getByRole('link', { name: 'Shop Now' }).waitFor();
      for (const help of HELP_PAGES) {
        await page.locator('footer').getByRole('link', { name: help.link, exact: true }).click();
        await page.waitForURL(`**${help.path}`);
        // The URL changes before the lazily loaded page renders, so wait for its own heading.
        await page.getByRole('heading', { level: 1, name: help.heading, exact: true }).waitFor();
        expect(await page.title()).toContain(help.heading);
        // Each page has real content: several sections, the help navigation and the store email.
        expect(await page.locator('main section h2').count()).toBeGreaterThanOrEqual(2);
        expect(await page.locator(`main a[href="mailto:${STORE_EMAIL}"]`).count()).toBe(1);
        expect(await page.getByRole('navigation', { name: 'Help pages' }).getByRole('link').count()).toBe(4);
        expect(await seriousA11yViolations(page)).toEqual([]);
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await saveScreenshot(page, `${help.path.slice(1)}-${viewport.width}`);
      }
      expect(env.pageErrors(page)).toEqual([]);
    }
  });

  it('shipping says shipping is free and returns covers misprints, sizes and care', async () => {
    const page = await env.newPage();
    await page.goto('/shipping');
    await page.getByRole('heading', { name: 'Free shipping on every order' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('printed on demand');

    await page.goto('/returns');
    for (const name of ['Misprints, damage and wrong items', 'Size exchanges', 'Caring for your tee']) {
      await page.getByRole('heading', { name }).waitFor();
    }
  });

  it('FAQ answers are disclosures that open and close from the keyboard', async () => {
    const page = await env.newPage();
    await page.goto('/faq');
    const items = page.getByTestId('faq-item');
    await items.first().waitFor();
    expect(await items.count()).toBeGreaterThanOrEqual(6);
    const first = items.first();
    const answer = first.locator('div');
    expect(await answer.isVisible()).toBe(false);

    await first.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => first.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    expect(await answer.isVisible()).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => first.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);

    const joinItem = items.filter({ hasText: 'How do I join?' });
    await joinItem.locator('summary').click();
    expect(await joinItem.locator('div').innerText()).toContain('and press Join: choose your shirt size');

    // An answer's links work: the care guide link lands on the care section of the returns page.
    const careItem = items.filter({ hasText: 'How do I care for my tee?' });
    await careItem.locator('summary').click();
    await careItem.getByRole('link', { name: 'care guide' }).click();
    await page.waitForURL('**/returns#care');
    await page.getByRole('heading', { name: 'Caring for your tee' }).waitFor();
  });

  it('the home page passes axe', async () => {
    const page = await env.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Shop Now' }).waitFor();
    await page.getByTestId('featured-products').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('an unknown route shows the not-found page with a way back; axe clean at both widths', async () => {
    for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
      const page = await env.newPage({ viewport });
      await page.goto('/definitely/not/here');
      await page.getByRole('heading', { name: 'Page Not Found', level: 1 }).waitFor();
      expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
      expect(await page.getByRole('link', { name: 'Browse the Shop' }).getAttribute('href')).toBe('/shop');
      expect(await page.locator('main').getByRole('link', { name: 'Contact us', exact: true }).getAttribute('href')).toBe('/contact');
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await waitForImages(page);
      await saveScreenshot(page, `not-found-${viewport.width}`);
      expect(env.pageErrors(page)).toEqual([]);
    }
  });
});
