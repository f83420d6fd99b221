import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseStorageUrl } from '../../src/server/storage/storage';
import { artBox, effectiveDpi, previewScale, type Size } from '../../src/shared/placement';
import { FRONT_MOCKUP_REQUIRED, MOCKUP_SAVED, MOCKUP_SAVE_FAILED } from '../../src/shared/schemas/admin-mockups';
import { seriousA11yViolations } from '../support/a11y';
import { saveScreenshot, signInInBrowser, VIEWPORTS, waitForImages, sharedBrowserApp, openPage } from '../support/browser';
import { createAdmin } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';

// The mockup generator end to end on a seeded product: position each side (size, rotation,
// arrows, drag, DPI readout and refusal), save front and back, choose back as default, save to
// product; the product's image_url becomes the new back mockup, a real PNG rendered by the server.

const env = sharedBrowserApp();
const admin = sharedBeforeAll(() => createAdmin(env.db));

const adminPage = (viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> =>
  signInInBrowser(env, { email: admin.email, viewport, timeout: 15_000 });

async function expectToast(page: Page, kind: 'success' | 'error', text: string) {
  await page.getByTestId(`toast-${kind}`).filter({ hasText: text }).first().waitFor();
}

async function storedSize(url: string): Promise<Size & { format: string | undefined }> {
  const { bucket, key } = parseStorageUrl(url)!;
  const meta = await sharp(Buffer.from((await env.storage.get(bucket, key))!)).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

const seededProduct = () =>
  env.db
    .selectFrom('products')
    .select(['id', 'name', 'front_art_url', 'back_art_url', 'front_mockup_url', 'back_mockup_url'])
    .where('front_art_url', 'is not', null)
    .where('back_art_url', 'is not', null)
    .orderBy('name')
    .executeTakeFirstOrThrow();

const readout = (page: Page) => page.getByTestId('dpi-readout');

describe('mockup generator', () => {
  it('positions, saves both sides and makes the back mockup the product image', async () => {
    const product = await seededProduct();
    const template = await env.db.selectFrom('mockup_templates').selectAll().where('is_default', '=', true).executeTakeFirstOrThrow();
    const templateSize = await storedSize(template.front_template_url);
    const frontArt = await storedSize(product.front_art_url!);

    const page = await adminPage();
    await openPage(page, '/admin/mockups', 'Mockup Generator');
    await page.getByLabel('Product', { exact: true }).selectOption(product.id);
    // Step 2: the default template is chosen already; step 3 shows the front preview.
    await page.getByRole('radio', { name: new RegExp(template.name) }).waitFor({ state: 'attached' });
    expect(await page.getByRole('radio', { name: new RegExp(template.name) }).isChecked()).toBe(true);
    const preview = page.getByTestId('mockup-preview').first();
    await preview.waitFor();
    await waitForImages(page);

    // The preview is at most 500 px high and the artwork sits where placement.ts puts it.
    const frame = (await preview.boundingBox())!;
    expect(frame.height).toBeLessThanOrEqual(500);
    expect(frame.height).toBeCloseTo(templateSize.height * previewScale(templateSize, 10_000), 0);
    const position = { ...template.front_art_position };
    const expected = artBox({ width: frame.width, height: frame.height }, frontArt, position);
    const art = (await page.getByTestId('mockup-art').first().boundingBox())!;
    expect(art.x - frame.x).toBeCloseTo(expected.left, 0);
    expect(art.y - frame.y).toBeCloseTo(expected.top, 0);
    expect(art.width).toBeCloseTo(expected.width, 0);
    expect(await page.getByTestId('print-area').isVisible()).toBe(true);

    // DPI readout of the default placement, then a size so large the side is refused.
    expect(await readout(page).textContent()).toContain(`${Math.floor(effectiveDpi(templateSize, frontArt, position))} DPI`);
    const saveFront = page.getByRole('button', { name: 'Save front side' });
    for (let i = 0; i < 14; i++) await page.getByRole('button', { name: 'Increase size' }).click();
    expect(await page.locator('output[aria-label="Size"]').textContent()).toBe('100%');
    expect(await readout(page).getAttribute('data-level')).toBe('refuse');
    expect(await readout(page).textContent()).toContain('Below 150 DPI');
    expect(await saveFront.isDisabled()).toBe(true);
    for (let i = 0; i < 14; i++) await page.getByRole('button', { name: 'Decrease size' }).click();
    expect(await page.locator('output[aria-label="Size"]').textContent()).toBe('30%');
    expect(await saveFront.isDisabled()).toBe(false);

    // Rotation wraps: 0 - 5 = 355, and back.
    await page.getByRole('button', { name: 'Rotate left 5 degrees' }).click();
    expect(await page.locator('output[aria-label="Rotation"]').textContent()).toBe('355°');
    await page.getByRole('button', { name: 'Rotate right 5 degrees' }).click();
    expect(await page.locator('output[aria-label="Rotation"]').textContent()).toBe('0°');

    // Arrow buttons, then a drag, then the keyboard.
    await page.getByRole('button', { name: 'Move right' }).click();
    expect(await page.getByLabel('X (%)').inputValue()).toBe(String(position.x + 1));
    const before = (await page.getByTestId('mockup-art').first().boundingBox())!;
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
    await page.mouse.down();
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2 + frame.height * 0.1, { steps: 5 });
    await page.mouse.up();
    expect(Number(await page.getByLabel('Y (%)').inputValue())).toBeCloseTo(position.y + 10, 0);
    await page.getByLabel('Y (%)').fill('35');
    await preview.focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByLabel('X (%)').inputValue()).toBe(String(position.x));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-mockups-editor-1280');

    // Back first: saving to the product without a front is refused with the spec's text.
    await page.getByRole('tab', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Rotate right 5 degrees' }).click();
    await page.getByRole('button', { name: 'Save back side' }).click();
    await page.getByRole('button', { name: 'Save to Product' }).click();
    await expectToast(page, 'error', FRONT_MOCKUP_REQUIRED);

    await page.getByRole('tab', { name: /Front/ }).click();
    await saveFront.click();
    await page.getByRole('radio', { name: 'Back' }).check();
    // The review shows both sides placed as saved.
    await page.getByRole('img', { name: 'Front mockup', exact: true }).waitFor();
    await page.getByRole('img', { name: 'Back mockup', exact: true }).waitFor();
    await waitForImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-mockups-review-1280');

    // A failed save shows the spec's text and changes nothing.
    await page.route(
      '**/trpc/admin.mockups.save**',
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '[]' }),
      { times: 1 },
    );
    await page.getByRole('button', { name: 'Save to Product' }).click();
    await expectToast(page, 'error', MOCKUP_SAVE_FAILED);
    expect((await seededProduct()).back_mockup_url).toBe(product.back_mockup_url);

    await page.getByRole('button', { name: 'Save to Product' }).click();
    await expectToast(page, 'success', MOCKUP_SAVED);
    // The product selection is reset.
    expect(await page.getByLabel('Product', { exact: true }).inputValue()).toBe('');
    expect(await page.getByTestId('mockup-preview').count()).toBe(0);

    const saved = await env.db.selectFrom('products').selectAll().where('id', '=', product.id).executeTakeFirstOrThrow();
    expect(saved.default_mockup_side).toBe('back');
    expect(saved.image_url).toBe(saved.back_mockup_url);
    expect(saved.back_mockup_url).not.toBe(product.back_mockup_url);
    expect(saved.front_mockup_url).not.toBe(product.front_mockup_url);
    // The new mockups are real PNGs at print resolution, served to the browser.
    for (const url of [saved.front_mockup_url!, saved.back_mockup_url!]) {
      const res = await page.request.get(url);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toBe('image/png');
      const meta = await sharp(await res.body()).metadata();
      expect(meta.format).toBe('png');
      expect(meta.width).toBe(3600);
    }
  });

  it('works at 375 px', async () => {
    const product = await seededProduct();
    const page = await adminPage(VIEWPORTS.mobile);
    await page.goto('/admin/mockups');
    // Found by a search: the list offers only the products that match it.
    const listedNames = async () => (await page.getByLabel('Product', { exact: true }).locator('option').allTextContents()).slice(1);
    await expect.poll(async () => (await listedNames()).length).toBeGreaterThan(1);
    await page.getByLabel('Find a product').fill(product.name.toUpperCase());
    await expect.poll(listedNames).toEqual([expect.stringContaining(product.name)]);
    await page.getByLabel('Product', { exact: true }).selectOption(product.id);
    await page.getByTestId('mockup-preview').first().waitFor();
    await waitForImages(page);
    const frame = (await page.getByTestId('mockup-preview').first().boundingBox())!;
    expect(frame.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: 'Save front side' }).click();
    await waitForImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-mockups-375');
  });
});
