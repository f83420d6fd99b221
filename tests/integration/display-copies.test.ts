import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database';
import type { DB } from '../../src/server/db/schema';
import {
  deleteStoredImage,
  displayCopyKey,
  displayWidths,
  makeMissingDisplayCopies,
  startDisplayCopyBackfill,
  type BackfillDeps,
} from '../../src/server/display-copies';
import { LocalStorage } from '../../src/server/storage/local';
import { KEY_PATTERN, parseStorageUrl } from '../../src/server/storage/storage';
import { plainImage, type DisplayImage } from '../../src/shared/display-image';
import { callerAs, sharedCallers, sharedStoredFiles, sharedTestApp, uploadFile } from '../support/app';
import { createCategory, createProduct } from '../support/factories';
import { pngHeaderThenGarbage } from '../support/images';

// Display copies: every stored image gets AVIF and WebP copies at 320, 640, 960 and
// 1440 px (never wider than the original), stored next to it and recorded in image_variants with
// the original's size; the catalog hands them out as <picture> sources; deleting an image deletes
// them; a start-up pass makes the missing ones, once, skipping what it cannot read.

const t = sharedTestApp();
const as = sharedCallers(t);
/** On a PostgreSQL server (`files.shared`), as the app does there, the pass claims each image first. */
const files = sharedStoredFiles(t);

/** A picture with shapes and a gradient (not a flat colour, which encoders would make trivial), `width` x `height`. */
const picture = (width: number, height: number) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
        '<defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#c2410c"/><stop offset="1" stop-color="#1e3a8a"/></linearGradient></defs>' +
        `<rect width="${width}" height="${height}" fill="url(#g)"/>` +
        `<circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#fef3c7"/></svg>`,
    ),
  )
    .png()
    .toBuffer();

async function upload(bytes: Buffer, bucket = 'product-art'): Promise<string> {
  const res = await uploadFile(t.app, bytes, { bucket, cookie: as.cookies.admin });
  expect(res.status).toBe(201);
  return res.body.url!;
}

/** The files of an original's bucket whose names start with its key: the original and its copies. */
function filesOf(url: string): string[] {
  const { bucket, key } = parseStorageUrl(url)!;
  const dir = path.join(files.storage.root, bucket);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.startsWith(key)) : [];
}

const copyNames = (url: string, widths: number[]) => {
  const { key } = parseStorageUrl(url)!;
  return widths.flatMap((width) => [displayCopyKey(key, width, 'avif'), displayCopyKey(key, width, 'webp')]);
};

/** Format and size of a stored copy, read back by decoding it. */
async function decoded(url: string, width: number, format: 'avif' | 'webp') {
  const { bucket, key } = parseStorageUrl(url)!;
  const bytes = await files.storage.get(bucket, displayCopyKey(key, width, format));
  expect(bytes, `${format} copy at ${width} px of ${url}`).not.toBeNull();
  const meta = await sharp(Buffer.from(bytes!)).metadata();
  // sharp names AVIF files by their container (HEIF) and their codec (AV1).
  return { format: meta.format === 'heif' ? `heif/${meta.compression}` : meta.format, width: meta.width, height: meta.height };
}

const variantsRow = (url: string) =>
  t.db.selectFrom('image_variants').select(['width', 'height', 'display_widths']).where('image_url', '=', url).executeTakeFirst();

/** A logger that keeps what it is told, for the start-up pass. */
function recordingLog() {
  const lines: { level: string; args: unknown[] }[] = [];
  const log: BackfillDeps['log'] = {
    info: (...args: unknown[]) => void lines.push({ level: 'info', args }),
    warn: (...args: unknown[]) => void lines.push({ level: 'warn', args }),
    error: (...args: unknown[]) => void lines.push({ level: 'error', args }),
  };
  return { log, lines };
}

