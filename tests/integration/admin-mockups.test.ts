import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeDisplayCopies } from '../../src/server/display-copies';
import { LocalStorage } from '../../src/server/storage/local';
import { parseStorageUrl, type Storage } from '../../src/server/storage/storage';
import {
  DEFAULT_SIDE_MISSING,
  FRONT_MOCKUP_REQUIRED,
  lowDpiMessage,
  missingArtMessage,
  MOCKUP_PRODUCTS_SHOWN,
  oversizedSourceMessage,
  unreadableSourceMessage,
} from '../../src/shared/schemas/admin-mockups';
import { callTrpc, sharedCallers, sharedTestApp } from '../support/app';
import { trpcFailure } from '../support/async';
import { createCategory, createProduct } from '../support/factories';
import { pngDeclaringSize, pngHeaderThenGarbage } from '../support/images';

// admin.mockups.*: templates (default first), products, and save: server renders of each side
// stored as PNGs and the product pointed at them, with the spec's messages and the DPI floor.
// Through callers; over HTTP where a test checks the errorFormatter's message for bad input.

const t = sharedTestApp();
const as = sharedCallers(t);
let storage: Storage;
let templateId: string;
let productId: string;
let backOnlyId: string;
let category: string;

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer();
const put = async (bucket: string, key: string, bytes: Buffer) => (await storage.put(bucket, key, bytes, 'image/png')).url;

beforeAll(async () => {
  // The storage the app and the callers use.
  storage = new LocalStorage(path.join(t.config.dataDir, 'storage'));

  const white = await png(1000, 1200, '#ffffff');
  const templates = await t.db
    .insertInto('mockup_templates')
    .values([
      {
        name: 'Zz Default',
        is_default: true,
        front_template_url: await put('templates', 'front.png', white),
        back_template_url: await put('templates', 'back.png', white),
      },
      {
        name: 'Aa Outside',
        front_template_url: 'https://cdn.example.com/front.png',
        back_template_url: 'https://cdn.example.com/back.png',
      },
    ])
    .returning(['id', 'is_default'])
    .execute();
  templateId = templates.find((row) => row.is_default)!.id;

  category = (await createCategory(t.db)).id;
});

beforeEach(async () => {
  await t.db.deleteFrom('products').execute();
  const frontArt = await put('product-art', `front-${Date.now()}.png`, await png(1200, 1200, '#ff0000'));
  const backArt = await put('product-art', `back-${Date.now()}.png`, await png(1200, 1200, '#0000ff'));
  const product = { category_id: category, back_art_url: backArt };
  productId = (await createProduct(t.db, { ...product, sku_number: 'SKU-1', name: 'Rider Tee', front_art_url: frontArt })).id;
  backOnlyId = (await createProduct(t.db, { ...product, sku_number: 'SKU-2', name: 'Back Only', front_art_url: null })).id;
});

const mockups = () => as.admin.admin.mockups;
const httpSave = (input: unknown) => callTrpc(t.app, 'admin.mockups.save', { input, cookie: as.cookies.admin });

const FRONT = { x: 50, y: 30, width: 30, height: 30, rotation: 0 };
const BACK = { x: 50, y: 30, width: 40, height: 40, rotation: 90 };
const product = (id = productId) => t.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function storedPng(url: string | null) {
  const location = parseStorageUrl(url ?? '');
  expect(location?.bucket).toBe('mockups');
  const bytes = await storage.get(location!.bucket, location!.key);
  return sharp(Buffer.from(bytes!)).metadata();
}

describe('lists', () => {
  it('lists templates with the default first', async () => {
    const templates = await mockups().templates();
    expect(templates.map((row) => row.is_default)).toEqual([true, false]);
    expect(templates[0]?.front_art_position).toEqual({ x: 50, y: 30, width: 30, height: 30, rotation: 0 });
  });

  it('lists products by name with their art and mockups', async () => {
    const { products, more } = await mockups().products({ search: '' });
    expect(products.map((row) => [row.name, row.sku_number])).toEqual([
      ['Back Only', 'SKU-2'],
      ['Rider Tee', 'SKU-1'],
    ]);
    expect(products[0]?.front_art_url).toBeNull();
    expect(more).toBe(false);
  });

  it('lists at most 100 products, and finds the others by name or SKU', async () => {
    await t.db
      .insertInto('products')
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          category_id: category,
          sku_number: `BULK-${String(i).padStart(3, '0')}`,
          slug: `bulk-tee-${i}`,
          name: `Bulk Tee ${String(i).padStart(3, '0')}`,
          description: '',
          price: '20.00',
          front_art_url: '/storage/product-art/bulk.png',
        })),
      )
      .execute();
    const all = await mockups().products({ search: '' });
    expect(all.products).toHaveLength(MOCKUP_PRODUCTS_SHOWN);
    expect(all.more).toBe(true);
    expect(all.products[0]?.name).toBe('Back Only');

    const bySku = await mockups().products({ search: 'bulk-119' });
    expect(bySku).toEqual({ products: [expect.objectContaining({ name: 'Bulk Tee 119' })], more: false });
    expect((await mockups().products({ search: 'rider' })).products.map((row) => row.sku_number)).toEqual(['SKU-1']);
    // A LIKE wildcard is a character like any other.
    expect((await mockups().products({ search: '%' })).products).toEqual([]);
  });

  it('is for admins only', async () => {
    expect((await trpcFailure(as.customer.admin.mockups.templates())).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as.customer.admin.mockups.save({ productId, templateId, front: FRONT, defaultSide: 'front' }))).code).toBe(
      'FORBIDDEN',
    );
    expect((await product()).front_mockup_url).toBeNull();
  });
});

