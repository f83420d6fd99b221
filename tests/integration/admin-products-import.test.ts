import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { fetchImageBytes, publicAddressesOnly } from '../../src/server/catalog/image-fetch';
import { applyImport, planImport, readProductCsv } from '../../src/server/catalog/product-import';
import { LocalStorage } from '../../src/server/storage/local';
import {
  PRODUCT_IMPORT_PATH,
  PRODUCT_IMPORT_PREVIEW_PATH,
  previewHeadline,
  rowErrorText,
  type ImportPreview,
  type ImportProgress,
  type ImportSummary,
} from '../../src/shared/schemas/admin-products-import';
import { sharedCallers, sharedTestApp, TEST_ORIGIN } from '../support/app';
import { createCategory, createProduct } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';

// Products → Import CSV over HTTP as the admin's screen sends it: the file checked in full into a
// preview that stores nothing, then applied in one transaction with its progress streamed; files
// from our own export (the round trip leaves the catalog as it was) and from Shopify (its older and
// current header names); every kind of row error and file refusal; images fetched by URL from
// public addresses only (a local server the test starts stands in for the web, reached through a
// policy that lets only this test's loopback address through).

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/shopify-products-export.csv');

const t = sharedTestApp();
const as = sharedCallers(t);

/** The web, for images: PNGs by name, an oversized file, redirects, and a count of the requests. */
const web = sharedBeforeAll(
  async () => {
    const png = await sharp({ create: { width: 24, height: 24, channels: 3, background: '#223344' } })
      .png()
      .toBuffer();
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(req.url!);
      if (req.url === '/huge.png') {
        // Past 10 MB, with no length announced: cut off while reading.
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png);
        const chunk = Buffer.alloc(1024 * 1024);
        for (let i = 0; i < 11; i += 1) res.write(chunk);
        return res.end();
      }
      if (req.url?.startsWith('/redirect-to/')) {
        res.writeHead(302, { location: decodeURIComponent(req.url.slice('/redirect-to/'.length)) });
        return res.end();
      }
      if (req.url === '/not-an-image.png') return res.end('<html>hello</html>');
      if (req.url?.endsWith('.png')) {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(png);
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { base, requests, server };
  },
  ({ server }) => new Promise<void>((resolve) => server.close(() => resolve())),
);
/** This test's stand-in for the web: its own loopback address, nothing else private. */
const onlyTheTestServer = (address: string) => address === '127.0.0.1' || publicAddressesOnly(address);

let shirts: string;

beforeAll(async () => {
  shirts = (await createCategory(t.db, { name: 'Shirts', slug: 'shirts' })).id;
  await createCategory(t.db, { name: 'Motorcycle', slug: 'motorcycle' });
  await createCategory(t.db, { name: 'Christian', slug: 'christian' });
  await t.db
    .updateTable('store_settings')
    .set({ size_surcharges: JSON.stringify({ '2XL': '2.00', '3XL': '3.00' }) })
    .execute();
});

const post = (url: string, body: string | Buffer, cookie: string = as.cookies.admin) =>
  t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN, cookie, 'content-type': 'text/csv' }, payload: body });

async function preview(body: string | Buffer): Promise<ImportPreview> {
  const res = await post(PRODUCT_IMPORT_PREVIEW_PATH, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ImportPreview>();
}

/** The import's streamed lines: progress, then the summary. */
async function importFile(body: string | Buffer) {
  const res = await post(PRODUCT_IMPORT_PATH, body);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/x-ndjson');
  const lines = res.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ImportProgress | ImportSummary);
  const summary = lines.at(-1);
  if (!summary || !('summary' in summary)) throw new Error(`no summary: ${res.body}`);
  return { progress: lines.filter((line): line is ImportProgress => 'progress' in line).map((line) => line.progress), ...summary };
}

