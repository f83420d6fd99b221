import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { sql, type ExpressionBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../../src/server/db/count';
import type { DB } from '../../src/server/db/schema';
import { formatMoney } from '../../src/shared/money';
import { ARTWORK_REQUIRED, DUPLICATE_SKU, PRODUCT_CHANGED_ELSEWHERE, PRODUCT_SAVE_FAILED } from '../../src/shared/schemas/admin-products';
import { MAX_UPLOAD_BYTES } from '../../src/shared/constants';
import { FILE_TOO_LARGE, NOT_AN_IMAGE } from '../../src/shared/schemas/admin-uploads';
import { PRODUCT_IMPORT_PATH } from '../../src/shared/schemas/admin-products-import';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, signInInBrowser, VIEWPORTS, waitForImages, sharedBrowserApp } from '../support/browser';
import { createAdmin, createCategory, createCustomer, type TestUser } from '../support/factories';

// The admin layout, dashboard and products screens in Chromium against the built app and the
// seeded demo store: the guard, the numbers, search and filter, the form with a real upload, and
// edit, toggle and delete.

const SIDEBAR = [
  'Dashboard',
  'Analytics',
  'Products',
  'Categories',
  'Subscriptions',
  'Subscribers',
  'Orders',
  'Discounts',
  'Mockups',
  'Artwork',
  'Customers',
  'Contact',
  'Email Logs',
  'Settings',
];

const env = sharedBrowserApp();
let adminUser: TestUser;
let customerUser: TestUser;
let tmpDir: string;
let realPng: string;