describe('save', () => {
  it('renders both sides, stores PNGs and makes the chosen side the product image', async () => {
    await mockups().save({ productId, templateId, front: FRONT, back: BACK, defaultSide: 'back' });
    const row = await product();
    expect(row.default_mockup_side).toBe('back');
    expect(row.image_url).toBe(row.back_mockup_url);
    expect(row.front_mockup_url).not.toBe(row.back_mockup_url);
    for (const url of [row.front_mockup_url, row.back_mockup_url]) {
      const meta = await storedPng(url);
      expect(meta.format).toBe('png');
      expect([meta.width, meta.height]).toEqual([3600, 4320]);
    }
    // The front carries the red artwork at its centre, the back the blue one.
    const centre = async (url: string | null) => {
      const { bucket, key } = parseStorageUrl(url!)!;
      const { data } = await sharp(Buffer.from((await storage.get(bucket, key))!))
        .extract({ left: 1800, top: 1296, width: 1, height: 1 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      return [...data.subarray(0, 3)];
    };
    expect(await centre(row.front_mockup_url)).toEqual([255, 0, 0]);
    expect(await centre(row.back_mockup_url)).toEqual([0, 0, 255]);
  });

  it('serves a mockup at print resolution to everyone only until its display copies exist, then to admins', async () => {
    // Pages show a mockup itself while it has no copies (one stored before copies were made).
    const { url } = await storage.put('mockups', `uncopied-${crypto.randomUUID()}.png`, await png(800, 960, '#336699'), 'image/png');
    const uncopied = await t.app.inject(url);
    expect(uncopied.statusCode).toBe(200);
    // Never kept by a shared cache (a CDN), which would go on serving it once it turns admins-only.
    expect(uncopied.headers['cache-control']).toBe('private, max-age=3600');
    await makeDisplayCopies(t.db, storage, url);

    // A copy's address gives the original's away ("<original>.640w.avif"): the original refuses.
    expect((await t.app.inject(url)).statusCode).toBe(401);
    expect((await t.app.inject({ url, headers: { cookie: as.cookies.customer } })).statusCode).toBe(403);
    const original = await t.app.inject({ url, headers: { cookie: as.cookies.admin } });
    expect(original.statusCode).toBe(200);
    expect(original.headers['cache-control']).toBe('private, max-age=3600');
    const copy = await t.app.inject(`${url}.640w.avif`);
    expect(copy.statusCode).toBe(200);
    expect(copy.headers['content-type']).toBe('image/avif');
    expect(copy.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('renders the mockups of a product whose slug is as long as a slug may be', async () => {
    await t.db
      .updateTable('products')
      .set({ slug: 'long-'.repeat(40).slice(0, 199) })
      .where('id', '=', productId)
      .execute();
    await mockups().save({ productId, templateId, front: FRONT, back: BACK, defaultSide: 'front' });
    const row = await product();
    expect((await storedPng(row.front_mockup_url)).format).toBe('png');
    expect(row.back_mockup_url).toMatch(/^\/storage\/mockups\/long-long-.*-back-/);
  });

  it('keeps an existing back mockup when only the front is rendered', async () => {
    await t.db.updateTable('products').set({ back_mockup_url: '/storage/mockups/old-back.png' }).where('id', '=', productId).execute();
    await mockups().save({ productId, templateId, front: FRONT, defaultSide: 'front' });
    const row = await product();
    expect(row.back_mockup_url).toBe('/storage/mockups/old-back.png');
    expect(row.image_url).toBe(row.front_mockup_url);
    expect(row.default_mockup_side).toBe('front');
  });

  it("refuses without a front mockup: 'Please generate at least a front mockup'", async () => {
    const res = await httpSave({ productId, templateId, back: BACK, defaultSide: 'back' });
    expect(res.error?.message).toBe(FRONT_MOCKUP_REQUIRED);
    expect((await product()).back_mockup_url).toBeNull();
  });

  it('refuses a default side without a mockup', async () => {
    const res = await trpcFailure(mockups().save({ productId, templateId, front: FRONT, defaultSide: 'back' }));
    expect(res.message).toBe(DEFAULT_SIDE_MISSING);
    expect((await product()).front_mockup_url).toBeNull();
  });

  it('refuses artwork placed so large that it prints below 150 DPI', async () => {
    // 1200 px across 100 % = 12 in: 100 DPI.
    const res = await trpcFailure(
      mockups().save({ productId, templateId, front: { ...FRONT, width: 100, height: 100 }, defaultSide: 'front' }),
    );
    expect(res.message).toBe(lowDpiMessage('front', 100));
    expect(res.message).toContain('at least 150 DPI');
    expect((await product()).front_mockup_url).toBeNull();
  });

  it('refuses a side the product has no artwork for', async () => {
    const res = await trpcFailure(mockups().save({ productId: backOnlyId, templateId, front: FRONT, defaultSide: 'front' }));
    expect(res.message).toBe(missingArtMessage('front'));
  });

  it('refuses templates that are not files of this store', async () => {
    const outside = (await t.db.selectFrom('mockup_templates').select('id').where('is_default', '=', false).executeTakeFirstOrThrow()).id;
    const res = await trpcFailure(mockups().save({ productId, templateId: outside, front: FRONT, defaultSide: 'front' }));
    expect(res.message).toBe('The front template must be an image uploaded to this store');
    expect((await product()).front_mockup_url).toBeNull();
  });

  it('validates positions: sizes in steps of 5 within 5-100, rotation in steps of 5, positions 0-100', async () => {
    const attempt = (front: object) => httpSave({ productId, templateId, front: { ...FRONT, ...front }, defaultSide: 'front' });
    expect((await attempt({ width: 33 })).error?.message).toBe('Size moves in steps of 5 percent');
    expect((await attempt({ width: 105 })).error?.message).toBe('Size must be between 5 and 100 percent');
    expect((await attempt({ rotation: 360 })).error?.message).toBe('Rotation must be between 0 and 355 degrees');
    expect((await attempt({ rotation: 7 })).error?.message).toBe('Rotation moves in steps of 5 degrees');
    expect((await attempt({ x: -1 })).error?.message).toBe('Position must be between 0 and 100');
    expect((await product()).front_mockup_url).toBeNull();
  });

  it('answers NOT_FOUND for an unknown product', async () => {
    const res = await trpcFailure(mockups().save({ productId: crypto.randomUUID(), templateId, front: FRONT, defaultSide: 'front' }));
    expect(res.code).toBe('NOT_FOUND');
  });
});

describe('sources that do not decode', () => {
  // Old data, or files written before uploads were decoded: straight into storage and the
  // database, past the upload route's checks.
  const garbage = async () => pngHeaderThenGarbage(await png(8, 8, '#000000'));
  const cutOff = async () => {
    const whole = await sharp({
      create: { width: 1200, height: 1200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
    })
      .png()
      .toBuffer();
    return whole.subarray(0, Math.floor(whole.length / 2));
  };
  const mockupFiles = () => {
    const dir = path.join(t.config.dataDir, 'storage', 'mockups');
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  };

  it.each([
    ['front artwork', 'a PNG signature and header followed by garbage', garbage],
    ['front artwork', 'a PNG cut off halfway (its header intact)', cutOff],
    ['back artwork', 'a PNG cut off halfway, the front being fine', cutOff],
  ])('answers BAD_REQUEST naming the %s when it is %s, writing nothing', async (what, _case, bytes) => {
    const url = await put('product-art', `broken-${crypto.randomUUID()}.png`, await bytes());
    const column = what === 'front artwork' ? 'front_art_url' : 'back_art_url';
    await t.db
      .updateTable('products')
      .set({ [column]: url })
      .where('id', '=', productId)
      .execute();
    const before = mockupFiles();

    // Over HTTP: a 400 with the message, not a 500 with 'An unexpected error occurred'.
    const res = await httpSave({ productId, templateId, front: FRONT, back: BACK, defaultSide: 'front' });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe(unreadableSourceMessage(what));
    expect(res.error?.data.code).toBe('BAD_REQUEST');
    expect(mockupFiles()).toEqual(before);
    expect((await product()).front_mockup_url).toBeNull();
  });

  it('refuses artwork whose header declares more pixels than an upload may have, before decoding it', async () => {
    const bomb = pngDeclaringSize(await png(8, 8, '#000000'), 20_000, 20_000);
    const url = await put('product-art', `bomb-${crypto.randomUUID()}.png`, bomb);
    await t.db.updateTable('products').set({ front_art_url: url }).where('id', '=', productId).execute();
    const res = await trpcFailure(mockups().save({ productId, templateId, front: FRONT, defaultSide: 'front' }));
    expect(res).toEqual({ code: 'BAD_REQUEST', message: oversizedSourceMessage('front artwork') });
  });

  it('names a template that does not decode', async () => {
    const broken = await t.db
      .insertInto('mockup_templates')
      .values({
        name: 'Broken',
        front_template_url: await put('templates', `broken-${crypto.randomUUID()}.png`, await cutOff()),
        back_template_url: await put('templates', `broken-${crypto.randomUUID()}.png`, await garbage()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await trpcFailure(mockups().save({ productId, templateId: broken.id, front: FRONT, defaultSide: 'front' }));
    expect(res).toEqual({ code: 'BAD_REQUEST', message: unreadableSourceMessage('front template') });
    await t.db.deleteFrom('mockup_templates').where('id', '=', broken.id).execute();
  });
});
