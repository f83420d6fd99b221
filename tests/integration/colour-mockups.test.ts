import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveColours } from '../../src/server/products/colours';
import { LocalStorage } from '../../src/server/storage/local';
import { parseStorageUrl, type Storage } from '../../src/server/storage/storage';
import { lowContrastMessage } from '../../src/shared/schemas/admin-mockups';
import { callTrpc, sharedCallers, sharedTestApp } from '../support/app';
import { createCategory, createProduct } from '../support/factories';

// Mockups per colour (docs/adr/0030-colour-rendering.md): a mockup save renders, after answering,
// each colour's sides on the template tinted to it (or on the admin's blank photo of it), with
// display copies, and the admin can follow the progress; artwork too close to a shirt colour is
// warned about.

const t = sharedTestApp();
const as = sharedCallers(t);
let storage: Storage;
let templateId: string;

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer();
const put = async (bucket: string, key: string, bytes: Buffer) => (await storage.put(bucket, key, bytes, 'image/png')).url;

beforeAll(async () => {
  storage = new LocalStorage(path.join(t.config.dataDir, 'storage'));
  const white = await png(1000, 1200, '#ffffff');
  const template = await t.db
    .insertInto('mockup_templates')
    .values({
      name: 'Plain',
      is_default: true,
      front_template_url: await put('templates', 'front.png', white),
      back_template_url: await put('templates', 'back.png', white),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  templateId = template.id;
});

/** The colour of the stored image's pixel at (x, y), fractions of its width and height. */
async function pixel(url: string | null, x: number, y: number): Promise<string> {
  const location = parseStorageUrl(url ?? '');
  const bytes = Buffer.from((await storage.get(location!.bucket, location!.key))!);
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.round(y * (info.height - 1)) * info.width + Math.round(x * (info.width - 1))) * info.channels;
  return `#${[data[at]!, data[at + 1]!, data[at + 2]!].map((value) => value.toString(16).padStart(2, '0')).join('')}`;
}

const save = (productId: string) =>
  callTrpc<{ warnings: string[] }>(t.app, 'admin.mockups.save', {
    input: { productId, templateId, front: { x: 50, y: 30, width: 30, height: 30, rotation: 0 }, defaultSide: 'front' },
    cookie: as.cookies.admin,
  });
/** The progress once every colour is rendered (or one failed). */
async function finished(productId: string) {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const now = (await progress(productId)).data;
    if (now && (now.done === now.total || now.failed)) return now;
  }
  throw new Error('the colour mockups did not finish in 30 s');
}

const progress = (productId: string, cookie = as.cookies.admin) =>
  callTrpc<{ done: number; total: number; failed: boolean } | null>(t.app, 'admin.mockups.colourProgress', {
    type: 'query',
    input: { productId },
    cookie,
  });

describe('colour mockups', () => {
  it('renders every colour on the tinted template or its blank photo, with display copies, and reports progress', async () => {
    const art = await put('product-art', 'red-square.png', await png(1200, 1200, '#ff0000'));
    const product = await createProduct(t.db, { category_id: (await createCategory(t.db)).id, front_art_url: art });
    const blank = await put('blanks', 'sand-photo.png', await png(800, 960, '#c0b090'));
    await t.db.transaction().execute((trx) =>
      saveColours(trx, product.id, [
        { name: 'Black', hex: '#1b1b1d', off_sizes: [], front_blank_url: null, back_blank_url: null },
        { name: 'Navy', hex: '#1f2a44', off_sizes: [], front_blank_url: null, back_blank_url: null },
        { name: 'Sand', hex: '#d8c8a8', off_sizes: [], front_blank_url: blank, back_blank_url: null },
      ]),
    );

    const saved = await save(product.id);
    expect(saved.error).toBeUndefined();
    expect(saved.data?.warnings).toEqual([]);
    expect(await finished(product.id)).toEqual({ done: 3, total: 3, failed: false });

    const colours = await t.db
      .selectFrom('product_colours')
      .select(['name', 'front_mockup_url', 'back_mockup_url'])
      .where('product_id', '=', product.id)
      .orderBy('sort_order')
      .execute();
    // The shirt away from the print is the colour (multiplied over the plain white template); the print is the art.
    expect(await Promise.all(colours.map((colour) => pixel(colour.front_mockup_url, 0.1, 0.9)))).toEqual(['#1b1b1d', '#1f2a44', '#c0b090']);
    expect(await Promise.all(colours.map((colour) => pixel(colour.front_mockup_url, 0.5, 0.3)))).toEqual(['#ff0000', '#ff0000', '#ff0000']);
    // Only the side saved is rendered; each picture at display size, with its display copies.
    expect(colours.map((colour) => colour.back_mockup_url)).toEqual([null, null, null]);
    const first = parseStorageUrl(colours[0]!.front_mockup_url!)!;
    expect((await sharp(Buffer.from((await storage.get(first.bucket, first.key))!)).metadata()).width).toBe(1440);
    const copies = await t.db
      .selectFrom('image_variants')
      .select('image_url')
      .where(
        'image_url',
        'in',
        colours.map((colour) => colour.front_mockup_url!),
      )
      .execute();
    expect(copies).toHaveLength(3);
  }, 90_000);

  it('warns about artwork that would hardly show on a shirt colour, and keeps progress for admins', async () => {
    const art = await put('product-art', 'white-square.png', await png(1200, 1200, '#fdfdfd'));
    const product = await createProduct(t.db, { category_id: (await createCategory(t.db)).id, front_art_url: art });
    await t.db.transaction().execute((trx) =>
      saveColours(trx, product.id, [
        { name: 'White', hex: '#ffffff', off_sizes: [], front_blank_url: null, back_blank_url: null },
        { name: 'Black', hex: '#1b1b1d', off_sizes: [], front_blank_url: null, back_blank_url: null },
      ]),
    );
    const saved = await save(product.id);
    expect(saved.data?.warnings).toEqual([lowContrastMessage('front', 'White', 1.0)]);
    expect(await finished(product.id)).toEqual({ done: 2, total: 2, failed: false });
    expect((await progress(product.id, as.cookies.customer)).error?.data.code).toBe('FORBIDDEN');
  }, 90_000);
});
