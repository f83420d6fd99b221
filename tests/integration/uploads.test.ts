import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_PIXELS } from '../../src/shared/constants';
import { FILE_TOO_LARGE, IMAGE_TOO_MANY_PIXELS, IMAGE_UNREADABLE, NOT_AN_IMAGE } from '../../src/shared/schemas/admin-uploads';
import { sharedCallers, sharedTestApp, TEST_ORIGIN, uploadFile } from '../support/app';
import { sharedBeforeAll } from '../support/hooks';
import { pngDeclaringSize, pngHeaderThenGarbage } from '../support/images';

// POST /api/uploads/:bucket with real multipart bodies (built by the platform's FormData, as a
// browser would): admins only, images judged by their bytes and then decoded whole, 50 MB cut off
// while streaming, random names (display copies alongside: display-copies.test.ts), and the stored
// file served with its real type, nosniff, a one-hour cache and an inline Content-Disposition naming it.

const t = sharedTestApp();
const as = sharedCallers(t);
// One small picture in each accepted format.
const images = sharedBeforeAll(async () => {
  const image = () => sharp({ create: { width: 16, height: 12, channels: 3, background: '#c2410c' } });
  const [png, jpeg, webp] = await Promise.all([image().png().toBuffer(), image().jpeg().toBuffer(), image().webp().toBuffer()]);
  return { png, jpeg, webp };
});
let storageRoot: string;

beforeAll(() => {
  storageRoot = path.join(t.config.dataDir, 'storage');
});

beforeEach(() => fs.rmSync(storageRoot, { recursive: true, force: true }));

/** Every file under the storage root, as bucket/key. */
function storedFiles(): string[] {
  if (!fs.existsSync(storageRoot)) return [];
  return fs
    .readdirSync(storageRoot, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(storageRoot, path.join(entry.parentPath, entry.name)));
}

/** An upload by the admin to product-art unless told otherwise. */
const upload = (bytes: Buffer, options: { filename?: string; type?: string; bucket?: string; cookie?: string; origin?: string } = {}) =>
  uploadFile(t.app, bytes, { ...options, bucket: options.bucket ?? 'product-art', cookie: options.cookie ?? as.cookies.admin });

/** A product-art upload by the admin with a body written by hand, not by FormData. */
const postAsAdmin = (contentType: string, payload: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/uploads/product-art',
    headers: { origin: TEST_ORIGIN, cookie: as.cookies.admin, 'content-type': contentType },
    payload,
  });

