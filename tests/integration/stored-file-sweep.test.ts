import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/database';
import { displayCopyKey, makeDisplayCopies } from '../../src/server/display-copies';
import { seedIfEmpty } from '../../src/server/seed/seed';
import { LocalStorage } from '../../src/server/storage/local';
import { parseStorageUrl, type Storage } from '../../src/server/storage/storage';
import {
  STORED_FILE_GRACE_MS,
  startStoredFileSweep,
  SWEPT_ELSEWHERE,
  sweepStoredFiles,
  type SweepOptions,
  type SweepOutcome,
} from '../../src/server/storage/sweep';
import { sharedCallers, sharedStoredFiles, sharedTestApp, uploadFile } from '../support/app';
import { createTestDatabase } from '../support/db';
import { createCategory, createOrder, createProduct } from '../support/factories';

// Stored files nothing names any more (ADR 0021): abandoned uploads, replaced mockups and a
// deleted product's files are deleted a day after they were stored, with their display copies
// and image_variants rows; whatever any column names stays, in whatever form it names it; a
// failure to read the names or list the files deletes nothing; one process sweeps at a time.

const t = sharedTestApp();
const as = sharedCallers(t);
/** On a PostgreSQL server (`files.shared`), as the app does there, a sweep takes the advisory lock first. */
const files = sharedStoredFiles(t);

const HOUR_MS = 60 * 60 * 1000;
/** Every file counts as old enough: a minute from now. */
const everything = (): SweepOptions => ({ olderThan: new Date(Date.now() + 60_000) });
const sweep = (options: SweepOptions = {}, on: Storage = files.storage) => sweepStoredFiles({ ...files, storage: on }, options);

const picture = (width: number, height: number, background = '#1e3a8a') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** An 800 x 600 image uploaded as an admin's form does, with its display copies: its URL. */
async function upload(bucket: string): Promise<string> {
  const res = await uploadFile(t.app, await picture(800, 600), { bucket, cookie: as.cookies.admin });
  expect(res.status).toBe(201);
  return res.body.url!;
}

/** A file stored directly (as the mockup generator and the seed do), with its copies when asked. */
async function stored(bucket: string, options: { key?: string; copies?: boolean } = {}): Promise<string> {
  const { url } = await files.storage.put(bucket, options.key ?? `sweep-${crypto.randomUUID()}.png`, await picture(400, 300), 'image/png');
  if (options.copies) await makeDisplayCopies(t.db, files.storage, url);
  return url;
}

/** Names in the URL's bucket folder that start with its key: the original and its copies. */
function filesOf(url: string): string[] {
  const { bucket, key } = parseStorageUrl(url)!;
  const folder = path.join(files.storage.root, bucket);
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.startsWith(key)) : [];
}

const exists = (url: string) => {
  const { bucket, key } = parseStorageUrl(url)!;
  return fs.existsSync(path.join(files.storage.root, bucket, key));
};

/** Sets the stored time of a file and its copies `hours` back. */
function storedHoursAgo(url: string, hours: number) {
  const { bucket } = parseStorageUrl(url)!;
  const when = new Date(Date.now() - hours * HOUR_MS);
  for (const name of filesOf(url)) fs.utimesSync(path.join(files.storage.root, bucket, name), when, when);
}

const variantsRow = (url: string) =>
  t.db.selectFrom('image_variants').select('display_widths').where('image_url', '=', url).executeTakeFirst();

