import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { deleteStoredImage } from '../../src/server/display-copies';
import { createStorage } from '../../src/server/storage/create';
import { LocalStorage } from '../../src/server/storage/local';
import { S3Storage } from '../../src/server/storage/s3';
import { sweepStoredFiles } from '../../src/server/storage/sweep';
import { parseStorageUrl, StorageKeyTakenError, type ListedFile, type Storage } from '../../src/server/storage/storage';
import { STORAGE_UNAVAILABLE } from '../../src/shared/schemas/admin-uploads';
import { callerAs, sharedCallers, sharedTestApp, testConfig, uploadFile } from '../support/app';
import { createCategory, createProduct } from '../support/factories';
import { sharedBeforeAll } from '../support/hooks';
import { startLocalS3, unreachableS3Env } from '../support/s3';

// Files on S3 (ADR 0014), against a local S3 server in the test process: the storage
// contract holds on the bucket as on disk; uploads, display copies and mockups land in the bucket
// and the app serves them; print files go to admins only; a public base URL sends public files to
// a CDN; the sweep of files nothing names deletes from the bucket; a bucket out of reach fails
// uploads with a clear message, stores nothing, and shows on /readyz.

const s3 = sharedBeforeAll(startLocalS3, (server) => server.stop());
const t = sharedTestApp(() => s3.env);
const as = sharedCallers(t);

const picture = (width: number, height: number, background = '#c2410c') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** The bucket's object keys of a stored URL: the original and every copy named after it. */
const objectsOf = async (url: string) => {
  const { bucket, key } = parseStorageUrl(url)!;
  return (await s3.keys()).filter((name) => name.startsWith(`${bucket}/${key}`));
};

