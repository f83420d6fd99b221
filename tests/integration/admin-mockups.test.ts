import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../src/server/storage/local';
import { parseStorageUrl, type Storage } from '../../src/server/storage/storage';
import { DEFAULT_SIDE_MISSING, FRONT_MOCKUP_REQUIRED, lowDpiMessage, missingArtMessage } from '../../src/shared/schemas/admin-mockups';
import { callTrpc, createTestApp, insertUser, signUp, type TestApp } from '../helpers/app';

// admin.mockups.*: templates (default first), products, and save: server renders of each side
// stored as PNGs and the product pointed at them, with the spec's messages and the DPI floor.

interface ProductRow {
  id: string;
  image_url: string | null;
  front_mockup_url: string | null;
  back_mockup_url: string | null;
  default_mockup_side: string;
}

let t: TestApp;
let storage: Storage;
let admin: string;
let customer: string;
let templateId: string;
let productId: string;
let backOnlyId: string;
let category: string;

const png = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 4, background } }).png().toBuffer();
const put = async (bucket: string, key: string, bytes: Buffer) => (await storage.put(bucket, key, bytes, 'image/png')).url;

beforeAll(async () => {
  t = await createTestApp();
  storage = new LocalStorage(path.join(t.config.dataDir, 'storage'));
  await insertUser(t.db, 'admin@example.com', { admin: true });
  const res = await callTrpc(t.app, 'auth.signIn', { input: { email: 'admin@example.com', password: 'secret123' } });
  admin = `session=${res.cookies.session}`;
  customer = await signUp(t.app, 'shopper@example.com');

  const white = await png(1000, 1200, '#ffffff');
  const templates = await t.db
    .insertInto('mockup_templates')
    .values([
      { name: 'Zz Default', is_default: true, front_template_url: await put('templates', 'front.png', white), back_template_url: await put('templates', 'back.png', white) },
      { name: 'Aa Outside', front_template_url: 'https://cdn.example.com/front.png', back_template_url: 'https://cdn.example.com/back.png' },
    ])
    .returning(['id', 'is_default'])
    .execute();
  templateId = templates.find((row) => row.is_default)!.id;

  category = (
    await t.db
      .insertInto('categories')
      .values({ slug: 'car', name: 'Car', description: 'Cars', image_url: '/storage/categories/c.png', sort_order: 1 })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.db.deleteFrom('products').execute();
  const frontArt = await put('product-art', `front-${Date.now()}.png`, await png(1200, 1200, '#ff0000'));
  const backArt = await put('product-art', `back-${Date.now()}.png`, await png(1200, 1200, '#0000ff'));
  const rows = await t.db
    .insertInto('products')
    .values([
      { sku_number: 'SKU-1', slug: 'rider', name: 'Rider Tee', description: 'Tee', price: '20.00', category_id: category, front_art_url: frontArt, back_art_url: backArt },
      { sku_number: 'SKU-2', slug: 'back-only', name: 'Back Only', description: 'Tee', price: '20.00', category_id: category, back_art_url: backArt },
    ])
    .returning(['id', 'slug'])
    .execute();
  productId = rows.find((row) => row.slug === 'rider')!.id;
  backOnlyId = rows.find((row) => row.slug === 'back-only')!.id;
});

const call = <T = unknown>(procedure: string, input?: unknown, cookie = admin) =>
  callTrpc<T>(t.app, `admin.mockups.${procedure}`, { input, cookie, type: procedure === 'save' ? 'mutation' : 'query' });

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
    const res = await call<{ id: string; is_default: boolean; front_art_position: unknown }[]>('templates');
    expect(res.data?.map((row) => row.is_default)).toEqual([true, false]);
    expect(res.data?.[0]?.front_art_position).toEqual({ x: 50, y: 30, width: 30, height: 30, rotation: 0 });
  });

  it('lists products by name with their art and mockups', async () => {
    const res = await call<{ name: string; sku_number: string; front_art_url: string | null }[]>('products');
    expect(res.data?.map((row) => [row.name, row.sku_number])).toEqual([
      ['Back Only', 'SKU-2'],
      ['Rider Tee', 'SKU-1'],
    ]);
    expect(res.data?.[0]?.front_art_url).toBeNull();
  });

  it('is for admins only', async () => {
    expect((await call('templates', undefined, customer)).error?.data?.code).toBe('FORBIDDEN');
    expect((await call('save', { productId, templateId, front: FRONT, defaultSide: 'front' }, customer)).error?.data?.code).toBe('FORBIDDEN');
    expect((await product()).front_mockup_url).toBeNull();
  });
});