beforeAll(async () => {
  adminUser = await createAdmin(env.db);
  customerUser = await createCustomer(env.db);
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-e2e-art-'));
  realPng = path.join(tmpDir, 'open-road-art.png');
  // A few megabytes of noise, so the upload takes long enough for its progress bar to show.
  await sharp({
    create: { width: 1200, height: 1200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
  })
    .png({ compressionLevel: 0 })
    .toFile(realPng);
});

afterAll(() => {
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

// Playwright's own 30 s for each step, as these tests always had (a real multi-megabyte upload).
const signedInPage = (user: TestUser, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> =>
  signInInBrowser(env, { email: user.email, viewport, timeout: 30_000 });

const pathOf = (page: Page) => new URL(page.url()).pathname;
/** The sidebar's link texts without the Contact item's count badge. */
const sidebarLabels = async (page: Page) =>
  (await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').allTextContents()).map((text) =>
    text.replace(/\d+\+?, \d+ new$/, ''),
  );
const main = (page: Page) => page.locator('#main-content');

async function expectNoA11yViolations(page: Page) {
  expect(await seriousA11yViolations(page)).toEqual([]);
}

describe('admin layout', () => {
  it('sends signed-out visitors and customers from admin pages to / (signed-out visitors of email logs to /login)', async () => {
    const anonymous = await env.newPage();
    await anonymous.goto('/admin');
    await anonymous.waitForURL((url) => url.pathname === '/');
    await anonymous.goto('/admin/products/new');
    await anonymous.waitForURL((url) => url.pathname === '/');
    expect(await anonymous.getByTestId('admin-layout').count()).toBe(0);
    // docs/PRODUCT.md § Roles: the email logs screen sends a signed-out visitor to sign in instead, and back after.
    await anonymous.goto('/admin/email-logs');
    await anonymous.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/admin/email-logs');
    // In any letter case, as the router matches it.
    await anonymous.goto('/Admin/Email-Logs');
    await anonymous.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/Admin/Email-Logs');

    const customer = await signedInPage(customerUser);
    await customer.goto('/admin/products');
    await customer.waitForURL((url) => url.pathname === '/');
    expect(await customer.getByTestId('admin-layout').count()).toBe(0);
    await customer.goto('/admin/email-logs');
    await customer.waitForURL((url) => url.pathname === '/');
  });

  it('shows every admin screen in the sidebar, the current one highlighted, Back to Store and Sign Out', async () => {
    const page = await signedInPage(adminUser);
    await page.goto('/admin/products');
    const nav = page.getByRole('navigation', { name: 'Admin' });
    await nav.waitFor();
    expect(await sidebarLabels(page)).toEqual(SIDEBAR);
    // Contact carries the number of new submissions.
    const fresh = await countRows(env.db.selectFrom('contact_submissions').where('status', '=', 'new'));
    expect(fresh).toBeGreaterThan(0);
    await expect.poll(() => nav.getByRole('link', { name: 'Contact' }).textContent()).toBe(`Contact${fresh}, ${fresh} new`);
    expect(await nav.getByRole('link', { name: 'Products' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBeNull();
    expect(await page.getByRole('link', { name: 'Back to Store' }).getAttribute('href')).toBe('/');
    // A back office, not a shop page: no shoppers' footer.
    expect(await page.getByRole('contentinfo').count()).toBe(0);

    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await expect.poll(() => nav.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');

    await page.getByTestId('admin-layout').getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByRole('contentinfo').count()).toBe(1);
    await expect.poll(() => page.getByTestId('account-link').getAttribute('href')).toBe('/login');
    await page.goto('/admin');
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('folds the sidebar into a menu on a phone', async () => {
    const page = await signedInPage(adminUser, VIEWPORTS.mobile);
    await page.goto('/admin');
    const toggle = page.getByRole('button', { name: 'Admin menu' });
    await toggle.waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin' }).count()).toBe(0);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    const nav = page.getByRole('navigation', { name: 'Admin' });
    expect(await sidebarLabels(page)).toEqual(SIDEBAR);
    await saveScreenshot(page, 'admin-menu-375');
    await nav.getByRole('link', { name: 'Products' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/products');
    // Navigating closes the menu.
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('admin dashboard', () => {
  it('shows the totals of the database, the quick actions and the 5 newest contact submissions', async () => {
    const totals = await sql<{ products: number; orders: number; customers: number; revenue: string }>`
      select (select count(*) from products)::int as products, (select count(*) from orders)::int as orders,
             (select count(*) from customers)::int as customers, (select coalesce(sum(total), 0)::text from orders where payment_status = 'paid') as revenue`
      .execute(env.db)
      .then((r) => r.rows[0]!);
    expect(totals.orders).toBeGreaterThan(0);
    const recent = await env.db.selectFrom('contact_submissions').select('name').orderBy('created_at', 'desc').limit(5).execute();

    for (const [viewport, suffix] of [
      [VIEWPORTS.desktop, '1280'],
      [VIEWPORTS.mobile, '375'],
    ] as const) {
      const page = await signedInPage(adminUser, viewport);
      await page.goto('/admin');
      await main(page).getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await expect.poll(() => page.getByTestId('stat-products').textContent()).toBe(String(totals.products));
      expect(await page.getByTestId('stat-orders').textContent()).toBe(String(totals.orders));
      expect(await page.getByTestId('stat-customers').textContent()).toBe(String(totals.customers));
      expect(await page.getByTestId('stat-revenue').textContent()).toBe(formatMoney(totals.revenue));

      const quick = main(page).getByRole('region', { name: 'Quick Actions' });
      expect(await quick.getByRole('link').allTextContents()).toEqual(['Manage Products', 'Manage Categories', 'View Orders']);
      expect(await quick.getByRole('link', { name: 'View Orders' }).getAttribute('href')).toBe('/admin/orders');
      const contacts = page.getByTestId('recent-contacts').getByRole('listitem');
      expect(await contacts.count()).toBe(5);
      for (const [index, row] of recent.entries()) expect(await contacts.nth(index).textContent()).toContain(row.name);
      expect(await main(page).getByRole('link', { name: 'View all' }).getAttribute('href')).toBe('/admin/contact');

      await saveScreenshot(page, `admin-dashboard-${suffix}`);
      await expectNoA11yViolations(page);
      expect(env.pageErrors(page)).toEqual([]);
    }
  });
});

describe('admin products', () => {
  it('lists products newest first, paged, searchable and filterable through the URL', async () => {
    // More than one page of products: the demo store plus a batch of plain tees.
    const category = await env.db.selectFrom('categories').select(['id', 'name']).where('slug', '=', 'car').executeTakeFirstOrThrow();
    await env.db
      .insertInto('products')
      .values(
        Array.from({ length: 12 }, (_, i) => ({
          sku_number: `TL-EXTRA-${i}`,
          slug: `extra-tee-${i}`,
          name: `Extra Tee ${i}`,
          description: i % 3 === 0 ? 'Made for the open road' : 'A plain tee',
          price: '19.00',
          front_art_url: '/storage/product-art/extra.png',
          category_id: category.id,
          created_at: new Date(Date.now() - (i + 1) * 86_400_000 * 400),
        })),
      )
      .execute();
    const total = await countRows(env.db.selectFrom('products'));
    expect(total).toBeGreaterThan(25);
    const newest = await env.db
      .selectFrom('products')
      .select('name')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(25)
      .execute();

    const page = await signedInPage(adminUser);
    await page.goto('/admin/products');
    const rows = page.getByTestId('product-row');
    await expect.poll(() => rows.count()).toBe(25);
    expect(await page.getByTestId('pagination-summary').textContent()).toBe(`Showing 1–25 of ${total} products`);
    expect(await rows.first().textContent()).toContain(newest[0]!.name);
    expect(await page.getByRole('columnheader').allTextContents()).toEqual([
      'Select',
      'SKU',
      'Product',
      'Category',
      'Price',
      'Status',
      'Actions',
    ]);
    await waitForImages(page);
    await saveScreenshot(page, 'admin-products-1280');
    await expectNoA11yViolations(page);

    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
    await expect.poll(() => rows.count()).toBe(total - 25);

    // Search: case-insensitive, in name or description, or a word of a tag ("open road"), back to page 1.
    const term = 'ROAD';
    const nameDescriptionOrTag = (eb: ExpressionBuilder<DB, 'products'>) =>
      eb.or([
        eb('name', 'ilike', `%${term}%`),
        eb('description', 'ilike', `%${term}%`),
        sql<boolean>`exists (select from unnest(products.tags) tag where tag ~* ${`\\m${term}`})`,
      ]);
    const matches = await env.db.selectFrom('products').select('name').where(nameDescriptionOrTag).execute();
    expect(matches.length).toBeGreaterThan(0);
    await page.getByPlaceholder('Search by name or description...').fill(term);
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(term);
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();
    // Wait for the names, not the count: page 2 can hold as many rows as the search finds.
    const rowNames = async () => (await rows.locator('td:nth-child(3) a').allTextContents()).sort();
    await expect.poll(rowNames).toEqual(matches.map((m) => m.name).sort());

    // Category filter, combined with the search, survives a reload.
    const inCategory = await env.db
      .selectFrom('products')
      .select('name')
      .where('category_id', '=', category.id)
      .where(nameDescriptionOrTag)
      .execute();
    expect(inCategory.length).toBeGreaterThan(0);
    await page.getByLabel('Category').selectOption({ label: category.name });
    await expect.poll(() => new URL(page.url()).searchParams.get('categoryId')).toBe(category.id);
    await page.reload();
    await expect.poll(() => page.getByPlaceholder('Search by name or description...').inputValue()).toBe(term);
    expect(await page.getByLabel('Category').inputValue()).toBe(category.id);
    await expect.poll(() => rows.count()).toBe(inCategory.length);
    for (const text of await rows.allTextContents()) expect(text).toContain(category.name);

    const phone = await signedInPage(adminUser, VIEWPORTS.mobile);
    await phone.goto('/admin/products');
    await expect.poll(() => phone.getByTestId('product-card').count()).toBe(25);
    await waitForImages(phone);
    await saveScreenshot(phone, 'admin-products-375');
    await expectNoA11yViolations(phone);
  });

  it('creates a product with an uploaded PNG, after the spec messages for missing artwork, a fake PNG and a duplicate SKU', async () => {
    const category = await env.db
      .selectFrom('categories')
      .select(['id', 'name'])
      .where('slug', '=', 'motorcycle')
      .executeTakeFirstOrThrow();
    const takenSku = (await env.db.selectFrom('products').select('sku_number').executeTakeFirstOrThrow()).sku_number;
    const before = await countRows(env.db.selectFrom('products'));

    const page = await signedInPage(adminUser);
    await page.goto('/admin/products');
    await main(page).getByRole('link', { name: 'Add Product' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/products/new');
    const form = page.getByRole('form', { name: 'New product' });
    await form.waitFor();

    // Defaults of a new product (docs/PRODUCT.md § Validation and Limits).
    const sizes = form.getByRole('group', { name: 'Available sizes' });
    for (const size of ['S', 'M', 'L', 'XL', '2XL', '3XL', '4XL'])
      expect(await sizes.getByLabel(size, { exact: true }).isChecked()).toBe(true);
    expect(await sizes.getByLabel('XS', { exact: true }).isChecked()).toBe(false);
    expect(await form.getByLabel('Full chest').isChecked()).toBe(true);
    expect(await form.getByLabel('Front', { exact: true }).isChecked()).toBe(true);
    expect(await form.getByLabel('Active').isChecked()).toBe(true);

    // The slug follows the name until it is edited by hand.
    await form.getByLabel('Name', { exact: true }).fill('Open Road  Sunset!');
    expect(await form.getByLabel('Slug').inputValue()).toBe('open-road-sunset');
    await form.getByLabel('SKU').fill(takenSku);
    await form.getByLabel('Price (USD)').fill('27.5');
    await form.getByLabel('Category').selectOption(category.id);
    await form.getByLabel('Description').fill('Two lanes, one sunset, no hurry.');
    await form.getByLabel('Add a tag').fill('  sunset ');
    await form.getByLabel('Add a tag').press('Enter');
    await form.getByLabel('Add a tag').fill('sunset, open road');
    await form.getByRole('button', { name: 'Add' }).click();
    expect(await form.getByTestId('tag-list').getByRole('listitem').allTextContents()).toEqual(['sunset', 'open road']);

    // Neither artwork: the spec's message, and nothing reaches the database.
    await form.getByRole('button', { name: 'Create Product' }).click();
    await expect.poll(() => form.getByTestId('artwork-error').textContent()).toBe(ARTWORK_REQUIRED);
    await saveScreenshot(page, 'admin-product-new-errors-1280');

    // A text file renamed .png passes the browser's check of the declared type, then the server reads its bytes.
    const artDir = path.join(env.config.dataDir, 'storage', 'product-art');
    const storedArt = () => (fs.existsSync(artDir) ? fs.readdirSync(artDir).sort() : []);
    const artBefore = storedArt();
    const frontUpload = form.getByTestId('front-art-upload');
    await frontUpload
      .getByLabel('Upload front artwork')
      .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('just some text, honest') });
    await expect.poll(() => frontUpload.getByTestId('upload-error').textContent()).toBe(NOT_AN_IMAGE);
    // A file the browser already knows is not an image never leaves it.
    await frontUpload
      .getByLabel('Upload front artwork')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') });
    await expect.poll(() => frontUpload.getByTestId('upload-error').textContent()).toBe(NOT_AN_IMAGE);

    // Over 50 MB: refused in the browser before any upload starts (a sparse file, so nothing is really written).
    const huge = path.join(tmpDir, 'huge.png');
    fs.writeFileSync(huge, '');
    fs.truncateSync(huge, MAX_UPLOAD_BYTES + 1);
    await frontUpload.getByLabel('Upload front artwork').setInputFiles(huge);
    await expect.poll(() => frontUpload.getByTestId('upload-error').textContent()).toBe(FILE_TOO_LARGE);
    expect(storedArt()).toEqual(artBefore);

    // The real PNG: its progress bar shows, then the preview.
    await page.evaluate(() => {
      const seen = { progress: false };
      (window as unknown as { uploadSeen: typeof seen }).uploadSeen = seen;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="upload-progress"]')) seen.progress = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await frontUpload.getByLabel('Upload front artwork').setInputFiles(realPng);
    const preview = frontUpload.getByRole('img', { name: 'Front artwork preview' });
    await preview.waitFor();
    expect(await page.evaluate(() => (window as unknown as { uploadSeen: { progress: boolean } }).uploadSeen.progress)).toBe(true);
    const artUrl = (await preview.getAttribute('src'))!;
    expect(artUrl).toMatch(/^\/storage\/product-art\/[0-9a-f-]{36}\.png$/);
    expect(await form.getByLabel('Front artwork URL').inputValue()).toBe(artUrl);
    expect(await frontUpload.getByTestId('upload-error').count()).toBe(0);
    expect(await form.getByTestId('artwork-error').count()).toBe(0);
    const stored = await env.storage.get('product-art', artUrl.split('/').pop()!);
    expect(Buffer.from(stored!).equals(fs.readFileSync(realPng))).toBe(true);

    // A duplicate SKU: the spec's text plus the reason, on the field too.
    await form.getByRole('button', { name: 'Create Product' }).click();
    const saveError = page.getByTestId('save-error');
    await expect.poll(() => saveError.textContent()).toBe(`${PRODUCT_SAVE_FAILED}${DUPLICATE_SKU}`);
    expect(await form.getByLabel('SKU').getAttribute('aria-invalid')).toBe('true');
    expect(await countRows(env.db.selectFrom('products'))).toBe(before);
    await expectNoA11yViolations(page);

    await form.getByLabel('SKU').fill('TL-MC-999');
    await form.getByRole('button', { name: 'Create Product' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/products');
    await page.getByTestId('toast-success').filter({ hasText: 'Product created' }).waitFor();
    const row = await env.db.selectFrom('products').selectAll().where('sku_number', '=', 'TL-MC-999').executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: 'Open Road  Sunset!',
      slug: 'open-road-sunset',
      price: '27.50',
      category_id: category.id,
      front_art_url: artUrl,
      back_art_url: null,
      tags: ['sunset', 'open road'],
      available_sizes: ['S', 'M', 'L', 'XL', '2XL', '3XL', '4XL'],
      chest_position: 'full_chest',
      default_mockup_side: 'front',
      is_active: true,
    });
    // Newest first: it heads the list.
    await expect.poll(() => page.getByTestId('product-row').first().textContent()).toContain('Open Road  Sunset!');
  });

  it('edits a product from a row click, toggles it and deletes it after confirmation', async () => {
    const target = await env.db
      .selectFrom('products')
      .select(['id', 'name', 'slug'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const page = await signedInPage(adminUser);
    await page.goto('/admin/products');
    const row = page.getByTestId('product-row').filter({ hasText: target.name }).first();
    await row.locator('td').nth(1).click(); // the SKU: the first cell holds the row's checkbox
    await page.waitForURL((url) => url.pathname === `/admin/products/${target.id}/edit`);
    const form = page.getByRole('form', { name: `Edit ${target.name}` });
    await form.waitFor();
    expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe(target.name);
    await waitForImages(page);
    await saveScreenshot(page, 'admin-product-edit-1280');
    await expectNoA11yViolations(page);

    await form.getByLabel('Price (USD)').fill('31.25');
    // The size boxes are visually hidden inside their pill-shaped labels, which take the click.
    await form.getByRole('group', { name: 'Available sizes' }).locator('label', { hasText: /^XS$/ }).click();
    await form.getByLabel('Left chest').check();
    await form.getByLabel('Featured').check();
    await form.getByRole('button', { name: 'Save Product' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/products');
    const saved = await env.db.selectFrom('products').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ price: '31.25', chest_position: 'left_chest', is_featured: true, slug: target.slug });
    expect(saved.available_sizes[0]).toBe('XS');

    // A form left open while the product changed elsewhere (its mockups saved in another tab) is
    // refused with the reason, and the change made elsewhere stays.
    await page.goto(`/admin/products/${target.id}/edit`);
    await form.waitFor();
    await env.db
      .updateTable('products')
      .set({ back_mockup_url: '/storage/mockups/elsewhere.png', updated_at: new Date() })
      .where('id', '=', target.id)
      .execute();
    await form.getByLabel('Price (USD)').fill('32.00');
    await form.getByRole('button', { name: 'Save Product' }).click();
    await expect.poll(() => page.getByTestId('save-error').textContent()).toBe(`${PRODUCT_SAVE_FAILED}${PRODUCT_CHANGED_ELSEWHERE}`);
    expect(
      await env.db.selectFrom('products').select(['price', 'back_mockup_url']).where('id', '=', target.id).executeTakeFirstOrThrow(),
    ).toEqual({
      price: '31.25',
      back_mockup_url: '/storage/mockups/elsewhere.png',
    });
    await page.goto('/admin/products');

    // Deactivate, then activate again.
    const listRow = page.getByTestId('product-row').filter({ hasText: target.name }).first();
    await listRow.getByRole('button', { name: `Deactivate ${target.name}` }).click();
    await expect.poll(() => listRow.textContent()).toContain('Inactive');
    expect((await env.db.selectFrom('products').select('is_active').where('id', '=', target.id).executeTakeFirstOrThrow()).is_active).toBe(
      false,
    );
    expect(pathOf(page)).toBe('/admin/products');
    await listRow.getByRole('button', { name: `Activate ${target.name}` }).click();
    await expect.poll(() => listRow.textContent()).toContain('Active');
    expect((await env.db.selectFrom('products').select('is_active').where('id', '=', target.id).executeTakeFirstOrThrow()).is_active).toBe(
      true,
    );

    // Delete: Escape cancels, confirming deletes.
    await listRow.getByRole('button', { name: `Delete ${target.name}` }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete product?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(target.name);
    await saveScreenshot(page, 'admin-product-delete-1280');
    await expectNoA11yViolations(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await env.db.selectFrom('products').select('id').where('id', '=', target.id).executeTakeFirst()).toBeDefined();

    await listRow.getByRole('button', { name: `Delete ${target.name}` }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('toast-success').filter({ hasText: 'Product deleted' }).waitFor();
    expect(await env.db.selectFrom('products').select('id').where('id', '=', target.id).executeTakeFirst()).toBeUndefined();
    await expect.poll(() => page.getByTestId('product-row').filter({ hasText: target.name }).count()).toBe(0);
    // The refused save above is the browser's only complaint.
    expect(env.pageErrors(page).filter((error) => !/status of 409 .*\/trpc\/admin\.products\.update/.test(error))).toEqual([]);

    // A failure the server did not answer (the network, here) gets the general message, not the browser's.
    await page.route(
      (url) => url.pathname.includes('admin.products.setActive'),
      (route) => route.abort(),
    );
    await page
      .getByTestId('product-row')
      .first()
      .getByRole('button', { name: /^(Deactivate|Activate) / })
      .click();
    await page.getByTestId('toast-error').filter({ hasText: 'An unexpected error occurred' }).waitFor();
  });

  it('applies a bulk price change to chosen rows and a tag to every product', async () => {
    const page = await signedInPage(adminUser);
    await page.goto('/admin/products');
    const rows = page.getByTestId('product-row');
    await rows.first().waitFor();
    const names = (await rows.locator('td:nth-child(3) a').allTextContents()).slice(0, 2);
    const priceOf = (name: string) => env.db.selectFrom('products').select('price').where('name', '=', name).executeTakeFirstOrThrow();
    const before = await Promise.all(names.map(priceOf));
    for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    const bar = page.getByRole('form', { name: 'Bulk actions' });
    expect(await bar.getByRole('status').textContent()).toBe('2 products selected');
    await bar.getByLabel('Action').selectOption('change_price');
    await bar.getByLabel('Price change').selectOption('raise_percent');
    await bar.getByLabel('Amount').fill('10');
    await bar.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('toast-success').filter({ hasText: '2 products updated' }).waitFor();
    const after = await Promise.all(names.map(priceOf));
    expect(after.map((row) => row.price)).toEqual(before.map((row) => (Math.round(Number(row.price) * 110) / 100).toFixed(2)));
    expect(await page.getByRole('checkbox', { name: `Select ${names[0]}` }).isChecked()).toBe(false);

    // Every product: the page's checkbox, then all matching when there is more than a page.
    await page.getByRole('checkbox', { name: 'Select all products on this page' }).check();
    const all = page.getByRole('button', { name: /^Select all \d+ matching$/ });
    if (await all.isVisible()) await all.click();
    await saveScreenshot(page, 'admin-products-bulk');
    await bar.getByLabel('Action').selectOption('add_tag');
    await bar.getByRole('textbox', { name: 'Tag' }).fill('bulk-tagged');
    await bar.getByRole('button', { name: 'Apply' }).click();
    const total = await countRows(env.db.selectFrom('products'));
    await page
      .getByTestId('toast-success')
      .filter({ hasText: `${total} products updated` })
      .waitFor();
    expect(await countRows(env.db.selectFrom('products').where(sql<boolean>`'bulk-tagged' = any(tags)`))).toBe(total);
    await env.db
      .updateTable('products')
      .set({ tags: sql`array_remove(tags, 'bulk-tagged')` })
      .execute();
  });

  it('shows the product form on a phone', async () => {
    const page = await signedInPage(adminUser, VIEWPORTS.mobile);
    await page.goto('/admin/products/new');
    await page.getByRole('form', { name: 'New product' }).waitFor();
    await saveScreenshot(page, 'admin-product-new-375');
    await expectNoA11yViolations(page);
  });
});

describe('admin product import', () => {
  it('previews a file with its errors, imports with a progress bar, and lists the new product', async () => {
    const category = await createCategory(env.db, { name: 'Imported Designs', slug: 'imported-designs' });
    const csv = [
      'Handle,Title,Body (HTML),Category,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant Price,Front Art',
      `desert-mirage-tee,Desert Mirage Tee,Heat haze over the highway,${category.slug},Size,M,Colour,Sand,23.00,/storage/product-art/mirage.png`,
      `desert-mirage-tee,,,,,L,,Sand,23.00,`,
      `comma-tee,Comma Tee,Priced the European way,${category.slug},Size,M,Colour,White,"12,5",/storage/product-art/comma.png`,
    ].join('\n');
    const page = await signedInPage(adminUser);
    await page.goto('/admin/products');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import CSV' });
    await dialog.getByLabel('CSV file').setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByText('1 product to create, 0 to update, 1 row with errors').waitFor();
    expect(await dialog.getByRole('list', { name: 'Rows with errors' }).getByRole('listitem').allTextContents()).toEqual([
      'Row 4, Variant Price: "12,5" is not a price',
    ]);
    // The preview stored nothing.
    expect(await countRows(env.db.selectFrom('products').where('slug', '=', 'desert-mirage-tee'))).toBe(0);
    await saveScreenshot(page, 'admin-products-import-preview-1280');
    await expectNoA11yViolations(page);

    // The import's answer held back a moment, so its progress bar can be seen.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === PRODUCT_IMPORT_PATH,
      async (route) => {
        await released;
        await route.continue().catch(() => undefined);
      },
    );
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByRole('progressbar', { name: 'Importing...' }).waitFor();
    await saveScreenshot(page, 'admin-products-import-progress-1280');
    release();
    await dialog.getByText('Imported: 1 product created, 0 updated, 0 unchanged').waitFor();
    expect(await dialog.getByRole('listitem').allTextContents()).toEqual(['Row 4, Variant Price: "12,5" is not a price']);
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    await page.getByPlaceholder('Search by name or description...').fill('Desert Mirage');
    await main(page).getByRole('link', { name: 'Desert Mirage Tee', exact: true }).waitFor();
    expect(await countRows(env.db.selectFrom('products').where('slug', '=', 'comma-tee'))).toBe(0);

    const phone = await signedInPage(adminUser, VIEWPORTS.mobile);
    await phone.goto('/admin/products');
    await phone.getByRole('button', { name: 'Import CSV' }).click();
    await phone
      .getByRole('dialog', { name: 'Import CSV' })
      .getByLabel('CSV file')
      .setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await phone.getByText('0 products to create, 0 to update, 1 row with errors').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.mobile.width);
    await saveScreenshot(phone, 'admin-products-import-preview-375');
  });
});