/** Everything a product is in the database, its colours and variants included, for before/after comparisons. */
async function catalogSnapshot() {
  const [products, colours, variants] = await Promise.all([
    t.db.selectFrom('products').selectAll().orderBy('slug').execute(),
    t.db.selectFrom('product_colours').selectAll().orderBy('id').execute(),
    t.db.selectFrom('product_variants').selectAll().orderBy('id').execute(),
  ]);
  return { products, colours, variants };
}

const exportCsv = async () => (await as.admin.admin.products.exportCsv({})).csv;

describe('a file exported here', () => {
  beforeAll(async () => {
    const moto = await createProduct(t.db, {
      slug: 'moto-tee',
      name: 'Moto Tee',
      description: 'Fast & loud <b>\nTwo lines, "quoted"',
      sku_number: 'MOTO-1',
      price: '24.99',
      available_sizes: ['S', 'M', '2XL'],
      tags: ['moto', 'bikes'],
      category_id: shirts,
      image_url: '/storage/product-art/moto.png',
      front_art_url: '/storage/product-art/moto-art.png',
      back_art_url: null,
      chest_position: 'left_chest',
      is_featured: true,
    });
    const black = await t.db
      .insertInto('product_colours')
      .values({ product_id: moto.id, name: 'Black', slug: 'black', hex: '#111111', code: 'BLK', sort_order: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('product_variants')
      .set({ is_enabled: false })
      .where('colour_id', '=', black.id)
      .where('size', '=', 'S')
      .execute();
    await createProduct(t.db, {
      slug: 'formula-hoodie',
      name: '=SUM(A1)',
      description: '-dash first',
      sku_number: '+PLUS-1',
      price: '40.00',
      available_sizes: ['XL'],
      category_id: shirts,
      is_active: false,
    });
  });

  it('imports back as it is: every product unchanged, and nothing written', async () => {
    const before = await catalogSnapshot();
    const csv = await exportCsv();
    const checked = await preview(csv);
    expect(checked).toEqual({ counts: { create: 0, update: 0, unchanged: 2, errorRows: 0 }, errors: [] });
    expect(previewHeadline(checked.counts)).toBe('0 products to create, 0 to update, 0 rows with errors');
    const { summary } = await importFile(csv);
    expect(summary).toEqual({ created: 0, updated: 0, unchanged: 2, errors: [] });
    expect(await catalogSnapshot()).toEqual(before);
  });

  it('applies what was changed in the file, keeps colours it leaves out switched off, and a second import changes nothing', async () => {
    // Moto Tee renamed and $1.00 dearer in every size (2XL keeps its $2.00 surcharge); Black dropped.
    // (Lines, not rows: the description's line break splits its first row in two.)
    const edited = (await exportCsv())
      .replace('Moto Tee', 'Moto Tee Deluxe')
      .split('\n')
      .filter((line) => !line.includes(',Black,'))
      .map((line) => (line.includes('MOTO-1-') ? line.replace(',24.99,', ',25.99,').replace(',26.99,', ',27.99,') : line))
      .join('\n');
    expect(await preview(edited)).toEqual({ counts: { create: 0, update: 1, unchanged: 1, errorRows: 0 }, errors: [] });
    const { summary } = await importFile(edited);
    expect(summary).toEqual({ created: 0, updated: 1, unchanged: 1, errors: [] });
    const moto = await t.db.selectFrom('products').selectAll().where('slug', '=', 'moto-tee').executeTakeFirstOrThrow();
    expect(moto).toMatchObject({ name: 'Moto Tee Deluxe', price: '25.99', sku_number: 'MOTO-1', available_sizes: ['S', 'M', '2XL'] });
    const black = await t.db
      .selectFrom('product_variants')
      .innerJoin('product_colours', 'product_colours.id', 'product_variants.colour_id')
      .select(['product_variants.size', 'product_variants.is_enabled'])
      .where('product_colours.product_id', '=', moto.id)
      .where('product_colours.name', '=', 'Black')
      .execute();
    expect(black.length).toBeGreaterThan(0);
    expect(black.every((variant) => !variant.is_enabled)).toBe(true);

    const before = await catalogSnapshot();
    expect((await importFile(edited)).summary).toEqual({ created: 0, updated: 0, unchanged: 2, errors: [] });
    expect(await catalogSnapshot()).toEqual(before);
  });

  it('shows a product it creates on the storefront at once (the catalog cache follows the import)', async () => {
    const read = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/trpc/catalog.products?input=${encodeURIComponent(JSON.stringify({ category: 'shirts' }))}`,
        })
      ).body;
    expect(await read()).toContain('Moto Tee');
    expect(await read()).not.toContain('Lighthouse Tee');
    const csv = [
      'Handle,Title,Body (HTML),Type,Option1 Name,Option1 Value,Variant Price,Front Art,Status',
      'lighthouse-tee,Lighthouse Tee,A lighthouse,Shirts,Size,M,21.00,/storage/product-art/light.png,active',
    ].join('\n');
    expect((await importFile(csv)).summary).toMatchObject({ created: 1 });
    expect(await read()).toContain('Lighthouse Tee');
  });
});

describe('a file exported by Shopify', () => {
  const fixture = () => fs.readFileSync(FIXTURE, 'utf8').replaceAll('https://cdn.shopify.com/s/files/1/0622/4477/7561/products', web.base);

  it('previews its products, then creates them with their sizes, colours, price and images', async () => {
    expect(await preview(fixture())).toEqual({ counts: { create: 2, update: 0, unchanged: 0, errorRows: 0 }, errors: [] });
    // The images come from the file's addresses: through the app's own fetcher, allowed to reach this test's server.
    const plan = await planImport(t.db, await readProductCsv(Buffer.from(fixture())));
    const storage = new LocalStorage(path.join(t.config.dataDir, 'storage'));
    const steps: number[] = [];
    const summary = await applyImport(t.db, plan, {
      storage,
      imageAddresses: onlyTheTestServer,
      onProgress: (done) => steps.push(done),
    });
    expect(summary).toEqual({ created: 2, updated: 0, unchanged: 0, errors: [] });
    // Three image fields (the tee's picture standing for its art too, fetched once) and two products.
    expect(steps).toEqual([1, 2, 3, 4, 5, 6]);
    expect(web.requests.filter((url) => url.endsWith('.png')).sort()).toEqual(['/chopper-front.png', '/faith.png']);

    const chopper = await t.db.selectFrom('products').selectAll().where('slug', '=', 'vintage-chopper-tee').executeTakeFirstOrThrow();
    expect(chopper).toMatchObject({
      name: 'Vintage Chopper Tee',
      description: 'Soft ringspun cotton with a 1970s chopper print.\nPrinted & shipped in 3-5 days.',
      price: '24.00',
      sku_number: 'IRA-CHOP',
      tags: ['biker', 'chopper', 'vintage'],
      is_active: true,
      available_sizes: ['S', 'M', 'L', 'XL', '2XL'],
    });
    expect(chopper.image_url).toMatch(/^\/storage\/product-art\/import-[0-9a-f]{32}\.png$/);
    expect(chopper.front_art_url).toBe(chopper.image_url);
    expect(fs.existsSync(path.join(storage.root, chopper.image_url!.replace('/storage/', '')))).toBe(true);
    const colours = await t.db
      .selectFrom('product_colours')
      .select(['name', 'hex', 'code'])
      .where('product_id', '=', chopper.id)
      .orderBy('sort_order')
      .execute();
    expect(colours).toEqual([
      { name: 'Black', hex: '#1b1b1d', code: 'BLK' },
      { name: 'Navy', hex: '#1f2a44', code: 'NVY' },
    ]);
    const skus = await t.db
      .selectFrom('product_variants')
      .select('sku')
      .where('product_id', '=', chopper.id)
      .where('is_enabled', '=', true)
      .execute();
    expect(skus.map((row) => row.sku).sort()).toContain('IRA-CHOP-BLK-2XL');

    const faith = await t.db.selectFrom('products').selectAll().where('slug', '=', 'faith-over-fear-tee').executeTakeFirstOrThrow();
    expect(faith).toMatchObject({
      name: 'Faith Over Fear Tee',
      description: 'Bold script on a classic fit.\nUnisex sizing.',
      price: '19.50',
      sku_number: 'IRA-FAITH',
      is_active: false,
      available_sizes: ['M', 'L'],
    });

    // Again: the images it stored are recognised by their address, nothing is fetched or written.
    const fetched = web.requests.length;
    const before = await catalogSnapshot();
    expect(await preview(fixture())).toEqual({ counts: { create: 0, update: 0, unchanged: 2, errorRows: 0 }, errors: [] });
    expect((await importFile(fixture())).summary).toEqual({ created: 0, updated: 0, unchanged: 2, errors: [] });
    expect(web.requests.length).toBe(fetched);
    expect(await catalogSnapshot()).toEqual(before);
  });

  it('reads Shopify’s current header names as well as the older ones', async () => {
    const csv = [
      'Title,URL handle,Description,Vendor,Product category,Type,Tags,Published on online store,Status,SKU,Option1 name,Option1 value,Option2 name,Option2 value,Price,Product image URL',
      'Highway Tee,highway-tee,<p>Open road</p>,Iron Road,Apparel,Motorcycle,road,TRUE,active,HWY-1,Size,L,Color,White,22.00,/storage/product-art/highway.png',
      ',highway-tee,,,,,,,,HWY-2,,XL,,White,22.00,',
    ].join('\n');
    expect(await preview(csv)).toEqual({ counts: { create: 1, update: 0, unchanged: 0, errorRows: 0 }, errors: [] });
    expect((await importFile(csv)).summary).toMatchObject({ created: 1, errors: [] });
    expect(await t.db.selectFrom('products').selectAll().where('slug', '=', 'highway-tee').executeTakeFirstOrThrow()).toMatchObject({
      name: 'Highway Tee',
      description: 'Open road',
      available_sizes: ['L', 'XL'],
      image_url: '/storage/product-art/highway.png',
      front_art_url: '/storage/product-art/highway.png',
    });
  });
});

describe('row errors', () => {
  const HEADER =
    'Handle,Title,Body (HTML),Type,Category,Tags,Status,Featured,Chest Position,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant SKU,Variant Price,Front Art';
  const row = (cells: Partial<Record<string, string>>) =>
    HEADER.split(',')
      .map((column) => {
        const value = cells[column] ?? '';
        return /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
      })
      .join(',');
  const good = {
    Title: 'Good Tee',
    'Body (HTML)': 'Fine',
    Category: 'shirts',
    'Option1 Name': 'Size',
    'Option1 Value': 'M',
    'Option2 Name': 'Colour',
    'Option2 Value': 'White',
    'Variant Price': '20.00',
    'Front Art': '/storage/product-art/good.png',
  };

  it('names each error’s row, column and what to fix, and leaves the products with errors out whole', async () => {
    await createProduct(t.db, { slug: 'sku-owner', sku_number: 'TAKEN-1', category_id: shirts });
    const csv = [
      HEADER,
      row({ ...good, Handle: 'good-tee' }), // 2
      row({ ...good, Handle: 'comma-price', 'Variant Price': '12,5' }), // 3
      row({ ...good, Handle: 'Bad Handle' }), // 4
      row({ ...good, Handle: 'no-title', Title: '' }), // 5
      row({ ...good, Handle: 'no-body', 'Body (HTML)': '' }), // 6
      row({ ...good, Handle: 'odd-size', 'Option1 Value': 'Huge' }), // 7
      row({ ...good, Handle: 'no-category', Category: 'hats' }), // 8
      row({ ...good, Handle: 'bad-status', Status: 'live' }), // 9
      row({ ...good, Handle: 'bad-featured', Featured: 'maybe' }), // 10
      row({ ...good, Handle: 'bad-chest', 'Chest Position': 'sleeve' }), // 11
      row({ ...good, Handle: 'bad-art', 'Front Art': 'ftp://example.com/art.png' }), // 12
      row({ ...good, Handle: 'no-art', 'Front Art': '' }), // 13
      row({ ...good, Handle: 'taken-sku', 'Variant SKU': 'TAKEN-1' }), // 14
      row({ ...good, Handle: 'price-misfit', 'Option1 Value': 'M', 'Variant Price': '20.00' }), // 15
      row({ Handle: 'price-misfit', 'Option1 Value': '2XL', 'Option2 Value': 'White', 'Variant Price': '25.00' }), // 16
      row({ ...good, Handle: 'twice' }), // 17
      row({ Handle: 'twice', 'Option1 Value': 'M', 'Option2 Value': 'White', 'Variant Price': '20.00' }), // 18
      row({ ...good, Handle: '' }), // 19
      row({ ...good, Handle: 'no-price', 'Variant Price': '' }), // 20
      row({ ...good, Handle: 'long-tag', Tags: 'x'.repeat(51) }), // 21
      row({ ...good, Handle: 'same-sku-a', 'Variant SKU': 'TWIN' }), // 22
      row({ ...good, Handle: 'same-sku-b', 'Variant SKU': 'TWIN' }), // 23
    ].join('\n');
    const checked = await preview(csv);
    expect(checked.errors.map(rowErrorText)).toEqual([
      'Row 3, Variant Price: "12,5" is not a price',
      'Row 4, Handle: "Bad Handle" is not a handle: use lower-case letters, digits and single dashes',
      'Row 5, Title: the first row of a new product needs its title',
      'Row 6, Body (HTML): a new product needs a description',
      'Row 7, Option1 Value: "Huge" is not a size (XS, S, M, L, XL, 2XL, 3XL, 4XL)',
      'Row 8, Category: there is no category "hats"; add it under Categories first',
      'Row 9, Status: "live" is not a status (active, draft or archived)',
      'Row 10, Featured: "maybe" is not TRUE or FALSE',
      'Row 11, Chest Position: "sleeve" is not a chest position (left_chest or full_chest)',
      'Row 12, Front Art: "ftp://example.com/art.png" is not an http(s) address or one of the store\'s own images',
      'Row 13, Front Art: a product needs artwork for the front or the back',
      'Row 14, Variant SKU: SKU "TAKEN-1" belongs to product "sku-owner"',
      'Row 16, Variant Price: "25.00" does not fit: sizes differ in price only by the size surcharges in Settings, so with this product\'s other rows size 2XL costs 22.00',
      'Row 18, Option2 Value: White in M is on an earlier row already',
      'Row 19, Handle: every row needs the Handle of its product',
      'Row 20, Variant Price: a variant needs its price',
      'Row 21, Tags: a tag has at most 50 characters',
      'Row 23, Variant SKU: SKU "TWIN" is also the SKU of "same-sku-a" in this file',
    ]);
    expect(checked.counts).toEqual({ create: 2, update: 0, unchanged: 0, errorRows: 18 });
    expect(previewHeadline(checked.counts)).toBe('2 products to create, 0 to update, 18 rows with errors');
    // The preview stored nothing.
    expect(await t.db.selectFrom('products').select('slug').where('slug', 'in', ['good-tee', 'same-sku-a']).execute()).toEqual([]);

    const { summary } = await importFile(csv);
    expect(summary.created).toBe(2);
    expect(summary.errors).toEqual(checked.errors);
    const slugs = (await t.db.selectFrom('products').select('slug').execute()).map((product) => product.slug);
    expect(slugs).toEqual(expect.arrayContaining(['good-tee', 'same-sku-a']));
    for (const left of ['comma-price', 'no-title', 'price-misfit', 'twice', 'same-sku-b', 'no-price']) expect(slugs).not.toContain(left);
  });
});

describe('row errors of Shopify’s columns', () => {
  it('names an unknown Type, a Published that is not a yes or no, a product without sizes and one with too many colours', async () => {
    const colours = ['Red', 'Blue', 'Green', 'Gold', 'Grey', 'Pink', 'Teal', 'Plum', 'Rust', 'Mint', 'Olive', 'Lilac', 'Coral'];
    const csv = [
      'Handle,Title,Body (HTML),Type,Published,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant Price,Image Src',
      'hat,Hat,A hat,Hats,TRUE,Size,M,,,20.00,/storage/product-art/hat.png',
      'maybe-tee,Maybe Tee,A tee,Motorcycle,sometimes,Size,M,,,20.00,/storage/product-art/maybe.png',
      'one-size-tee,One Size Tee,A tee,Motorcycle,TRUE,Title,Default Title,,,20.00,/storage/product-art/one.png',
      ...colours.map((colour, i) =>
        i === 0
          ? `rainbow-tee,Rainbow Tee,A tee,Motorcycle,TRUE,Size,M,Color,${colour},20.00,/storage/product-art/rainbow.png`
          : `rainbow-tee,,,,,,M,,${colour},20.00,`,
      ),
    ].join('\n');
    expect((await preview(csv)).errors.map(rowErrorText)).toEqual([
      'Row 2, Type: there is no category named "Hats"; add it under Categories first, or give a Category column',
      'Row 3, Published: "sometimes" is not TRUE or FALSE',
      'Row 4, Option1 Name: name an option "Size" (Option1 or Option2): every shirt comes in sizes',
      'Row 5, Option2 Value: a product has at most 12 colours',
    ]);
  });
});

describe('files refused whole', () => {
  const refusal = async (body: string | Buffer) => {
    const res = await post(PRODUCT_IMPORT_PREVIEW_PATH, body);
    expect(res.statusCode).toBe(400);
    // The import refuses it the same way, before writing anything.
    const applied = await post(PRODUCT_IMPORT_PATH, body);
    expect(applied.statusCode).toBe(400);
    return res.json<{ error: string }>().error;
  };

  it('refuses a file that is not UTF-8, with the reason', async () => {
    expect(await refusal(Buffer.from('Handle,Title\ncafe-tee,Caf\xe9 Tee\n', 'latin1'))).toBe(
      'The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.',
    );
  });

  it('refuses a file without a Handle or a Title column', async () => {
    expect(await refusal('Name,Price\nTee,20.00\n')).toBe(
      'The file has no Handle or URL handle column and no Title column in its first row.',
    );
    expect(await refusal('Handle,Price\ntee,20.00\n')).toBe('The file has no Title column in its first row.');
  });

  it('refuses more than 5,000 rows', async () => {
    const rows = Array.from({ length: 5001 }, (_, i) => `tee-${i},Tee ${i}`);
    expect(await refusal(['Handle,Title', ...rows].join('\n'))).toBe(
      'The file has 5,001 rows; an import takes at most 5,000. Split it into smaller files.',
    );
  });

  it('refuses an empty file and one that is not CSV', async () => {
    expect(await refusal('')).toBe('The file is empty.');
    expect(await refusal('Handle,Title\n"tee,Tee\n')).toMatch(/^The file is not valid CSV/);
  });

  it('answers only admins', async () => {
    const csv = 'Handle,Title\ntee,Tee\n';
    expect((await post(PRODUCT_IMPORT_PREVIEW_PATH, csv, as.cookies.customer)).statusCode).toBe(403);
    expect((await post(PRODUCT_IMPORT_PATH, csv, as.cookies.customer)).statusCode).toBe(403);
    expect((await post(PRODUCT_IMPORT_PATH, csv, '')).statusCode).toBe(401);
  });
});

describe('images named by URL', () => {
  it('streams its progress and reports an image from a private address in the summary, importing the rest', async () => {
    const csv = [
      'Handle,Title,Body (HTML),Category,Option1 Name,Option1 Value,Variant Price,Image Src,Front Art',
      `private-image,Private Image,x,shirts,Size,M,20.00,${web.base}/private.png,/storage/product-art/a.png`,
      'own-image,Own Image,x,shirts,Size,M,20.00,/storage/product-art/own.png,/storage/product-art/a.png',
    ].join('\n');
    const before = web.requests.length;
    const { progress, summary } = await importFile(csv);
    // The production fetcher: loopback is refused without a request being made.
    expect(web.requests.length).toBe(before);
    expect(summary).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      errors: [
        {
          row: 2,
          column: 'Image Src',
          message: `"${web.base}/private.png" leads to a private or local address; images are fetched from public addresses only`,
        },
      ],
    });
    expect(progress).toEqual([
      { done: 1, total: 3 },
      { done: 2, total: 3 },
    ]);
  });

  it('refuses private, loopback and link-local addresses, also behind a name', async () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(publicAddressesOnly(address), address).toBe(false);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) expect(publicAddressesOnly(address), address).toBe(true);
    await expect(fetchImageBytes('http://localhost:9/x.png')).rejects.toThrow('leads to a private or local address');
    await expect(fetchImageBytes('http://[::1]:9/x.png')).rejects.toThrow('leads to a private or local address');
  });

  it('refuses addresses that are not http(s), files past 10 MB, and redirects to a private address', async () => {
    await expect(fetchImageBytes('ftp://example.com/x.png', onlyTheTestServer)).rejects.toThrow(
      '"ftp://example.com/x.png" is not an http(s) address',
    );
    await expect(fetchImageBytes('file:///etc/passwd', onlyTheTestServer)).rejects.toThrow('is not an http(s) address');
    await expect(fetchImageBytes(`${web.base}/huge.png`, onlyTheTestServer)).rejects.toThrow('is larger than 10 MB');
    // 127.0.0.2 is loopback too, and not this test's server: the redirect's target is checked as the first address was.
    const elsewhere = encodeURIComponent(`http://127.0.0.2:${new URL(web.base).port}/a.png`);
    await expect(fetchImageBytes(`${web.base}/redirect-to/${elsewhere}`, onlyTheTestServer)).rejects.toThrow(
      'leads to a private or local address',
    );
    await expect(fetchImageBytes(`${web.base}/redirect-to/${encodeURIComponent('file:///etc/passwd')}`, onlyTheTestServer)).rejects.toThrow(
      'is not an http(s) address',
    );
    await expect(fetchImageBytes(`${web.base}/missing.jpg`, onlyTheTestServer)).rejects.toThrow(`"${web.base}/missing.jpg" answered 404`);
    const loop = `${web.base}/redirect-to/${encodeURIComponent(`${web.base}/redirect-to/`)}`;
    await expect(fetchImageBytes(loop, onlyTheTestServer)).rejects.toThrow('redirects more than 5 times');
    // Followed when the target is allowed.
    expect(
      (await fetchImageBytes(`${web.base}/redirect-to/${encodeURIComponent(`${web.base}/ok.png`)}`, onlyTheTestServer)).length,
    ).toBeGreaterThan(0);
  });

  it('applies the upload rules to what it fetches', async () => {
    const plan = await planImport(
      t.db,
      await readProductCsv(
        Buffer.from(
          [
            'Handle,Title,Body (HTML),Category,Option1 Name,Option1 Value,Variant Price,Image Src',
            `html-image,Html Image,x,shirts,Size,M,20.00,${web.base}/not-an-image.png`,
          ].join('\n'),
        ),
      ),
    );
    const summary = await applyImport(t.db, plan, {
      storage: new LocalStorage(path.join(t.config.dataDir, 'storage')),
      imageAddresses: onlyTheTestServer,
    });
    expect(summary.created).toBe(0);
    expect(summary.errors).toEqual([
      { row: 2, column: 'Image Src', message: `"${web.base}/not-an-image.png" is not a PNG, JPEG or WebP image` },
    ]);
  });
});
