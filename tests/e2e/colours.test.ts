import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { saveColours } from '../../src/server/products/colours';
import { seriousA11yViolations } from '../support/a11y';
import { expectFitsPhone, saveScreenshot, sharedBrowserApp, signInInBrowser, VIEWPORTS, waitForImages } from '../support/browser';
import { createCategory, createCustomer, createProduct } from '../support/factories';

// A shopper picks a colour and a size on a product page (docs/adr/0029): the pictures, the price
// and the sizes on offer follow; the address carries the colour and the server renders it; the
// order page and the confirmation email name the colour bought.

const env = sharedBrowserApp({ seed: false });

/** A stored mockup of one flat colour, served under /storage/mockups/. */
async function storedMockup(name: string, hex: string): Promise<string> {
  const dir = path.join(env.config.dataDir, 'storage', 'mockups');
  fs.mkdirSync(dir, { recursive: true });
  await sharp({ create: { width: 400, height: 500, channels: 3, background: hex } })
    .png()
    .toFile(path.join(dir, name));
  return `/storage/mockups/${name}`;
}

describe('a product in colours', () => {
  it('switches pictures, price and sizes with the colour, and the order records the colour', async () => {
    const product = await createProduct(env.db, {
      name: 'Chrome Tee',
      slug: 'chrome-tee',
      price: '24.00',
      available_sizes: ['M', 'L', '2XL'],
    });
    await env.db.transaction().execute((trx) =>
      saveColours(trx, product.id, [
        { name: 'White', hex: '#ffffff', off_sizes: [], front_blank_url: null, back_blank_url: null },
        { name: 'Black', hex: '#1b1b1d', off_sizes: ['L'], front_blank_url: null, back_blank_url: null },
      ]),
    );
    const white = await storedMockup('chrome-white.png', '#f4f4f4');
    const black = await storedMockup('chrome-black.png', '#1b1b1d');
    await env.db
      .updateTable('product_colours')
      .set({ front_mockup_url: white })
      .where('product_id', '=', product.id)
      .where('slug', '=', 'white')
      .execute();
    await env.db
      .updateTable('product_colours')
      .set({ front_mockup_url: black })
      .where('product_id', '=', product.id)
      .where('slug', '=', 'black')
      .execute();
    await env.db
      .updateTable('store_settings')
      .set({ size_surcharges: JSON.stringify({ '2XL': '3.00' }) })
      .execute();

    // The server renders the colour the address names, and keeps the canonical address the product's.
    const rendered = await (await fetch(`${env.baseUrl}/product/chrome-tee?colour=black`)).text();
    expect(rendered).toContain('chrome-black.png');
    expect(rendered).toContain(`<link rel="canonical" href="${env.baseUrl}/product/chrome-tee">`);
    expect(rendered).toContain('"@type":"ProductGroup"');

    const customer = await createCustomer(env.db, { email: 'colour.buyer@example.com' });
    const page = await signInInBrowser(env, { email: customer.email, viewport: VIEWPORTS.desktop });
    await page.goto('/product/chrome-tee');
    const gallery = page.getByTestId('product-gallery').locator('img');
    await expect.poll(() => gallery.first().getAttribute('src')).toContain('chrome-white.png');
    expect(await page.getByTestId('chosen-colour').textContent()).toBe('White');
    const sizes = page.getByLabel('Size');
    expect(await sizes.locator('option:disabled').count()).toBe(0);

    // Black: its picture, its sizes (no L), the address carries it.
    await page.getByRole('radiogroup', { name: 'Colour' }).getByRole('radio', { name: 'Black' }).check();
    await expect.poll(() => page.getByTestId('chosen-colour').textContent()).toBe('Black');
    await expect.poll(() => gallery.first().getAttribute('src')).toContain('chrome-black.png');
    expect(new URL(page.url()).search).toBe('?colour=black');
    expect(await sizes.locator('option:disabled').allTextContents()).toEqual(['L (not in Black)']);
    expect(await page.getByTestId('product-price').textContent()).toBe('$24.00');
    await sizes.selectOption('2XL');
    await expect.poll(() => page.getByTestId('product-price').textContent()).toBe('$27.00');
    // Arrow keys move between the swatches, as in any radio group.
    await page.getByRole('radio', { name: 'Black' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.getByTestId('chosen-colour').textContent()).toBe('White');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByTestId('chosen-colour').textContent()).toBe('Black');
    await waitForImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'product-colours-1280');

    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.goto('/cart');
    const line = page.getByTestId('cart-line');
    await line.waitFor();
    expect(await line.getByTestId('line-colour').textContent()).toContain('Colour: Black');
    await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout');
    const form = page.getByTestId('shipping-form');
    await form.getByLabel('First name', { exact: true }).fill('Rita');
    await form.getByLabel('Last name', { exact: true }).fill('Rider');
    await form.getByLabel('Street address', { exact: true }).fill('12 Piston Way');
    await form.getByLabel('City', { exact: true }).fill('Austin');
    await form.getByLabel('State', { exact: true }).fill('TX');
    await form.getByLabel('ZIP code', { exact: true }).fill('78701');
    await form.getByLabel('Country', { exact: true }).fill('USA');
    await page.getByRole('button', { name: 'Complete Order' }).click();

    await page.getByRole('heading', { name: 'Thank you for your order!', level: 1 }).waitFor();
    const orderNumber = (await page.getByTestId('order-number').textContent())!;
    expect(await page.getByTestId('item-colour').textContent()).toContain('Black');
    expect(await page.getByTestId('order-items').innerText()).toContain('Size 2XL × 1 · $27.00 each');
    await saveScreenshot(page, 'order-colour-1280');
    // The confirmation email names the colour of each line.
    const mail = await env.db
      .selectFrom('email_queue')
      .select(['subject', 'text_body'])
      .where('to_email', '=', customer.email)
      .executeTakeFirstOrThrow();
    expect(mail.subject).toContain(orderNumber);
    expect(mail.text_body).toContain('Chrome Tee (Black, 2XL) × 1');
  });

  it('filters the shop by colour, server-rendered and in the address, each card counting its colours', async () => {
    const category = await createCategory(env.db, { slug: 'night', name: 'Night' });
    const night = await createProduct(env.db, { name: 'Night Rider Tee', slug: 'night-rider-tee', category_id: category.id });
    await env.db.transaction().execute((trx) =>
      saveColours(trx, night.id, [
        { name: 'Black', hex: '#1b1b1d', off_sizes: [], front_blank_url: null, back_blank_url: null },
        { name: 'Navy', hex: '#1f2a44', off_sizes: [], front_blank_url: null, back_blank_url: null },
      ]),
    );
    await createProduct(env.db, { name: 'Daylight Tee', slug: 'daylight-tee', category_id: category.id });

    // The server renders the filter with the colour the address names pressed.
    const rendered = await (await fetch(`${env.baseUrl}/shop?colour=navy`)).text();
    expect(rendered).toMatch(/<button[^>]*aria-pressed="true"[^>]*>.*?Navy<\/button>/);

    const page = await env.newPage({ viewport: VIEWPORTS.desktop });
    await page.goto('/shop');
    const grid = page.getByTestId('product-grid');
    await grid.waitFor();
    const filter = page.getByRole('group', { name: 'Filter by colour' });
    await filter.getByRole('button', { name: 'Navy' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?colour=navy');
    await expect.poll(() => grid.getByTestId('product-card').locator('h2').allTextContents()).toEqual(['Night Rider Tee']);
    const card = grid.getByTestId('product-card');
    expect(await card.getByTestId('product-colours').textContent()).toBe('2 colours');
    // The card opens the product in the colour filtered by.
    expect(await card.getByRole('link', { name: 'Night Rider Tee' }).getAttribute('href')).toBe('/product/night-rider-tee?colour=navy');
    expect(await filter.getByRole('button', { name: 'Navy' }).getAttribute('aria-pressed')).toBe('true');
    await waitForImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, 'shop-colour-filter-1280');

    // A category's page has the filter too, with its own colours.
    await page.goto('/category/night?colour=white');
    await expect.poll(() => grid.getByTestId('product-card').locator('h2').allTextContents()).toEqual(['Daylight Tee']);
    await filter.getByRole('button', { name: 'All colours' }).click();
    await expect.poll(() => grid.getByTestId('product-card').locator('h2').allTextContents()).toEqual(['Daylight Tee', 'Night Rider Tee']);
    expect(await filter.getByRole('button').allTextContents()).toEqual(['All colours', 'Black', 'Navy', 'White']);

    const phone = await env.newPage({ viewport: VIEWPORTS.mobile });
    await phone.goto('/shop?colour=black');
    await phone.getByTestId('product-grid').waitFor();
    await waitForImages(phone);
    await expectFitsPhone(phone, 'shop-colour-filter-375');
    expect(env.pageErrors(page)).toEqual([]);
  });
});
