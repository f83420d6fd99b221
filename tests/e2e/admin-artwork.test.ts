import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARTWORK_CHANGED_ELSEWHERE, ARTWORK_DELETE_CONFIRM, ARTWORK_PAGE_SIZE } from '../../src/shared/schemas/admin-artwork';
import { seriousA11yViolations } from '../support/a11y';
import { expectFitsPhone, saveScreenshot, signInInBrowser, VIEWPORTS, waitForImages, sharedBrowserApp, openPage } from '../support/browser';
import { changeElsewhere, CHANGED_ELSEWHERE } from '../support/db';
import { createAdmin, type TestUser } from '../support/factories';

// The Artwork Library in the browser: empty state, upload of a real PNG with tags (popular and
// custom), search, tag filter, edit, delete after the confirmation, paging through a library of
// more than one page with search, tag and page in the address; axe and screenshots.

const env = sharedBrowserApp();
let admin: TestUser;
let pngFile: string;

beforeAll(async () => {
  admin = await createAdmin(env.db);
  await env.db.deleteFrom('artwork_library').execute();
  pngFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'artwork-')), 'eagle.png');
  await sharp({ create: { width: 400, height: 300, channels: 4, background: '#c2410c' } })
    .png()
    .toFile(pngFile);
});
const adminPage = (viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> =>
  signInInBrowser(env, { email: admin.email, viewport });

const artworkRows = () => env.db.selectFrom('artwork_library').selectAll().orderBy('created_at').execute();
const cardNames = (page: Page) => page.getByTestId('artwork-card').locator('h2').allTextContents();

describe('artwork library', () => {
  it('shows the empty state, uploads a real PNG with tags and lists it', async () => {
    const page = await adminPage();
    await openPage(page, '/admin/artwork', 'Artwork Library');
    expect(await page.getByText('Manage artwork for mockups and products').isVisible()).toBe(true);
    await page.getByText('No artwork uploaded yet').waitFor();
    expect(await page.getByText('Upload your first artwork to get started').isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-artwork-empty-1280');

    // The empty state's own button opens the modal.
    await page.getByRole('main').getByRole('button', { name: 'Upload Artwork', exact: true }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Upload Artwork' });
    await dialog.waitFor();
    const submit = dialog.getByRole('button', { name: 'Upload Artwork', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('  Eagle Crest ');
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel('Description (optional)').fill('Spread wings over a V-twin');
    await dialog.getByTestId('artwork-image-input').setInputFiles(pngFile);
    await dialog.getByRole('img', { name: 'Artwork Image * preview' }).waitFor();
    // Custom tags: Enter and Add; trimmed, lowercased, duplicates ignored; removable.
    const tagInput = dialog.getByLabel('Tags', { exact: true });
    await tagInput.fill('  Eagles ');
    await tagInput.press('Enter');
    await tagInput.fill('EAGLES');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await tagInput.fill('Moto');
    await tagInput.press('Enter');
    await tagInput.fill('oops');
    await tagInput.press('Enter');
    await dialog.getByRole('button', { name: 'Remove tag oops' }).click();
    expect(await dialog.getByRole('list', { name: 'Chosen tags' }).locator('li').allTextContents()).toEqual(['eagles', 'moto']);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-artwork-upload-1280');
    expect(await submit.isDisabled()).toBe(false);
    await submit.click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByTestId('artwork-card').first().waitFor();
    expect(await cardNames(page)).toEqual(['Eagle Crest']);
    const [row] = await artworkRows();
    expect(row).toMatchObject({
      name: 'Eagle Crest',
      description: 'Spread wings over a V-twin',
      tags: ['eagles', 'moto'],
      created_by: admin.id,
    });
    expect(row!.artwork_url).toMatch(/^\/storage\/product-art\/.+\.png$/);
    // The stored file is the real PNG that was chosen.
    const served = await page.request.get(row!.artwork_url);
    expect(served.headers()['content-type']).toBe('image/png');
    expect((await sharp(await served.body()).metadata()).width).toBe(400);
  });

  it('offers popular tags, searches, filters by tag and shows "No artwork found"', async () => {
    const page = await adminPage();
    await page.goto('/admin/artwork');
    await page.getByTestId('artwork-card').first().waitFor();
    // A second artwork made with a popular tag and no description or custom tags.
    await page.getByRole('button', { name: 'Upload Artwork', exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Upload Artwork' });
    await dialog.getByLabel('Name').fill('Hot Rod Flames');
    await dialog.getByTestId('artwork-image-input').setInputFiles(pngFile);
    await dialog.getByRole('img', { name: 'Artwork Image * preview' }).waitFor();
    await dialog.getByRole('button', { name: 'Add tag moto' }).click();
    await dialog.getByRole('button', { name: 'Upload Artwork', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('artwork-card').nth(1).waitFor();
    expect(await cardNames(page)).toEqual(['Hot Rod Flames', 'Eagle Crest']);
    expect((await artworkRows())[1]).toMatchObject({ name: 'Hot Rod Flames', description: null, tags: ['moto'] });

    const tagSelect = page.getByLabel('Filter by tag');
    expect(await tagSelect.locator('option').allTextContents()).toEqual(['All Tags', 'eagles', 'moto']);

    const search = page.getByPlaceholder('Search by name or description...');
    await search.fill('V-TWIN');
    await expect.poll(() => cardNames(page)).toEqual(['Eagle Crest']);
    await search.fill('');
    await expect.poll(() => cardNames(page)).toEqual(['Hot Rod Flames', 'Eagle Crest']);
    await tagSelect.selectOption('eagles');
    await expect.poll(() => cardNames(page)).toEqual(['Eagle Crest']);
    await search.fill('flames');
    await page.getByText('No artwork found').waitFor();
    expect(await page.getByText('Try adjusting your search or filters').isVisible()).toBe(true);
    await tagSelect.selectOption('');
    await expect.poll(() => cardNames(page)).toEqual(['Hot Rod Flames']);
  });

  it('edits an artwork, then deletes it after the confirmation', async () => {
    const page = await adminPage();
    await page.goto('/admin/artwork');
    await page.getByRole('button', { name: 'Edit Eagle Crest' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Artwork' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Eagle Crest');

    // Another admin changes the artwork while this form is open: the save is refused, and the
    // artwork opened again shows their change.
    await changeElsewhere(env.db, 'artwork_library', { column: 'name', value: 'Eagle Crest' });
    await dialog.getByLabel('Name').fill('Eagle Crest II');
    await dialog.getByRole('button', { name: 'Update Artwork' }).click();
    const refused = page.getByTestId('toast-error').filter({ hasText: ARTWORK_CHANGED_ELSEWHERE });
    await refused.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit Eagle Crest' }).click();
    await expect.poll(() => dialog.getByLabel('Description (optional)').inputValue()).toBe(CHANGED_ELSEWHERE);

    await dialog.getByLabel('Name').fill('Eagle Crest II');
    await dialog.getByLabel('Description (optional)').fill('   ');
    await dialog.getByRole('button', { name: 'Remove tag moto' }).click();
    await dialog.getByRole('button', { name: 'Update Artwork' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Eagle Crest II' }).waitFor();
    const edited = (await artworkRows())[0]!;
    expect(edited).toMatchObject({ name: 'Eagle Crest II', description: null, tags: ['eagles'], created_by: admin.id });

    // Cancelling the confirmation keeps it; confirming deletes it.
    await page.getByRole('button', { name: 'Delete Eagle Crest II' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete artwork?' });
    expect(await confirm.getByText(ARTWORK_DELETE_CONFIRM).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await artworkRows()).toHaveLength(2);
    await page.getByRole('button', { name: 'Delete Eagle Crest II' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => cardNames(page)).toEqual(['Hot Rod Flames']);
    expect((await artworkRows()).map((row) => row.name)).toEqual(['Hot Rod Flames']);
    await waitForImages(page);
    await saveScreenshot(page, 'admin-artwork-list-1280');
  });

  it('works at 375 px', async () => {
    const page = await adminPage(VIEWPORTS.mobile);
    await page.goto('/admin/artwork');
    await page.getByTestId('artwork-card').first().waitFor();
    await waitForImages(page);
    await expectFitsPhone(page, 'admin-artwork-list-375');
    await page.getByRole('button', { name: 'Edit Hot Rod Flames' }).click();
    await page.getByRole('dialog', { name: 'Edit Artwork' }).waitFor();
    await saveScreenshot(page, 'admin-artwork-edit-375');
  });

  it('pages a library of more than one page, with tags of the whole library and the view in the address', async () => {
    // Older than the one left by the tests before: "Bulk 00" newest of them.
    const [kept] = await artworkRows();
    const extra = ARTWORK_PAGE_SIZE + 3;
    await env.db
      .insertInto('artwork_library')
      .values(
        Array.from({ length: extra }, (_, n) => ({
          name: `Bulk ${String(n).padStart(2, '0')}`,
          description: n === extra - 1 ? 'The very last one' : null,
          artwork_url: kept!.artwork_url,
          tags: ['bulk', `b${n % 3}`],
          created_at: new Date(Date.UTC(2020, 0, 1) - n * 60_000),
        })),
      )
      .execute();
    const total = extra + 1;
    const names = Array.from({ length: extra }, (_, n) => `Bulk ${String(n).padStart(2, '0')}`);

    const page = await adminPage();
    await page.goto('/admin/artwork');
    await page.getByTestId('artwork-card').first().waitFor();
    expect(await page.getByTestId('artwork-card').count()).toBe(ARTWORK_PAGE_SIZE);
    expect(await cardNames(page)).toEqual(['Hot Rod Flames', ...names.slice(0, ARTWORK_PAGE_SIZE - 1)]);
    expect(await page.getByTestId('pagination-summary').textContent()).toBe(`Showing 1–${ARTWORK_PAGE_SIZE} of ${total} artwork`);
    // The dropdown lists the tags of every artwork, not only those on this page.
    expect(await page.getByLabel('Filter by tag').locator('option').allTextContents()).toEqual([
      'All Tags',
      'b0',
      'b1',
      'b2',
      'bulk',
      'moto',
    ]);

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await expect.poll(() => cardNames(page)).toEqual(names.slice(ARTWORK_PAGE_SIZE - 1));
    expect(await page.getByTestId('pagination-summary').textContent()).toBe(
      `Showing ${ARTWORK_PAGE_SIZE + 1}–${total} of ${total} artwork`,
    );
    await waitForImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-artwork-page2-1280');
    // The page survives a reload.
    await page.reload();
    await expect.poll(() => cardNames(page)).toEqual(names.slice(ARTWORK_PAGE_SIZE - 1));

    // A tag filter starts again on its first page, found over the whole library.
    await page.getByLabel('Filter by tag').selectOption('b2');
    await page.waitForURL((url) => url.searchParams.get('tag') === 'b2' && !url.searchParams.has('page'));
    await expect.poll(() => cardNames(page)).toEqual(names.filter((_, n) => n % 3 === 2));
    await page.getByLabel('Filter by tag').selectOption('');
    // The search reaches the last page's artwork from the first page.
    await page.getByPlaceholder('Search by name or description...').fill('very LAST');
    await page.waitForURL((url) => url.searchParams.get('search') === 'very LAST');
    await expect.poll(() => cardNames(page)).toEqual([names.at(-1)]);
    expect(await page.getByTestId('pagination-summary').textContent()).toBe('Showing 1–1 of 1 artwork');
    expect(env.pageErrors(page)).toEqual([]);

    const phone = await adminPage(VIEWPORTS.mobile);
    await phone.goto('/admin/artwork?page=2');
    await expect.poll(() => cardNames(phone)).toEqual(names.slice(ARTWORK_PAGE_SIZE - 1));
    await waitForImages(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await saveScreenshot(phone, 'admin-artwork-page2-375');
  });
});