describe('save', () => {
  it('renders both sides, stores PNGs and makes the chosen side the product image', async () => {
    const res = await call<ProductRow>('save', { productId, templateId, front: FRONT, back: BACK, defaultSide: 'back' });
    expect(res.error).toBeUndefined();
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
      const { data } = await sharp(Buffer.from((await storage.get(bucket, key))!)).extract({ left: 1800, top: 1296, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
      return [...data.subarray(0, 3)];
    };
    expect(await centre(row.front_mockup_url)).toEqual([255, 0, 0]);
    expect(await centre(row.back_mockup_url)).toEqual([0, 0, 255]);
  });

  it('keeps an existing back mockup when only the front is rendered', async () => {
    await t.db.updateTable('products').set({ back_mockup_url: '/storage/mockups/old-back.png' }).where('id', '=', productId).execute();
    await call('save', { productId, templateId, front: FRONT, defaultSide: 'front' });
    const row = await product();
    expect(row.back_mockup_url).toBe('/storage/mockups/old-back.png');
    expect(row.image_url).toBe(row.front_mockup_url);
    expect(row.default_mockup_side).toBe('front');
  });

  it("refuses without a front mockup: 'Please generate at least a front mockup'", async () => {
    const res = await call('save', { productId, templateId, back: BACK, defaultSide: 'back' });
    expect(res.error?.message).toBe(FRONT_MOCKUP_REQUIRED);
    expect((await product()).back_mockup_url).toBeNull();
  });

  it('refuses a default side without a mockup', async () => {
    const res = await call('save', { productId, templateId, front: FRONT, defaultSide: 'back' });
    expect(res.error?.message).toBe(DEFAULT_SIDE_MISSING);
    expect((await product()).front_mockup_url).toBeNull();
  });

  it('refuses artwork placed so large that it prints below 150 DPI', async () => {
    // 1200 px across 100 % = 12 in: 100 DPI.
    const res = await call('save', { productId, templateId, front: { ...FRONT, width: 100, height: 100 }, defaultSide: 'front' });
    expect(res.error?.message).toBe(lowDpiMessage('front', 100));
    expect(res.error?.message).toContain('at least 150 DPI');
    expect((await product()).front_mockup_url).toBeNull();
  });

  it('refuses a side the product has no artwork for', async () => {
    const res = await call('save', { productId: backOnlyId, templateId, front: FRONT, defaultSide: 'front' });
    expect(res.error?.message).toBe(missingArtMessage('front'));
  });

  it('refuses templates that are not files of this store', async () => {
    const outside = (await t.db.selectFrom('mockup_templates').select('id').where('is_default', '=', false).executeTakeFirstOrThrow()).id;
    const res = await call('save', { productId, templateId: outside, front: FRONT, defaultSide: 'front' });
    expect(res.error?.message).toBe('The front template must be an image uploaded to this store');
    expect((await product()).front_mockup_url).toBeNull();
  });

  it('validates positions: sizes in steps of 5 within 5-100, rotation in steps of 5, positions 0-100', async () => {
    const attempt = (front: object) => call('save', { productId, templateId, front: { ...FRONT, ...front }, defaultSide: 'front' });
    expect((await attempt({ width: 33 })).error?.message).toBe('Size moves in steps of 5 percent');
    expect((await attempt({ width: 105 })).error?.message).toBe('Size must be between 5 and 100 percent');
    expect((await attempt({ rotation: 360 })).error?.message).toBe('Rotation must be between 0 and 355 degrees');
    expect((await attempt({ rotation: 7 })).error?.message).toBe('Rotation moves in steps of 5 degrees');
    expect((await attempt({ x: -1 })).error?.message).toBe('Position must be between 0 and 100');
    expect((await product()).front_mockup_url).toBeNull();
  });

  it('answers NOT_FOUND for an unknown product', async () => {
    const res = await call('save', { productId: crypto.randomUUID(), templateId, front: FRONT, defaultSide: 'front' });
    expect(res.error?.data?.code).toBe('NOT_FOUND');
  });
});