describe('the storage contract, on S3 as on the local disk', () => {
  const local = sharedBeforeAll(() =>
    Promise.resolve({ storage: new LocalStorage(fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-local-'))) }),
  );
  const remote = sharedBeforeAll(async () => ({ storage: await createStorage(testConfig(s3.env)) }));
  afterAll(() => fs.rmSync(local.storage.root, { recursive: true, force: true }));

  it.each([
    ['local disk', () => local.storage],
    ['S3', () => remote.storage],
  ])('%s: put, get, open, refuse a taken key, delete (twice), check', async (_kind, storageOf) => {
    const storage: Storage = storageOf();
    const bytes = await picture(8, 8);
    const key = `contract-${crypto.randomUUID()}.png`;
    expect(await storage.put('categories', key, bytes, 'image/png')).toEqual({
      bucket: 'categories',
      key,
      url: `/storage/categories/${key}`,
    });
    expect(Buffer.from((await storage.get('categories', key))!).equals(bytes)).toBe(true);

    const opened = (await storage.open('categories', key))!;
    expect(opened.contentType).toBe('image/png');
    expect(opened.size).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);

    await expect(storage.put('categories', key, await picture(8, 8, '#000000'), 'image/png')).rejects.toBeInstanceOf(StorageKeyTakenError);
    expect(Buffer.from((await storage.get('categories', key))!).equals(bytes)).toBe(true);

    await storage.delete('categories', key);
    await storage.delete('categories', key);
    expect(await storage.get('categories', key)).toBeNull();
    expect(await storage.open('categories', key)).toBeNull();
    await expect(storage.check()).resolves.toBeUndefined();
  });

  /**
   * What list() yields for a bucket, by key. Once each: s3rver, unlike S3, does not list in key
   * order (a key's longer namesakes, its display copies, come first), so its pages can overlap.
   */
  const listed = async (storage: Storage, bucket: string) => {
    const files = new Map<string, ListedFile>();
    for await (const file of storage.list(bucket)) files.set(file.key, file);
    return [...files.values()].sort((a, b) => a.key.localeCompare(b.key));
  };

  it.each([
    ['local disk', () => local.storage],
    // Two keys a page, so that five files take three ListObjectsV2 requests.
    ['S3, page after page', () => new S3Storage(testConfig(s3.env).s3!, { listPageSize: 2 })],
  ])('%s: list gives every key of a bucket with when it was stored, and nothing of other buckets', async (_kind, storageOf) => {
    const storage: Storage = storageOf();
    const bucket = `list-${crypto.randomUUID().slice(0, 8)}`;
    expect(await listed(storage, bucket)).toEqual([]);
    const before = Date.now();
    const keys = ['a.png', 'a.png.320w.avif', 'b.jpg', 'c.webp', 'd.png'];
    for (const key of keys) await storage.put(bucket, key, await picture(4, 4), 'image/png');
    await storage.put(`${bucket}-other`, 'e.png', await picture(4, 4), 'image/png');

    const files = await listed(storage, bucket);
    expect(files.map((file) => file.key)).toEqual(keys);
    for (const { lastModified } of files) {
      expect(lastModified).toBeInstanceOf(Date);
      // S3 keeps whole seconds.
      expect(lastModified.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
      expect(lastModified.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    }
    await storage.delete(bucket, 'b.jpg');
    expect((await listed(storage, bucket)).map((file) => file.key)).toEqual(['a.png', 'a.png.320w.avif', 'c.webp', 'd.png']);
  });

  it('local disk: list leaves out a file put() is still writing', async () => {
    const storage: Storage = local.storage;
    await storage.put('templates', 'whole.png', await picture(4, 4), 'image/png');
    // What put() writes aside before linking it into place (a process that died mid-write leaves it).
    fs.writeFileSync(path.join(local.storage.root, 'templates', `.half.png.${crypto.randomUUID()}.partial`), 'half');
    expect((await listed(storage, 'templates')).map((file) => file.key)).toEqual(['whole.png']);
  });
});

describe('the store on S3', () => {
  it('stores an upload and its display copies in the bucket, records them, and serves the file', async () => {
    const bytes = await picture(800, 600);
    const res = await uploadFile(t.app, bytes, { bucket: 'categories', cookie: as.cookies.admin });
    expect(res.status).toBe(201);
    const url = res.body.url!;
    const original = url.replace('/storage/', '');
    expect(await objectsOf(url)).toEqual(
      [original, ...[320, 640, 800].flatMap((width) => [`${original}.${width}w.avif`, `${original}.${width}w.webp`])].sort(),
    );
    expect(await t.db.selectFrom('image_variants').select(['width', 'height']).where('image_url', '=', url).executeTakeFirst()).toEqual({
      width: 800,
      height: 600,
    });
    // Nothing on the local disk.
    expect(fs.existsSync(path.join(t.config.dataDir, 'storage', 'categories'))).toBe(false);

    const served = await t.app.inject(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=3600');
    expect(served.rawPayload.equals(bytes)).toBe(true);
    const copy = await t.app.inject(`${url}.320w.webp`);
    expect(copy.headers['content-type']).toBe('image/webp');
    expect((await sharp(copy.rawPayload).metadata()).width).toBe(320);
    // A browser that has it already gets 304.
    expect((await t.app.inject({ url, headers: { 'if-none-match': served.headers.etag! } })).statusCode).toBe(304);
    expect((await t.app.inject(url.replace('.png', '-missing.png'))).statusCode).toBe(404);
  });

  it('serves print files (product art) to admins only', async () => {
    const res = await uploadFile(t.app, await picture(64, 64), { bucket: 'product-art', cookie: as.cookies.admin });
    const url = res.body.url!;
    expect((await t.app.inject(url)).statusCode).toBe(401);
    expect((await t.app.inject({ url, headers: { cookie: as.cookies.customer } })).statusCode).toBe(403);
    const served = await t.app.inject({ url, headers: { cookie: as.cookies.admin } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toBe('private, max-age=3600');
  });

  it('renders mockups from art in the bucket, stores them there, and deletes an image with its copies', async () => {
    const white = await picture(1000, 1200, '#ffffff');
    const [front, back] = [
      await t.app.storage.put('templates', 's3-front.png', white, 'image/png'),
      await t.app.storage.put('templates', 's3-back.png', white, 'image/png'),
    ];
    const template = await t.db
      .insertInto('mockup_templates')
      .values({ name: 'On S3', front_template_url: front.url, back_template_url: back.url })
      .returning('id')
      .executeTakeFirstOrThrow();
    const art = await t.app.storage.put(
      'product-art',
      `s3-art-${crypto.randomUUID()}.png`,
      await picture(1200, 1200, '#1e3a8a'),
      'image/png',
    );
    const product = await createProduct(t.db, { category_id: (await createCategory(t.db)).id, front_art_url: art.url });

    const admin = callerAs(t, as.users.admin, { storage: t.app.storage });
    const position = { x: 50, y: 30, width: 30, height: 30, rotation: 0 };
    const saved = await admin.admin.mockups.save({ productId: product.id, templateId: template.id, front: position, defaultSide: 'front' });
    const mockupUrl = saved.front_mockup_url!;
    expect(mockupUrl).toMatch(/^\/storage\/mockups\/.+\.png$/);
    expect(await objectsOf(mockupUrl)).toHaveLength(1 + 4 * 2);
    // The mockup itself, at print resolution, is for admins; its copies for everyone.
    const asAdmin = { headers: { cookie: as.cookies.admin } };
    const served = await t.app.inject({ url: mockupUrl, ...asAdmin });
    expect(served.statusCode).toBe(200);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png' });
    expect((await t.app.inject(mockupUrl)).statusCode).toBe(401);
    expect((await t.app.inject(`${mockupUrl}.320w.webp`)).statusCode).toBe(200);

    await deleteStoredImage(t.db, t.app.storage, mockupUrl);
    expect(await objectsOf(mockupUrl)).toEqual([]);
    expect((await t.app.inject({ url: mockupUrl, ...asAdmin })).statusCode).toBe(404);
    expect((await t.app.inject(`${mockupUrl}.320w.webp`)).statusCode).toBe(404);
  });

  describe('with a public base URL (a CDN in front of the bucket)', () => {
    const cdn = sharedBeforeAll(
      async () => {
        const app = await buildApp(testConfig({ ...s3.env, S3_PUBLIC_URL: 'http://cdn.test:9000/files/' }), {
          database: t.database,
          logger: false,
        });
        return { app };
      },
      ({ app }) => app.close(),
    );

    it('sends public files there, keeps print files in the app, and lets pages load images from it', async () => {
      const stored = await cdn.app.storage.put('categories', `cdn-${crypto.randomUUID()}.png`, await picture(4, 4), 'image/png');
      const res = await cdn.app.inject(stored.url);
      expect(res.statusCode).toBe(301);
      expect(res.headers.location).toBe(`http://cdn.test:9000/files/categories/${stored.key}`);
      expect(res.headers['content-security-policy']).toContain("img-src 'self' https: http://cdn.test:9000");

      const art = await cdn.app.storage.put('product-art', `cdn-${crypto.randomUUID()}.png`, await picture(4, 4), 'image/png');
      const served = await cdn.app.inject({ url: art.url, headers: { cookie: as.cookies.admin } });
      expect(served.statusCode).toBe(200);

      // A mockup's display copies go there; the mockup itself, at print resolution, stays in the app
      // (for everyone while it has no copies, as here).
      const mockup = await cdn.app.storage.put('mockups', `cdn-${crypto.randomUUID()}.png`, await picture(4, 4), 'image/png');
      expect((await cdn.app.inject(mockup.url)).statusCode).toBe(200);
      const copy = await cdn.app.inject(`${mockup.url}.320w.webp`);
      expect(copy.statusCode).toBe(301);
      expect(copy.headers.location).toBe(`http://cdn.test:9000/files/mockups/${mockup.key}.320w.webp`);
    });
  });

  it('the sweep of stored files deletes an abandoned upload and its copies from the bucket, and keeps a named one', async () => {
    const upload = async () =>
      (await uploadFile(t.app, await picture(800, 600), { bucket: 'categories', cookie: as.cookies.admin })).body.url!;
    const abandoned = await upload();
    const named = await upload();
    await createCategory(t.db, { image_url: named });
    expect(await objectsOf(abandoned)).toHaveLength(7);

    const olderThan = new Date(Date.now() + 60_000);
    const outcome = await sweepStoredFiles(
      { db: t.db, storage: t.app.storage, shared: Boolean(process.env.TEST_DATABASE_URL) },
      { olderThan },
    );
    expect(outcome).toMatchObject({ copies: 0 });
    expect(await objectsOf(abandoned)).toEqual([]);
    expect(await objectsOf(named)).toHaveLength(7);
  });
});

describe('when the bucket cannot be reached', () => {
  const down = sharedBeforeAll(
    async () => {
      const config = testConfig(await unreachableS3Env());
      return { config, app: await buildApp(config, { database: t.database, logger: false }) };
    },
    ({ app }) => app.close(),
  );
  const variantCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('image_variants')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('the app still starts; an upload answers 503 with a clear message and records nothing; /readyz says why', async () => {
    const variantsBefore = await variantCount();
    const res = await uploadFile(down.app, await picture(64, 64), { bucket: 'categories', cookie: as.cookies.admin });
    expect(res).toEqual({ status: 503, body: { error: STORAGE_UNAVAILABLE } });
    expect(await variantCount()).toBe(variantsBefore);

    const ready = await down.app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ ok: false, error: 'File storage unavailable', listener: 'connected' });
    expect((await down.app.inject('/healthz')).statusCode).toBe(200);

    const file = await down.app.inject('/storage/categories/anything.png');
    expect(file.statusCode).toBe(503);
    expect(await text(file.stream())).toContain(STORAGE_UNAVAILABLE);
  });

  it('a mockup save answers the same message and changes nothing', async () => {
    const product = await createProduct(t.db, {
      category_id: (await createCategory(t.db)).id,
      front_art_url: '/storage/product-art/gone.png',
    });
    const template = await t.db
      .insertInto('mockup_templates')
      .values({ name: 'Out of reach', front_template_url: '/storage/templates/gone.png', back_template_url: '/storage/templates/gone.png' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const admin = callerAs(t, as.users.admin, { storage: down.app.storage });
    const position = { x: 50, y: 30, width: 30, height: 30, rotation: 0 };
    await expect(
      admin.admin.mockups.save({ productId: product.id, templateId: template.id, front: position, defaultSide: 'front' }),
    ).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: STORAGE_UNAVAILABLE,
    });
    const row = await t.db.selectFrom('products').select('front_mockup_url').where('id', '=', product.id).executeTakeFirstOrThrow();
    expect(row.front_mockup_url).toBeNull();
  });
});