describe('accepted images', () => {
  it.each([
    ['a PNG', () => images.png, 'art.png', 'image/png', 'png'],
    ['a JPEG sent with a generic type and name', () => images.jpeg, 'photo.bin', 'application/octet-stream', 'jpg'],
    ['a WebP', () => images.webp, 'art.webp', 'image/webp', 'webp'],
  ])(
    'stores %s under a new random name and serves it with its real type, nosniff and cache headers',
    async (_case, bytes, filename, type, extension) => {
      const res = await upload(bytes(), { filename, type });
      expect(res.status).toBe(201);
      const url = res.body.url!;
      expect(url).toMatch(new RegExp(`^/storage/product-art/[0-9a-f-]{36}\\.${extension}$`));
      // The original and its display copies (one width: the image is 16 px wide).
      const stored = url.replace('/storage/', '');
      expect(storedFiles().sort()).toEqual([stored, `${stored}.16w.avif`, `${stored}.16w.webp`]);

      // A print file: for admins only.
      const served = await t.app.inject({ url, headers: { cookie: as.cookies.admin } });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(extension === 'jpg' ? 'image/jpeg' : `image/${extension}`);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['cache-control']).toBe('private, max-age=3600');
      expect(served.headers['content-disposition']).toBe(`inline; filename="${url.split('/').pop()}"`);
      expect(served.rawPayload.equals(bytes())).toBe(true);
    },
  );

  it('never overwrites: the same file uploaded twice is stored twice', async () => {
    const first = await upload(images.png);
    const second = await upload(images.png);
    expect(first.body.url).not.toBe(second.body.url);
    // Each with its two display copies.
    expect(storedFiles()).toHaveLength(6);
  });

  it('accepts a larger image than the default request limit, into another allowed bucket', async () => {
    const big = await sharp({
      create: { width: 1400, height: 1400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await upload(big, { bucket: 'templates' });
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^\/storage\/templates\/.+\.png$/);
  });
});

describe('refused uploads store nothing', () => {
  it("refuses a text file named x.png and declared image/png: 'Please select an image file'", async () => {
    const res = await upload(Buffer.from('this is not a picture, just text\n'), { filename: 'x.png', type: 'image/png' });
    expect(res).toEqual({ status: 400, body: { error: NOT_AN_IMAGE } });
    expect(storedFiles()).toEqual([]);
  });

  it('refuses images of other types (SVG can carry scripts; GIF is not accepted)', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(await upload(svg, { filename: 'a.svg', type: 'image/svg+xml' })).toEqual({ status: 400, body: { error: NOT_AN_IMAGE } });
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect(await upload(gif, { filename: 'a.gif', type: 'image/gif' })).toEqual({ status: 400, body: { error: NOT_AN_IMAGE } });
    expect(storedFiles()).toEqual([]);
  });

  it("refuses a file over 50 MB with 413 'File size must be less than 50MB'", async () => {
    // A real PNG header, so only the size can be the reason.
    const huge = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    images.png.copy(huge);
    const res = await upload(huge);
    expect(res).toEqual({ status: 413, body: { error: FILE_TOO_LARGE } });
    expect(storedFiles()).toEqual([]);
  });

  it('refuses customers (403) and anonymous callers (401)', async () => {
    expect(await upload(images.png, { cookie: as.cookies.customer })).toEqual({ status: 403, body: { error: 'Admin access required' } });
    expect(await upload(images.png, { cookie: '' })).toEqual({ status: 401, body: { error: 'Not authenticated' } });
    expect(storedFiles()).toEqual([]);
  });

  it('refuses a cross-origin post, even from an admin', async () => {
    const res = await upload(images.png, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(storedFiles()).toEqual([]);
  });

  it('refuses a bucket outside the allowed list and a body that is not multipart', async () => {
    expect((await upload(images.png, { bucket: 'secrets' })).status).toBe(404);
    const json = await postAsAdmin('application/json', '{"file":"x"}');
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ error: NOT_AN_IMAGE });
    expect(storedFiles()).toEqual([]);
  });
});

describe('files that look like images but do not decode', () => {
  it.each([
    ['a PNG signature and header followed by garbage', () => pngHeaderThenGarbage(images.png)],
    ['a PNG cut off halfway (its header intact)', () => images.png.subarray(0, Math.floor(images.png.length / 2))],
    ['a JPEG cut off halfway', () => images.jpeg.subarray(0, Math.floor(images.jpeg.length / 2))],
    ['a WebP cut off halfway', () => images.webp.subarray(0, Math.floor(images.webp.length / 2))],
  ])('refuses %s with 400 and the unreadable-image message, storing nothing', async (_case, bytes) => {
    expect(await upload(bytes())).toEqual({ status: 400, body: { error: IMAGE_UNREADABLE } });
    expect(storedFiles()).toEqual([]);
  });

  it('refuses a decompression bomb by the size its header declares, before decoding it', async () => {
    // A few hundred bytes claiming 20000 x 20000 pixels (400 megapixels, over 1 GB decoded).
    const bomb = pngDeclaringSize(images.png, 20_000, 20_000);
    expect(20_000 * 20_000).toBeGreaterThan(MAX_UPLOAD_PIXELS);
    expect(await upload(bomb)).toEqual({ status: 400, body: { error: IMAGE_TOO_MANY_PIXELS } });
    expect(storedFiles()).toEqual([]);
  });
});

describe('a malformed multipart body', () => {
  it('is refused with 400 and the upload message, not a 500', async () => {
    const boundary = '----cut';
    const cut = await postAsAdmin(
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG`,
    );
    expect(cut.statusCode).toBe(400);
    expect(cut.json()).toMatchObject({ error: NOT_AN_IMAGE });
    const noBoundary = await postAsAdmin('multipart/form-data', 'nothing');
    expect(noBoundary.statusCode).toBe(400);
  });
});