describe('widths and names', () => {
  it('makes the standard widths narrower than the original plus its own width, never wider, up to 1440', () => {
    expect(displayWidths(200, 250)).toEqual([200]);
    expect(displayWidths(320, 400)).toEqual([320]);
    expect(displayWidths(800, 1000)).toEqual([320, 640, 800]);
    expect(displayWidths(960, 1200)).toEqual([320, 640, 960]);
    expect(displayWidths(3600, 4000)).toEqual([320, 640, 960, 1440]);
    // No copy taller than an encoder can make.
    expect(displayWidths(1000, 17_000)).toEqual([320, 640, 960, 963]);
    expect(displayWidths(4, 20_000)).toEqual([3]);
  });

  it('names copies after the original key, and keeps even the longest key a valid, distinct one', () => {
    expect(displayCopyKey('abc.png', 640, 'avif')).toBe('abc.png.640w.avif');
    const long = (tail: string) => `${'a'.repeat(195)}${tail}`;
    const [one, two] = [displayCopyKey(long('x.png'), 1440, 'webp'), displayCopyKey(long('y.png'), 1440, 'webp')];
    for (const key of [one, two]) expect(key).toMatch(KEY_PATTERN);
    expect(one).not.toBe(two);
  });
});

describe('when an image is stored', () => {
  it('an uploaded product image gets AVIF and WebP copies at 320, 640, 960 and 1440 px, and its size is recorded', async () => {
    const url = await upload(await picture(2000, 2400));
    expect(await variantsRow(url)).toEqual({ width: 2000, height: 2400, display_widths: [320, 640, 960, 1440] });
    expect(filesOf(url).sort()).toEqual([parseStorageUrl(url)!.key, ...copyNames(url, [320, 640, 960, 1440])].sort());
    for (const width of [320, 640, 960, 1440]) {
      expect(await decoded(url, width, 'avif')).toEqual({ format: 'heif/av1', width, height: Math.round(width * 1.2) });
      expect(await decoded(url, width, 'webp')).toEqual({ format: 'webp', width, height: Math.round(width * 1.2) });
    }
    // Served like any stored file, with its real type.
    const served = await t.app.inject({
      url: `/storage/product-art/${displayCopyKey(parseStorageUrl(url)!.key, 640, 'avif')}`,
      headers: { cookie: as.cookies.admin },
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/avif');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a very tall image gets copies no taller than an encoder can make, and its upload succeeds', async () => {
    const url = await upload(await picture(4, 20_000), 'categories');
    expect(await variantsRow(url)).toEqual({ width: 4, height: 20_000, display_widths: [3] });
    expect(await decoded(url, 3, 'webp')).toEqual({ format: 'webp', width: 3, height: 15_000 });
    // One pixel wide: its copy cannot be narrower, so it is squeezed to the tallest an encoder makes.
    const thread = await upload(await picture(1, 20_000), 'categories');
    expect(await variantsRow(thread)).toEqual({ width: 1, height: 20_000, display_widths: [1] });
    expect(await decoded(thread, 1, 'avif')).toEqual({ format: 'heif/av1', width: 1, height: 16_383 });
  });

  it('an image narrower than 320 px gets copies at its own width only', async () => {
    const url = await upload(await picture(200, 250), 'categories');
    expect(await variantsRow(url)).toEqual({ width: 200, height: 250, display_widths: [200] });
    expect(filesOf(url)).toHaveLength(3);
    expect(await decoded(url, 200, 'avif')).toEqual({ format: 'heif/av1', width: 200, height: 250 });
    expect(await decoded(url, 200, 'webp')).toEqual({ format: 'webp', width: 200, height: 250 });
  });

  describe('a generated mockup', () => {
    let templateId: string;
    let categoryId: string;
    const FRONT = { x: 50, y: 30, width: 30, height: 30, rotation: 0 };

    beforeAll(async () => {
      const white = await sharp({ create: { width: 1000, height: 1200, channels: 4, background: '#ffffff' } })
        .png()
        .toBuffer();
      const [front, back] = [
        await files.storage.put('templates', 'dc-front.png', white, 'image/png'),
        await files.storage.put('templates', 'dc-back.png', white, 'image/png'),
      ];
      templateId = (
        await t.db
          .insertInto('mockup_templates')
          .values({ name: 'Copies', front_template_url: front.url, back_template_url: back.url })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      categoryId = (await createCategory(t.db)).id;
    });

    const productWithArt = async () => {
      const art = await files.storage.put('product-art', `dc-art-${crypto.randomUUID()}.png`, await picture(1200, 1200), 'image/png');
      return createProduct(t.db, { category_id: categoryId, front_art_url: art.url, back_art_url: art.url });
    };

    it('gets copies of its print-resolution PNG, which stays as it was for printing', async () => {
      const product = await productWithArt();
      const saved = await as.admin.admin.mockups.save({ productId: product.id, templateId, front: FRONT, defaultSide: 'front' });
      const url = saved.front_mockup_url!;
      const { bucket, key } = parseStorageUrl(url)!;
      expect(await sharp(Buffer.from((await files.storage.get(bucket, key))!)).metadata()).toMatchObject({
        format: 'png',
        width: 3600,
        height: 4320,
      });
      expect(await variantsRow(url)).toEqual({ width: 3600, height: 4320, display_widths: [320, 640, 960, 1440] });
      expect(await decoded(url, 1440, 'avif')).toEqual({ format: 'heif/av1', width: 1440, height: 1728 });
      expect(await decoded(url, 320, 'webp')).toEqual({ format: 'webp', width: 320, height: 384 });
    });

    it('a save that fails after storing a side deletes that side and its copies', async () => {
      const product = await productWithArt();
      // Its own files only: an earlier test's colour mockups may still be rendering in the background.
      const mockupsOfProduct = () =>
        fs.readdirSync(path.join(files.storage.root, 'mockups')).filter((name) => name.startsWith(`${product.slug}-`));
      // Storage that fails the back side's write, after the front and its copies are stored.
      const failingBack = new (class extends LocalStorage {
        override put(bucket: string, key: string, bytes: Uint8Array) {
          return key.includes('-back-') ? Promise.reject(new Error('disk full')) : super.put(bucket, key, bytes);
        }
      })(files.storage.root);
      const admin = callerAs(t, as.users.admin, { storage: failingBack });
      await expect(
        admin.admin.mockups.save({ productId: product.id, templateId, front: FRONT, back: FRONT, defaultSide: 'front' }),
      ).rejects.toThrow();
      expect(mockupsOfProduct()).toEqual([]);
      const row = await t.db.selectFrom('products').select('front_mockup_url').where('id', '=', product.id).executeTakeFirstOrThrow();
      expect(row.front_mockup_url).toBeNull();
    });
  });
});

describe('deleting an image', () => {
  it('deletes its copies and its record with it, and a second delete is no error', async () => {
    const url = await upload(await picture(700, 700));
    expect(filesOf(url)).toHaveLength(1 + 2 * 3);
    await deleteStoredImage(t.db, files.storage, url);
    expect(filesOf(url)).toEqual([]);
    expect(await variantsRow(url)).toBeUndefined();
    await deleteStoredImage(t.db, files.storage, url);
  });
});

describe('the catalog', () => {
  it('returns each image with its display sources, keeping the URL fields', async () => {
    const url = await upload(await picture(1000, 1250), 'mockups');
    const banner = await upload(await picture(1600, 500), 'categories');
    const category = await createCategory(t.db, { image_url: banner });
    const product = await createProduct(t.db, {
      category_id: category.id,
      is_featured: true,
      image_url: url,
      front_mockup_url: url,
      back_mockup_url: 'https://cdn.example.com/back.png',
    });
    const { key } = parseStorageUrl(url)!;
    const copy = (width: number, format: string) => `/storage/mockups/${key}.${width}w.${format}`;
    const expected: DisplayImage = {
      src: copy(1000, 'webp'),
      width: 1000,
      height: 1250,
      sources: [
        {
          type: 'image/avif',
          srcset: `${copy(320, 'avif')} 320w, ${copy(640, 'avif')} 640w, ${copy(960, 'avif')} 960w, ${copy(1000, 'avif')} 1000w`,
        },
        {
          type: 'image/webp',
          srcset: `${copy(320, 'webp')} 320w, ${copy(640, 'webp')} 640w, ${copy(960, 'webp')} 960w, ${copy(1000, 'webp')} 1000w`,
        },
      ],
    };
    const catalog = as.anonymous.catalog;

    const detail = await catalog.productBySlug({ slug: product.slug });
    expect(detail).toMatchObject({ image_url: url, front_mockup_url: url, image: expected, front_mockup: expected });
    // An outside URL has no copies: shown as it is.
    expect(detail?.back_mockup).toEqual(plainImage('https://cdn.example.com/back.png'));

    const listed = (await catalog.products({ category: category.slug })).items;
    expect(listed).toEqual([expect.objectContaining({ image_url: url, image: expected })]);
    expect((await catalog.featuredProducts()).find((p) => p.id === product.id)?.image).toEqual(expected);
    expect(await catalog.cartProducts({ ids: [product.id] })).toEqual([expect.objectContaining({ image_url: url, image: expected })]);

    const categoryImage = (await catalog.categoryBySlug({ slug: category.slug }))?.image;
    expect(categoryImage?.width).toBe(1600);
    expect(categoryImage?.sources.map((source) => source.srcset.split(', ').map((entry) => entry.split(' ')[1]))).toEqual([
      ['320w', '640w', '960w', '1440w'],
      ['320w', '640w', '960w', '1440w'],
    ]);
    expect((await catalog.categories()).find((c) => c.id === category.id)?.image).toEqual(categoryImage);

    // No image at all stays null.
    const bare = await createProduct(t.db, { category_id: category.id });
    expect((await catalog.productBySlug({ slug: bare.slug }))?.image).toBeNull();
  });
});

describe('the start-up pass over images stored without copies', () => {
  it('makes the missing copies, skips (and logs) what it cannot read, and changes nothing when run again', async () => {
    // Stored behind the upload route's back, as before copies existed: a good image, one whose
    // bytes are damaged, and one whose file is gone.
    const good = await files.storage.put('mockups', 'old-mockup.png', await picture(900, 1080), 'image/png');
    const corrupt = await files.storage.put('categories', 'old-broken.png', pngHeaderThenGarbage(await picture(40, 40)), 'image/png');
    const missing = '/storage/product-art/never-stored.png';
    const category = await createCategory(t.db, { image_url: corrupt.url });
    await createProduct(t.db, { category_id: category.id, image_url: good.url, front_art_url: missing });
    // Anything else earlier tests left without copies is made now, so the counts below are this test's.
    await makeMissingDisplayCopies({ ...files, log: recordingLog().log });
    await t.db.deleteFrom('image_variants').where('image_url', '=', good.url).execute();
    for (const name of filesOf(good.url).filter((name) => name !== 'old-mockup.png'))
      fs.rmSync(path.join(files.storage.root, 'mockups', name));

    const first = recordingLog();
    const firstRun = await makeMissingDisplayCopies({ ...files, log: first.log });
    expect(firstRun.made).toBe(1);
    expect(await variantsRow(good.url)).toEqual({ width: 900, height: 1080, display_widths: [320, 640, 900] });
    expect(await decoded(good.url, 900, 'avif')).toEqual({ format: 'heif/av1', width: 900, height: 1080 });
    // One warning per image skipped (the factories' default URLs name files no test stored, too).
    const warned = first.lines.filter((line) => line.level === 'warn').map(({ args }) => (args[0] as { url: string }).url);
    expect(warned).toEqual(expect.arrayContaining([corrupt.url, missing]));
    expect(firstRun.failed).toBe(warned.length);
    expect(await variantsRow(corrupt.url)).toBeUndefined();

    const filesAfterFirst = fs
      .readdirSync(path.join(files.storage.root, 'mockups'))
      .map((name) => [name, fs.statSync(path.join(files.storage.root, 'mockups', name)).mtimeMs]);
    const second = recordingLog();
    expect(await makeMissingDisplayCopies({ ...files, log: second.log })).toEqual({
      made: 0,
      failed: firstRun.failed,
      elsewhere: 0,
    });
    expect(
      fs
        .readdirSync(path.join(files.storage.root, 'mockups'))
        .map((name) => [name, fs.statSync(path.join(files.storage.root, 'mockups', name)).mtimeMs]),
    ).toEqual(filesAfterFirst);
  });

  it('finishes copies an interrupted run left half made', async () => {
    const original = await files.storage.put('mockups', 'half-done.png', await picture(700, 840), 'image/png');
    await createProduct(t.db, { category_id: (await createCategory(t.db)).id, image_url: original.url });
    // An earlier run stored one copy, then the process stopped before the rest and the record.
    const early = await sharp(await picture(320, 384))
      .avif()
      .toBuffer();
    await files.storage.put('mockups', displayCopyKey('half-done.png', 320, 'avif'), early, 'image/avif');

    expect(await makeMissingDisplayCopies({ ...files, log: recordingLog().log })).toMatchObject({ made: 1 });
    expect(filesOf(original.url).sort()).toEqual(['half-done.png', ...copyNames(original.url, [320, 640, 700])].sort());
    expect(await variantsRow(original.url)).toEqual({ width: 700, height: 840, display_widths: [320, 640, 700] });
  });

  it('runs in the background from start-up: stops when told, logs what it did, and never throws', async () => {
    await files.storage.put('categories', 'backfill-start.png', await picture(500, 400), 'image/png');
    await createCategory(t.db, { image_url: '/storage/categories/backfill-start.png' });
    // Stopped (shutdown) before its first image: it ends there, quietly.
    const stopped = recordingLog();
    await startDisplayCopyBackfill({ ...files, log: stopped.log }).stop();
    expect(await variantsRow('/storage/categories/backfill-start.png')).toBeUndefined();
    expect(stopped.lines).toEqual([]);

    const { log, lines } = recordingLog();
    await startDisplayCopyBackfill({ ...files, log }).finished;
    expect(lines.find((line) => line.level === 'info')?.args[0]).toMatchObject({ made: 1 });
    expect(await variantsRow('/storage/categories/backfill-start.png')).toMatchObject({ display_widths: [320, 500] });

    // A pass whose database cannot be reached logs the error instead of crashing the process.
    const unreachable: Db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ host: '127.0.0.1', port: 1 }) }) });
    const broken = recordingLog();
    const failing = startDisplayCopyBackfill({ ...files, db: unreachable, log: broken.log });
    await failing.finished;
    await failing.stop();
    expect(broken.lines.map((line) => line.level)).toEqual(['error']);
    await unreachable.destroy();
  });

  it('tries again later while a pass leaves images without copies', async () => {
    const url = '/storage/categories/backfill-later.png';
    // Its file is not there yet (the storage was away when the pass came to it, say).
    await createCategory(t.db, { image_url: url });
    const backfill = startDisplayCopyBackfill({ ...files, log: recordingLog().log }, 100);
    try {
      await backfill.finished;
      expect(await variantsRow(url)).toBeUndefined();
      await files.storage.put('categories', 'backfill-later.png', await picture(400, 300), 'image/png');
      await expect.poll(() => variantsRow(url), { timeout: 10_000 }).toMatchObject({ display_widths: [320, 400] });
    } finally {
      await backfill.stop();
    }
  });

  // Processes share a PostgreSQL server; the embedded database has one (and one session).
  it.runIf(process.env.TEST_DATABASE_URL)(
    'leaves an image whose copies another process is making to that process, and makes them later if it dies first',
    async () => {
      await files.storage.put('categories', 'claimed-elsewhere.png', await picture(400, 300), 'image/png');
      const url = '/storage/categories/claimed-elsewhere.png';
      await createCategory(t.db, { image_url: url });
      let backfill: ReturnType<typeof startDisplayCopyBackfill> | undefined;
      // The other process's claim, held on a connection of its own, and let go without the copies (it died).
      await t.db.connection().execute(async (other) => {
        const lock = sql`hashtextextended(${`display-copies:${url}`}, 0)`;
        await sql`select pg_advisory_lock(${lock})`.execute(other);
        try {
          expect(await makeMissingDisplayCopies({ ...files, log: recordingLog().log })).toMatchObject({ elsewhere: 1 });
          backfill = startDisplayCopyBackfill({ ...files, log: recordingLog().log }, 100);
          await backfill.finished;
          expect(await variantsRow(url)).toBeUndefined();
        } finally {
          await sql`select pg_advisory_unlock(${lock})`.execute(other);
        }
      });
      try {
        await expect.poll(() => variantsRow(url), { timeout: 10_000 }).toMatchObject({ display_widths: [320, 400] });
      } finally {
        await backfill?.stop();
      }
    },
  );
});
