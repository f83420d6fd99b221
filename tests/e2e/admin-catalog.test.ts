import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CATEGORY_CHANGED_ELSEWHERE } from '../../src/shared/schemas/admin-categories';
import { BACK_UP_NOW, BACKUP_TAKEN, SETTINGS_CHANGED_ELSEWHERE } from '../../src/shared/schemas/admin-settings';
import { backupsDir } from '../../src/server/backup/schedule';
import { PLAN_CHANGED_ELSEWHERE } from '../../src/shared/schemas/admin-plans';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, signInInBrowser, VIEWPORTS, sharedBrowserApp } from '../support/browser';
import { changeElsewhere, CHANGED_ELSEWHERE } from '../support/db';
import { createAdmin } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';

// The admin Categories, Subscriptions and Settings screens on the demo store: the inline
// category form (slug generated, image uploaded), a reorder that survives a reload, toggle,
// delete with its confirmation and the refusal for a category with products; plans created,
// edited and deleted; default templates uploaded as real PNGs; a test email through the outbox.

const env = sharedBrowserApp();
const admin = sharedBeforeAll(() => createAdmin(env.db));

async function adminPage(url: string, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  const page = await signInInBrowser(env, { email: admin.email, viewport });
  await page.goto(url);
  await page.getByTestId('admin-layout').waitFor();
  return page;
}

/** Waits for a toast with exactly this text. */
async function expectToast(page: Page, kind: 'success' | 'error', text: string) {
  const toast = page.getByTestId(`toast-${kind}`).filter({ hasText: text }).first();
  await toast.waitFor();
  expect(await toast.locator('p').textContent()).toBe(text);
}

const png = (color: string, width = 60, height = 60) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

async function noOverflowAndAccessible(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
}