/** The storage, with some of its methods replaced. */
const storageWith = (overrides: Partial<Storage>): Storage =>
  new Proxy(files.storage, {
    get(target, property, receiver) {
      if (property in overrides) return overrides[property as keyof Storage];
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });

function recordingLog() {
  const lines: { level: 'info' | 'error'; args: unknown[] }[] = [];
  return {
    lines,
    log: {
      info: (...args: unknown[]) => void lines.push({ level: 'info', args }),
      error: (...args: unknown[]) => void lines.push({ level: 'error', args }),
    },
  };
}

describe('the sweep of stored files nothing names', () => {
  it('deletes an upload abandoned more than a day ago with its copies and image_variants row; keeps one abandoned less than a day ago', async () => {
    const abandoned = await upload('categories');
    const recent = await upload('categories');
    // The original and its AVIF and WebP copies at 320, 640 and 800 px.
    expect(filesOf(abandoned)).toHaveLength(7);
    storedHoursAgo(abandoned, 25);
    storedHoursAgo(recent, 23);
    expect(STORED_FILE_GRACE_MS).toBe(24 * HOUR_MS);

    expect(await sweep()).toEqual({ images: 1, copies: 0 });
    expect(filesOf(abandoned)).toEqual([]);
    expect(await variantsRow(abandoned)).toBeUndefined();
    expect((await t.app.inject(abandoned)).statusCode).toBe(404);
    expect(filesOf(recent)).toHaveLength(7);
    expect(await variantsRow(recent)).toEqual({ display_widths: [320, 640, 800] });
  });

  it("deletes a product's mockup a later save replaced; keeps the new one, its artwork and the template", async () => {
    const white = await sharp({ create: { width: 1000, height: 1200, channels: 4, background: '#ffffff' } })
      .png()
      .toBuffer();
    const front = await files.storage.put('templates', `sweep-front-${crypto.randomUUID()}.png`, white, 'image/png');
    const back = await files.storage.put('templates', `sweep-back-${crypto.randomUUID()}.png`, white, 'image/png');
    const template = await t.db
      .insertInto('mockup_templates')
      .values({ name: 'Swept', front_template_url: front.url, back_template_url: back.url })
      .returning('id')
      .executeTakeFirstOrThrow();
    const art = (await files.storage.put('product-art', `sweep-art-${crypto.randomUUID()}.png`, await picture(1200, 1200), 'image/png'))
      .url;
    const replaced = await stored('mockups', { copies: true });
    const product = await createProduct(t.db, { front_art_url: art, front_mockup_url: replaced, image_url: replaced });

    const position = { x: 50, y: 30, width: 30, height: 30, rotation: 0 };
    const saved = await as.admin.admin.mockups.save({
      productId: product.id,
      templateId: template.id,
      front: position,
      defaultSide: 'front',
    });
    const current = saved.front_mockup_url!;
    expect(current).not.toBe(replaced);
    // The product's colour named the old mockup too, until its own is rendered after the save.
    const colourMockup = () =>
      t.db.selectFrom('product_colours').select('front_mockup_url').where('product_id', '=', product.id).executeTakeFirstOrThrow();
    for (const deadline = Date.now() + 20_000; (await colourMockup()).front_mockup_url === replaced && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const colourCurrent = (await colourMockup()).front_mockup_url!;
    expect(colourCurrent).not.toBe(replaced);

    expect(await sweep(everything())).toMatchObject({ images: expect.any(Number) as number });
    expect(filesOf(replaced)).toEqual([]);
    expect(await variantsRow(replaced)).toBeUndefined();
    // The print file and its AVIF and WebP copies at the four widths.
    expect(filesOf(current)).toHaveLength(9);
    expect(await variantsRow(current)).toBeDefined();
    for (const url of [art, front.url, back.url, colourCurrent]) expect(exists(url), url).toBe(true);
  });

  it("deletes a deleted product's artwork and mockups, but not the picture an order line keeps", async () => {
    const productWithFiles = async () => {
      const files = {
        front_art_url: await stored('product-art'),
        back_art_url: await stored('product-art'),
        front_mockup_url: await stored('mockups', { copies: true }),
        back_mockup_url: await stored('mockups', { copies: true }),
      };
      return createProduct(t.db, { ...files, image_url: files.front_mockup_url });
    };
    const ordered = await productWithFiles();
    const never = await productWithFiles();
    await createOrder(t.db, { customer_id: as.users.customer.id, status: 'delivered', payment_status: 'paid' }, [
      {
        product_id: ordered.id,
        product_name: ordered.name,
        product_image: ordered.image_url,
        size: 'M',
        quantity: 1,
        unit_price: '20.00',
        total_price: '20.00',
        print_status: 'ready',
      },
    ]);
    for (const { id } of [ordered, never]) await as.admin.admin.products.delete({ id });

    await sweep(everything());
    // The order's picture keeps its copies (and row): the order pages show them.
    expect(filesOf(ordered.front_mockup_url!)).toHaveLength(1 + 2 * 2);
    expect(await variantsRow(ordered.front_mockup_url!)).toEqual({ display_widths: [320, 400] });
    for (const url of [ordered.front_art_url, ordered.back_art_url, ordered.back_mockup_url]) expect(filesOf(url!), url!).toEqual([]);
    for (const url of [never.front_art_url, never.back_art_url, never.front_mockup_url, never.back_mockup_url]) {
      expect(filesOf(url!), url!).toEqual([]);
    }
    expect(await variantsRow(never.front_mockup_url!)).toBeUndefined();
  });

  it('keeps every file a column names, however it names it: its address, an absolute or CDN address, a copy of it, in free text', async () => {
    const file = (bucket: string) => stored(bucket, { copies: true });
    const key = (url: string) => parseStorageUrl(url)!.key;
    const named: string[] = [];
    const name = async (bucket: string) => {
      const url = await file(bucket);
      named.push(url);
      return url;
    };

    // Named by the image columns, by their addresses.
    const category = await createCategory(t.db, { image_url: await name('categories') });
    const product = await createProduct(t.db, {
      category_id: category.id,
      image_url: await name('mockups'),
      front_art_url: await name('product-art'),
      back_art_url: await name('product-art'),
      front_mockup_url: await name('mockups'),
      back_mockup_url: await name('mockups'),
    });
    await createOrder(t.db, { customer_id: as.users.customer.id }, [
      {
        product_id: null,
        product_name: 'Gone',
        product_image: await name('mockups'),
        size: 'L',
        quantity: 1,
        unit_price: '20.00',
        total_price: '20.00',
      },
    ]);
    await t.db
      .insertInto('artwork_library')
      .values({ name: 'Swept art', artwork_url: await name('artwork') })
      .execute();
    await t.db
      .insertInto('mockup_templates')
      .values({ name: 'Named', front_template_url: await name('templates'), back_template_url: await name('templates') })
      .execute();

    // Named in other forms: an absolute address of the store, a CDN's (S3_PUBLIC_URL), the address
    // of a display copy (what "copy image address" gives on a storefront page), free text.
    await createCategory(t.db, { image_url: `https://shop.example/storage/categories/${key(await name('categories'))}` });
    await createCategory(t.db, { image_url: `https://cdn.example/files/categories/${key(await name('categories'))}` });
    await createCategory(t.db, { image_url: `/storage/categories/${displayCopyKey(key(await name('categories')), 640, 'webp')}` });
    await t.db
      .updateTable('products')
      .set({ description: `Worn at the rally (photo: https://shop.example/storage/artwork/${key(await name('artwork'))}).` })
      .where('id', '=', product.id)
      .execute();
    await t.db
      .updateTable('store_settings')
      .set({ payment_instructions: `Pay by transfer; our bank's form: /storage/templates/${key(await name('templates'))}` })
      .execute();
    const unnamed = await file('categories');

    await sweep(everything());
    for (const url of named) {
      expect(exists(url), url).toBe(true);
      expect(await variantsRow(url), url).toBeDefined();
    }
    expect(filesOf(unnamed)).toEqual([]);
  });

  it('deletes a display copy whose original is gone once it is a day old; keeps the copies of an original too long for plain copy names', async () => {
    const orphaned = await stored('categories', { copies: true });
    const young = await stored('categories', { copies: true });
    for (const url of [orphaned, young]) {
      // The original went without its copies (a cleanup that failed half way, say).
      const { bucket, key } = parseStorageUrl(url)!;
      await files.storage.delete(bucket, key);
      await t.db.deleteFrom('image_variants').where('image_url', '=', url).execute();
    }
    storedHoursAgo(orphaned, 25);
    // Copies of a long key are named with a hash of it: still known as its copies.
    const long = await stored('categories', { key: `${'long-'.repeat(38)}x.png`, copies: true });
    const longKey = parseStorageUrl(long)!.key;
    const longCopies = [320, 400].flatMap((width) => [displayCopyKey(longKey, width, 'avif'), displayCopyKey(longKey, width, 'webp')]);
    expect(longCopies.every((copy) => copy.length === 200 && !copy.startsWith(longKey))).toBe(true);
    await createCategory(t.db, { image_url: long });
    storedHoursAgo(long, 25);
    for (const copy of longCopies) {
      const when = new Date(Date.now() - 25 * HOUR_MS);
      fs.utimesSync(path.join(files.storage.root, 'categories', copy), when, when);
    }

    expect(await sweep()).toEqual({ images: 0, copies: 4 });
    expect(filesOf(orphaned)).toEqual([]);
    expect(filesOf(young)).toHaveLength(4);
    expect(exists(long)).toBe(true);
    for (const copy of longCopies) expect(fs.existsSync(path.join(files.storage.root, 'categories', copy)), copy).toBe(true);
  });

  it('deletes nothing when the names cannot be read, or a bucket cannot be listed', async () => {
    const abandoned = await stored('product-art', { copies: true });
    await sql`ALTER TABLE artwork_library RENAME TO artwork_library_away`.execute(t.db);
    try {
      await expect(sweep(everything())).rejects.toThrow(/artwork_library/);
    } finally {
      await sql`ALTER TABLE artwork_library_away RENAME TO artwork_library`.execute(t.db);
    }
    expect(filesOf(abandoned)).toHaveLength(5);

    // Every bucket is listed before anything is deleted.
    const mockupsDown = storageWith({
      list: (bucket) => {
        if (bucket === 'mockups') throw new Error('mockups cannot be listed');
        return files.storage.list(bucket);
      },
    });
    await expect(sweep(everything(), mockupsDown)).rejects.toThrow('mockups cannot be listed');
    expect(filesOf(abandoned)).toHaveLength(5);
    expect(await variantsRow(abandoned)).toBeDefined();
  });

  it('runs in the background: first soon after start, then again and again; logs what it deleted, and a failure, and goes on', async () => {
    let lists = 0;
    const failingOnce = storageWith({
      list: (bucket) => {
        lists++;
        if (lists === 1) throw new Error('storage away for a moment');
        return files.storage.list(bucket);
      },
    });
    const { log, lines } = recordingLog();
    const abandoned = await upload('artwork');
    storedHoursAgo(abandoned, 25);

    const task = startStoredFileSweep({ ...files, storage: failingOnce, log }, { firstAfterMs: 10, intervalMs: 100 });
    try {
      await expect.poll(() => lines.map((line) => line.level), { timeout: 10_000 }).toEqual(['error', 'info']);
      expect(lines[0]!.args[1]).toBe('sweep of stored files failed');
      expect(lines[1]!.args).toEqual([{ images: 1, copies: 0 }, 'stored files nothing names were deleted']);
      expect(filesOf(abandoned)).toEqual([]);
    } finally {
      await task.stop();
    }
    // Stopped: no run after it.
    const listedWhenStopped = lists;
    await sleep(300);
    expect(lists).toBe(listedWhenStopped);
  });

  // Processes share a PostgreSQL server; the embedded database has one.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'two sweeps started together delete each file once, without errors: one finds the other sweeping',
    async () => {
      const abandoned = [await upload('categories'), await upload('mockups'), await upload('templates')];
      const deleted: string[] = [];
      const recording = storageWith({
        delete: async (bucket, key) => {
          deleted.push(`${bucket}/${key}`);
          await files.storage.delete(bucket, key);
        },
        // Slow enough that the first still holds the lock when the second asks for it.
        list: async function* (bucket) {
          await sleep(100);
          yield* files.storage.list(bucket);
        },
      });

      const outcomes = await Promise.all([sweep(everything(), recording), sweep(everything(), recording)]);
      expect(outcomes.filter((outcome) => outcome === SWEPT_ELSEWHERE)).toHaveLength(1);
      expect(outcomes.find((outcome) => outcome !== SWEPT_ELSEWHERE)).toMatchObject({ images: expect.any(Number) as number });
      expect(deleted.length).toBeGreaterThan(0);
      expect(new Set(deleted).size).toBe(deleted.length);
      for (const url of abandoned) expect(filesOf(url)).toEqual([]);
      // The lock is free again: a later sweep runs (and finds nothing left).
      expect(await sweep(everything())).toEqual({ images: 0, copies: 0 });
    },
  );
});

describe('on the demo store, after a sweep of everything', () => {
  let database: DatabaseHandle;
  let root: string;
  let demoStorage: Storage;
  let unnamed: string;
  let outcome: SweepOutcome;

  beforeAll(async () => {
    database = await createTestDatabase();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-sweep-'));
    demoStorage = new LocalStorage(root);
    expect(await seedIfEmpty(database.db, demoStorage)).toBe(true);
    // Copies (and image_variants rows) of the category banners, as the start-up pass makes them
    // for every image; all of them would take minutes.
    const { rows } = await sql<{ url: string }>`select image_url as url from categories`.execute(database.db);
    for (const { url } of rows) await makeDisplayCopies(database.db, demoStorage, url);
    unnamed = (await demoStorage.put('mockups', 'left-over.png', await picture(40, 40), 'image/png')).url;

    outcome = await sweepStoredFiles({ ...files, db: database.db, storage: demoStorage }, everything());
  }, 180_000);

  afterAll(async () => {
    await database?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const existsIn = (url: string) => {
    const { bucket, key } = parseStorageUrl(url)!;
    return fs.existsSync(path.join(root, bucket, key));
  };

  it('every file any text or JSON column of any table names is still stored', async () => {
    // Every column, not the sweep's list of them: a column the list forgot fails here.
    const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'character varying', 'json', 'jsonb', 'ARRAY')
      order by table_name, column_name
    `.execute(database.db);
    expect(columns.length).toBeGreaterThan(50);

    const named = new Map<string, string>();
    for (const { table_name: table, column_name: column } of columns) {
      const { rows } = await sql<{ value: string }>`
        select distinct ${sql.ref(column)}::text as value from ${sql.table(table)} where ${sql.ref(column)}::text like '%/storage/%'
      `.execute(database.db);
      for (const { value } of rows) {
        for (const [url] of value.matchAll(/\/storage\/[a-z0-9][a-z0-9-]*\/[A-Za-z0-9][A-Za-z0-9._-]*/g))
          named.set(url, `${table}.${column}`);
      }
    }
    // Banners, templates, every product's artwork and mockups, order pictures, the library's art.
    expect(named.size).toBeGreaterThan(70);
    const missing = [...named].filter(([url]) => !existsIn(url));
    expect(missing).toEqual([]);
    // The sweep did sweep: the one file nothing names is gone, and only it.
    expect(existsIn(unnamed)).toBe(false);
    expect(outcome).toEqual({ images: 1, copies: 0 });
  });

  it('every display copy an image_variants row promises is still stored', async () => {
    const rows = await database.db.selectFrom('image_variants').select(['image_url', 'display_widths']).execute();
    expect(rows).toHaveLength(3);
    for (const { image_url: url, display_widths: widths } of rows) {
      const { bucket, key } = parseStorageUrl(url)!;
      for (const width of widths) {
        for (const format of ['avif', 'webp'] as const)
          expect(existsIn(`/storage/${bucket}/${displayCopyKey(key, width, format)}`)).toBe(true);
      }
    }
  });
});