describe('admin categories', () => {
  const rows = (page: Page) => page.getByTestId('category-row');
  const slugsOnPage = (page: Page) => rows(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-slug')));
  const slugsInDb = async () => (await env.db.selectFrom('categories').select('slug').orderBy('sort_order').execute()).map((c) => c.slug);
  const category = (slug: string) => env.db.selectFrom('categories').selectAll().where('slug', '=', slug).executeTakeFirst();

  it('creates a category: slug generated from the name, image uploaded, every field required', async () => {
    const page = await adminPage('/admin/categories');
    await page.getByRole('heading', { level: 1, name: 'Categories' }).waitFor();
    await rows(page).first().waitFor();
    expect(await slugsOnPage(page)).toEqual(['motorcycle', 'car', 'christian']);

    await page.getByRole('button', { name: 'Add Category' }).click();
    const form = page.getByTestId('category-form');
    // The name field has the focus when the form opens.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('name');

    await form.getByRole('button', { name: 'Create Category' }).click();
    for (const message of ['Name is required', 'Slug is required', 'Description is required', 'Image URL is required']) {
      await form.getByText(message, { exact: true }).waitFor();
    }
    await noOverflowAndAccessible(page);

    await form.getByLabel('Name').fill('Vintage Trucks & Vans!');
    expect(await form.getByLabel('Slug').inputValue()).toBe('vintage-trucks-vans');
    await form.getByLabel('Description').fill('Old pickups, panel vans and the roads they ran.');
    await form
      .getByTestId('category-image-input')
      .setInputFiles({ name: 'trucks.png', mimeType: 'image/png', buffer: await png('#b45309', 320, 180) });
    await expect.poll(() => form.getByLabel('Image URL').inputValue()).toMatch(/^\/storage\/categories\/[\w-]+\.png$/);
    const imageUrl = await form.getByLabel('Image URL').inputValue();
    const served = await page.request.get(imageUrl);
    expect([served.status(), served.headers()['content-type']]).toEqual([200, 'image/png']);
    await saveScreenshot(page, 'admin-categories-form-1280');

    await form.getByRole('button', { name: 'Create Category' }).click();
    await expectToast(page, 'success', 'Category "Vintage Trucks & Vans!" saved.');
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => slugsOnPage(page)).toEqual(['motorcycle', 'car', 'christian', 'vintage-trucks-vans']);
    expect(await category('vintage-trucks-vans')).toMatchObject({
      name: 'Vintage Trucks & Vans!',
      description: 'Old pickups, panel vans and the roads they ran.',
      image_url: imageUrl,
      is_active: true,
      sort_order: 4,
    });
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('keeps a slug edited by hand, and refuses a duplicate with the spec text and the reason', async () => {
    const page = await adminPage('/admin/categories');
    await page.getByRole('button', { name: 'Add Category' }).click();
    const form = page.getByTestId('category-form');
    await form.getByLabel('Name').fill('Cars');
    await form.getByLabel('Slug').fill('car');
    await form.getByLabel('Name').fill('Cars and Coupes');
    expect(await form.getByLabel('Slug').inputValue()).toBe('car');
    await form.getByLabel('Description').fill('Duplicate');
    await form.getByLabel('Image URL').fill('https://cdn.example.com/cars.png');
    await form.getByRole('button', { name: 'Create Category' }).click();
    await expectToast(page, 'error', 'Failed to save category. Please try again.');
    await form.getByText('A category with this slug already exists', { exact: true }).waitFor();
    expect(await form.getByLabel('Slug').getAttribute('aria-invalid')).toBe('true');
    expect(await slugsInDb()).toEqual(['motorcycle', 'car', 'christian', 'vintage-trucks-vans']);
  });

  it('moves categories up and down, and the order survives a reload', async () => {
    const page = await adminPage('/admin/categories');
    await rows(page).first().waitFor();
    expect(await page.getByRole('button', { name: 'Move Motorcycle up' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Move Vintage Trucks & Vans! down' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Move Vintage Trucks & Vans! up' }).click();
    await expect.poll(() => slugsOnPage(page)).toEqual(['motorcycle', 'car', 'vintage-trucks-vans', 'christian']);
    await page.getByRole('button', { name: 'Move Motorcycle down' }).click();
    await expect.poll(() => slugsOnPage(page)).toEqual(['car', 'motorcycle', 'vintage-trucks-vans', 'christian']);

    await page.reload();
    await rows(page).first().waitFor();
    expect(await slugsOnPage(page)).toEqual(['car', 'motorcycle', 'vintage-trucks-vans', 'christian']);
    expect(await slugsInDb()).toEqual(['car', 'motorcycle', 'vintage-trucks-vans', 'christian']);
    const orders = (await env.db.selectFrom('categories').select('sort_order').orderBy('sort_order').execute()).map((c) => c.sort_order);
    expect(orders).toEqual([1, 2, 3, 4]);

    // The storefront header follows the new order.
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Car' }).waitFor();
    const links = await nav.getByRole('link').allTextContents();
    expect(links.indexOf('Car')).toBeLessThan(links.indexOf('Motorcycle'));
  });

  it('edits a category in the inline form; its slug stays unless changed', async () => {
    const page = await adminPage('/admin/categories');
    await page.getByRole('button', { name: 'Edit Vintage Trucks & Vans!' }).click();
    const form = page.getByTestId('category-form');
    await form.getByRole('heading', { name: 'Edit category: Vintage Trucks & Vans!' }).waitFor();

    // Another admin changes the category while this form is open: the save is refused, and the
    // category opened again shows their change, which the next save keeps.
    await changeElsewhere(env.db, 'categories', { column: 'slug', value: 'vintage-trucks-vans' });
    await form.getByLabel('Name').fill('Vintage Trucks');
    await form.getByRole('button', { name: 'Update Category' }).click();
    await expectToast(page, 'error', 'Failed to save category. Please try again.');
    await expectToast(page, 'error', CATEGORY_CHANGED_ELSEWHERE);
    await page.getByRole('button', { name: 'Edit Vintage Trucks & Vans!' }).click();
    await expect.poll(() => form.getByLabel('Description').inputValue()).toBe(CHANGED_ELSEWHERE);

    // Moved in the list while the form is open (and back): its place is not what the form edits, so the save goes through.
    await page.getByRole('button', { name: 'Move Vintage Trucks & Vans! up' }).click();
    await expect.poll(() => slugsOnPage(page)).toEqual(['car', 'vintage-trucks-vans', 'motorcycle', 'christian']);
    await page.getByRole('button', { name: 'Move Vintage Trucks & Vans! down' }).click();
    await expect.poll(() => slugsOnPage(page)).toEqual(['car', 'motorcycle', 'vintage-trucks-vans', 'christian']);

    await form.getByLabel('Name').fill('Vintage Trucks');
    expect(await form.getByLabel('Slug').inputValue()).toBe('vintage-trucks-vans');
    await form.getByRole('button', { name: 'Update Category' }).click();
    await expectToast(page, 'success', 'Category "Vintage Trucks" saved.');
    await rows(page).filter({ hasText: 'Vintage Trucks' }).first().waitFor();
    expect(await category('vintage-trucks-vans')).toMatchObject({
      name: 'Vintage Trucks',
      description: CHANGED_ELSEWHERE,
      sort_order: 3,
    });
  });

  it('deactivates and activates a category', async () => {
    const page = await adminPage('/admin/categories');
    const row = rows(page).filter({ hasText: 'Vintage Trucks' });
    await page.getByRole('button', { name: 'Deactivate Vintage Trucks' }).click();
    await expectToast(page, 'success', '"Vintage Trucks" is now inactive.');
    await row.getByText('Inactive', { exact: true }).waitFor();
    expect((await category('vintage-trucks-vans'))?.is_active).toBe(false);
    await page.getByRole('button', { name: 'Activate Vintage Trucks' }).click();
    await row.getByText('Active', { exact: true }).waitFor();
    expect((await category('vintage-trucks-vans'))?.is_active).toBe(true);
  });

  it('refuses to delete a category with products: says how many, and offers to deactivate it instead', async () => {
    const page = await adminPage('/admin/categories');
    const count = Number(
      (
        await env.db
          .selectFrom('products as p')
          .innerJoin('categories as c', 'c.id', 'p.category_id')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('c.slug', '=', 'motorcycle')
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(count).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Delete Motorcycle' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      `"Motorcycle" still has ${count} products. Move them to another category or delete them first, or deactivate the category instead.`,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-categories-in-use-1280');
    await dialog.getByRole('button', { name: 'Deactivate instead' }).click();
    await expectToast(page, 'success', '"Motorcycle" is now inactive.');
    expect(await category('motorcycle')).toMatchObject({ is_active: false });
    await env.db.updateTable('categories').set({ is_active: true }).where('slug', '=', 'motorcycle').execute();
  });

  it('deletes an empty category after confirmation; Escape cancels', async () => {
    const page = await adminPage('/admin/categories');
    await page.getByRole('button', { name: 'Delete Vintage Trucks' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete category?' });
    await dialog.waitFor();
    // Cancel has the focus first; Escape closes without deleting.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await category('vintage-trucks-vans')).toBeDefined();

    await page.getByRole('button', { name: 'Delete Vintage Trucks' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'success', 'Category deleted.');
    await expect.poll(() => slugsOnPage(page)).toEqual(['car', 'motorcycle', 'christian']);
    expect(await category('vintage-trucks-vans')).toBeUndefined();
    const orders = (await env.db.selectFrom('categories').select('sort_order').orderBy('sort_order').execute()).map((c) => c.sort_order);
    expect(orders).toEqual([1, 2, 3]);
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('looks right at 1280 and 375 px', async () => {
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.mobile]) {
      const page = await adminPage('/admin/categories', viewport);
      await rows(page).first().waitFor();
      await noOverflowAndAccessible(page);
      await saveScreenshot(page, `admin-categories-${viewport.width}`);
    }
  });
});

describe('admin subscription plans', () => {
  const card = (page: Page, slug: string) => page.locator(`[data-testid="plan-card"][data-slug="${slug}"]`);
  const plan = (slug: string) => env.db.selectFrom('subscription_plans').selectAll().where('slug', '=', slug).executeTakeFirst();

  it('shows every plan as a card with the admin interval labels', async () => {
    await env.db.updateTable('subscription_plans').set({ is_active: false }).where('slug', '=', 'quarterly-box').execute();
    const page = await adminPage('/admin/subscriptions');
    await page.getByRole('heading', { level: 1, name: 'Subscription Plans' }).waitFor();
    await card(page, 'monthly-tee').waitFor();
    expect(await card(page, 'monthly-tee').getByTestId('plan-price').textContent()).toBe('$24.00/mo');
    expect(await card(page, 'all-access').getByTestId('plan-limit').textContent()).toBe('All categories');
    // Inactive plans are listed too (admins see all).
    expect(await card(page, 'quarterly-box').getByTestId('plan-price').textContent()).toBe('$64.00/qtr');
    expect(await card(page, 'quarterly-box').getByText('Inactive', { exact: true }).isVisible()).toBe(true);
    await noOverflowAndAccessible(page);
  });

  it('creates a plan from the modal with the new-plan defaults, normalising slug and features', async () => {
    const page = await adminPage('/admin/subscriptions');
    await page.getByRole('button', { name: 'Add Plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Plan' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Billing interval').inputValue()).toBe('monthly');
    expect(await dialog.getByLabel('Category limit').inputValue()).toBe('1');
    expect(await dialog.getByLabel('Active').isChecked()).toBe(true);
    expect(await dialog.getByLabel('Price (USD)').getAttribute('step')).toBe('0.01');

    await dialog.getByRole('button', { name: 'Create Plan' }).click();
    await dialog.getByText('Name is required', { exact: true }).waitFor();
    await dialog.getByText('Slug is required', { exact: true }).waitFor();
    await dialog.getByText('Price is required', { exact: true }).waitFor();
    await noOverflowAndAccessible(page);

    await dialog.getByLabel('Name').fill('Gold Club');
    await dialog.getByLabel('Slug').fill('Gold Club');
    await dialog.getByLabel('Price (USD)').fill('49.99');
    await dialog.getByLabel('Features').fill('  Free shipping  \n\n   \nPriority support');
    await saveScreenshot(page, 'admin-plans-modal-1280');
    await dialog.getByRole('button', { name: 'Create Plan' }).click();
    await expectToast(page, 'success', 'Plan "Gold Club" saved.');
    await card(page, 'gold-club').waitFor();
    expect(await card(page, 'gold-club').getByTestId('plan-price').textContent()).toBe('$49.99/mo');
    expect(await plan('gold-club')).toMatchObject({
      name: 'Gold Club',
      price: '49.99',
      billing_interval: 'monthly',
      category_limit: 1,
      is_active: true,
      features: ['Free shipping', 'Priority support'],
    });
  });

  it('edits a plan, and reports a refused save as "Error saving plan: …"', async () => {
    const page = await adminPage('/admin/subscriptions');
    await page.getByRole('button', { name: 'Edit Gold Club' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Plan' });
    expect(await dialog.getByLabel('Features').inputValue()).toBe('Free shipping\nPriority support');
    await dialog.getByLabel('Slug').fill('monthly-tee');
    await dialog.getByRole('button', { name: 'Update Plan' }).click();
    await expectToast(page, 'error', 'Error saving plan: A plan with this slug already exists');
    expect(await dialog.isVisible()).toBe(true);

    // Another admin changes the plan while this form is open: the save is refused, and the plan
    // opened again shows their change, which the next save keeps.
    await changeElsewhere(env.db, 'subscription_plans', { column: 'slug', value: 'gold-club' });
    await dialog.getByLabel('Slug').fill('gold-club');
    await dialog.getByRole('button', { name: 'Update Plan' }).click();
    await expectToast(page, 'error', `Error saving plan: ${PLAN_CHANGED_ELSEWHERE}`);
    // The toasts show in the dialog, above its backdrop (the page under it is inert), and can be
    // clicked away there. Escape is the dialog's: it closes, and the toast left stays on the page.
    const toasts = page.getByTestId('toast-error');
    expect(await dialog.getByTestId('toast-error').allTextContents()).toEqual([
      'Error saving plan: A plan with this slug already exists',
      `Error saving plan: ${PLAN_CHANGED_ELSEWHERE}`,
    ]);
    // In the dialog's layout under its title bar: floating, they covered its Close button.
    const closeButton = (await dialog.getByRole('button', { name: 'Close' }).boundingBox())!;
    const firstToast = (await toasts.first().boundingBox())!;
    expect(firstToast.y).toBeGreaterThanOrEqual(closeButton.y + closeButton.height);
    await toasts.first().getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => toasts.allTextContents()).toEqual([`Error saving plan: ${PLAN_CHANGED_ELSEWHERE}`]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await toasts.allTextContents()).toEqual([`Error saving plan: ${PLAN_CHANGED_ELSEWHERE}`]);
    await page.getByRole('button', { name: 'Edit Gold Club' }).click();
    await expect.poll(() => dialog.getByLabel('Description').inputValue()).toBe(CHANGED_ELSEWHERE);

    await dialog.getByLabel('Billing interval').selectOption('yearly');
    await dialog.getByLabel('Category limit').fill('0');
    await dialog.getByLabel('Price (USD)').fill('499');
    await dialog.getByRole('button', { name: 'Update Plan' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => card(page, 'gold-club').getByTestId('plan-price').textContent()).toBe('$499.00/yr');
    expect(await card(page, 'gold-club').getByTestId('plan-limit').textContent()).toBe('All categories');
    expect(await plan('gold-club')).toMatchObject({
      price: '499.00',
      billing_interval: 'yearly',
      category_limit: 0,
      description: CHANGED_ELSEWHERE,
    });
  });

  it('deactivates a plan, then deletes it after confirmation; a failed delete says "Error deleting plan: …"', async () => {
    // A plan nobody belongs to (the demo club's members hold the demo plans), deleted below by another admin.
    await env.db
      .insertInto('subscription_plans')
      .values({ name: 'Weekend Tee', slug: 'weekend-tee', price: '19.00', features: [] })
      .execute();
    const page = await adminPage('/admin/subscriptions');
    await page.getByRole('button', { name: 'Deactivate Gold Club' }).click();
    await card(page, 'gold-club').getByText('Inactive', { exact: true }).waitFor();
    expect((await plan('gold-club'))?.is_active).toBe(false);

    await page.getByRole('button', { name: 'Delete Gold Club' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete plan?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'success', 'Plan deleted.');
    await card(page, 'gold-club').waitFor({ state: 'detached' });
    expect(await plan('gold-club')).toBeUndefined();

    // Deleted meanwhile (by another admin): the server's answer is shown with the spec's prefix.
    await page.getByRole('button', { name: 'Delete Weekend Tee' }).click();
    await env.db.deleteFrom('subscription_plans').where('slug', '=', 'weekend-tee').execute();
    await page.getByRole('alertdialog', { name: 'Delete plan?' }).getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'error', 'Error deleting plan: Plan not found');
    expect(env.pageErrors(page).filter((error) => !error.includes('404'))).toEqual([]);
  });

  it('looks right at 1280 and 375 px', async () => {
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.mobile]) {
      const page = await adminPage('/admin/subscriptions', viewport);
      await page.getByTestId('plan-card').first().waitFor();
      await noOverflowAndAccessible(page);
      await saveScreenshot(page, `admin-plans-${viewport.width}`);
    }
  });
});

describe('admin settings', () => {
  const defaultTemplate = () => env.db.selectFrom('mockup_templates').selectAll().where('is_default', '=', true).executeTakeFirstOrThrow();

  it('requires both templates, uploads real PNGs and saves them on the default template', async () => {
    const before = await defaultTemplate();
    const page = await adminPage('/admin/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const front = page.getByLabel('Front template URL');
    const back = page.getByLabel('Back template URL');
    await expect.poll(() => front.inputValue()).toBe(before.front_template_url);
    expect(await back.inputValue()).toBe(before.back_template_url);

    await front.fill('');
    await page.getByRole('button', { name: 'Save Templates' }).click();
    await expectToast(page, 'error', 'Both front and back templates are required');
    expect(await front.getAttribute('aria-invalid')).toBe('true');
    expect((await defaultTemplate()).front_template_url).toBe(before.front_template_url);

    await page
      .getByTestId('front-template-input')
      .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: await png('#e7e5e4', 400, 500) });
    await page
      .getByTestId('back-template-input')
      .setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: await png('#d6d3d1', 400, 500) });
    // The seeded URLs match the same pattern: wait for the uploads to replace them.
    const uploaded = (value: string, seeded: string) => value !== seeded && /^\/storage\/templates\/[\w-]+\.png$/.test(value);
    await expect.poll(async () => uploaded(await front.inputValue(), before.front_template_url)).toBe(true);
    await expect.poll(async () => uploaded(await back.inputValue(), before.back_template_url)).toBe(true);
    const [frontUrl, backUrl] = [await front.inputValue(), await back.inputValue()];
    await page.getByRole('button', { name: 'Save Templates' }).click();
    await expectToast(page, 'success', 'Default mockup templates saved successfully!');

    const after = await defaultTemplate();
    expect(after).toMatchObject({
      id: before.id,
      front_template_url: frontUrl,
      back_template_url: backUrl,
      front_art_position: before.front_art_position,
    });
    for (const url of [frontUrl, backUrl]) {
      const file = await page.request.get(url);
      expect([file.status(), file.headers()['content-type']]).toEqual([200, 'image/png']);
    }
    await page.reload();
    await expect.poll(() => page.getByLabel('Front template URL').inputValue()).toBe(frontUrl);
    expect(env.pageErrors(page)).toEqual([]);
  });

  it('reports a failed save as "Error: …"', async () => {
    const page = await adminPage('/admin/settings');
    await expect.poll(() => page.getByLabel('Front template URL').inputValue()).not.toBe('');
    await sql`ALTER TABLE mockup_templates RENAME TO mockup_templates_unavailable`.execute(env.db);
    try {
      await page.getByRole('button', { name: 'Save Templates' }).click();
      await expectToast(page, 'error', 'Error: An unexpected error occurred');
    } finally {
      await sql`ALTER TABLE mockup_templates_unavailable RENAME TO mockup_templates`.execute(env.db);
    }
  });

  it('lists the backups with Download, and takes one on Back up now', async () => {
    const page = await adminPage('/admin/settings');
    const card = page.getByRole('region', { name: 'Backups' });
    await card.getByText('No backup yet').waitFor();
    await card.getByRole('button', { name: BACK_UP_NOW }).click();
    await expectToast(page, 'success', BACKUP_TAKEN);
    const row = card.getByTestId('backup-row');
    await expect.poll(() => row.count()).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: /^Download the backup of / }).click(),
    ]);
    const [listed] = await env.app.backups!.list();
    expect(download.suggestedFilename()).toBe(listed!.name);
    expect(fs.readFileSync(await download.path()).equals(fs.readFileSync(path.join(backupsDir(env.config.dataDir), listed!.name)))).toBe(
      true,
    );
  });

  it('sends a test email at once through the outbox transport and shows its message id', async () => {
    const page = await adminPage('/admin/settings');
    const send = page.getByRole('button', { name: 'Send Test Email' });
    await send.click();
    for (const message of ['To is required', 'Subject is required', 'Text is required'])
      await page.getByText(message, { exact: true }).waitFor();

    await page.getByRole('textbox', { name: 'To', exact: true }).fill('owner@example.com');
    await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('Mail setup check');
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill('If you can read this, email works.');
    await send.click();
    const toast = page.getByTestId('toast-success').filter({ hasText: 'Email sent successfully! Message ID: ' });
    await toast.waitFor();
    const messageId = (await toast.locator('p').textContent())!.replace('Email sent successfully! Message ID: ', '');
    expect(messageId).toMatch(/^<.+@.+>$/);

    const outbox = path.join(env.config.dataDir, 'outbox');
    const files = fs.readdirSync(outbox).filter((name) => name.endsWith('.eml'));
    const mail = files
      .map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'))
      .find((text) => text.includes('Subject: Mail setup check'));
    expect(mail).toContain(`Message-ID: ${messageId}`);
    expect(mail).toContain('To: owner@example.com');
    expect(await env.db.selectFrom('email_queue').select('id').where('subject', '=', 'Mail setup check').execute()).toEqual([]);
    await noOverflowAndAccessible(page);
  });

  it('saves the checkout settings again and again from one form; a save over a change made elsewhere shows that change', async () => {
    const stored = () => env.db.selectFrom('store_settings').select(['tax_rate_percent', 'payment_instructions']).executeTakeFirstOrThrow();
    const before = await stored();
    const page = await adminPage('/admin/settings');
    const tax = page.getByLabel('Tax rate (%)');
    const instructions = page.getByLabel('Payment instructions');
    const save = page.getByRole('button', { name: 'Save Checkout Settings' });
    await instructions.waitFor();
    try {
      for (const rate of ['5', '6']) {
        await tax.fill(rate);
        await save.click();
        await expect.poll(async () => (await stored()).tax_rate_percent).toBe(`${rate}.00`);
      }

      await env.db
        .updateTable('store_settings')
        .set({ payment_instructions: 'Changed elsewhere', updated_at: sql`now()` })
        .execute();
      await tax.fill('7');
      await save.click();
      await expectToast(page, 'error', SETTINGS_CHANGED_ELSEWHERE);
      await expect.poll(() => instructions.inputValue()).toBe('Changed elsewhere');
      expect(await tax.inputValue()).toBe('6');

      await tax.fill('7');
      await save.click();
      await expect.poll(async () => (await stored()).tax_rate_percent).toBe('7.00');
      expect((await stored()).payment_instructions).toBe('Changed elsewhere');
    } finally {
      await env.db.updateTable('store_settings').set(before).execute();
    }
  });

  it('looks right at 1280 and 375 px', async () => {
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.mobile]) {
      const page = await adminPage('/admin/settings', viewport);
      await expect.poll(() => page.getByLabel('Front template URL').inputValue()).not.toBe('');
      await noOverflowAndAccessible(page);
      await saveScreenshot(page, `admin-settings-${viewport.width}`);
    }
  });
});
