import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { ADMIN_REQUIRED } from '../../src/server/trpc/init';
import { createTestApp, signInHttp, TEST_ORIGIN, testConfig, type TestApp } from '../support/app';
import { createAdmin, createCustomer, createProduct } from '../support/factories';

// The plain HTTP side of the app: health checks, public storage files and the client with its SPA fallback.

let t: TestApp;
let clientDir: string;
const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const MAIN_JS = 'console.log("threadline");\n'.repeat(200);
// Real pages are well over the 1 KB below which nothing is compressed.
const PAGE_PADDING = `<!-- ${'x'.repeat(2000)} -->`;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-client-'));
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(
    path.join(clientDir, 'index.html'),
    `<!doctype html><html><head><title>x</title><!--store-config--></head><body><div id="root"></div>${PAGE_PADDING}</body></html>`,
  );
  fs.writeFileSync(path.join(clientDir, 'assets', 'main-abc123.js'), MAIN_JS);
  // What the build's precompress step writes next to each asset.
  fs.writeFileSync(path.join(clientDir, 'assets', 'main-abc123.js.br'), zlib.brotliCompressSync(MAIN_JS));
  fs.writeFileSync(path.join(clientDir, 'assets', 'main-abc123.js.gz'), zlib.gzipSync(MAIN_JS));
  fs.writeFileSync(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp({ STORE_NAME: 'Tee </script> Club' }, { clientDir });
  await t.app.storage.put('categories', 'shirt.png', PNG_BYTES, 'image/png');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('health', () => {
  it('answers liveness and readiness', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ ok: true });
    expect((await t.app.inject('/readyz')).json()).toEqual({ ok: true, listener: 'connected' });
    // Without METRICS_TOKEN there is no metrics route at all.
    expect((await t.app.inject('/metrics')).statusCode).toBe(404);
  });
});

describe('storage files', () => {
  it('serves a stored file with its real type, nosniff and a one-hour public cache', async () => {
    const res = await t.app.inject('/storage/categories/shirt.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.rawPayload.equals(PNG_BYTES)).toBe(true);
  });

  it('serves print files (product art) to admins only, with a private cache', async () => {
    await t.app.storage.put('product-art', 'print.png', PNG_BYTES, 'image/png');
    expect((await t.app.inject('/storage/product-art/print.png')).json()).toEqual({ error: 'Not authenticated' });
    const customer = await signInHttp(t.app, (await createCustomer(t.db)).email);
    expect((await t.app.inject({ url: '/storage/product-art/print.png', headers: { cookie: customer } })).json()).toEqual({
      error: ADMIN_REQUIRED,
    });
    const admin = await signInHttp(t.app, (await createAdmin(t.db)).email);
    const res = await t.app.inject({ url: '/storage/product-art/print.png', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=3600');
    expect(res.rawPayload.equals(PNG_BYTES)).toBe(true);
  });

  it('refuses to overwrite a stored file', async () => {
    await expect(t.app.storage.put('categories', 'shirt.png', PNG_BYTES, 'image/png')).rejects.toThrow();
  });

  it('answers 404 for a missing file and for paths outside the storage root', async () => {
    expect((await t.app.inject('/storage/categories/missing.png')).statusCode).toBe(404);
    expect((await t.app.inject('/storage/../package.json')).statusCode).toBe(404);
    expect((await t.app.inject('/storage/categories/%2e%2e%2f%2e%2e%2fpackage.json')).statusCode).toBe(404);
  });
});

describe('the client', () => {
  it('serves index.html for a deep link, never cached, with the store settings safely embedded', async () => {
    const res = await t.app.inject('/product/some-tee?x=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const json = /<script id="store-config" type="application\/json">(.*?)<\/script>/.exec(res.body)?.[1];
    expect(JSON.parse(json!)).toEqual({ storeName: 'Tee </script> Club', storeEmail: t.config.storeEmail });
    expect(res.body).toContain('<title>Tee /script> Club</title>');
  });

  it('serves the home page and /index.html the same way', async () => {
    const home = await t.app.inject('/');
    const index = await t.app.inject('/index.html');
    expect(home.statusCode).toBe(200);
    // The same page, each answer with its own nonce on the inline script that holds early taps.
    const withoutNonce = (body: string) => body.replace(/nonce="[0-9a-f]+"/g, 'nonce=""');
    expect(withoutNonce(index.body)).toBe(withoutNonce(home.body));
    expect(home.body).toContain('id="store-config"');
    const nonce = /'nonce-([0-9a-f]+)'/.exec(String(home.headers['content-security-policy']))?.[1];
    expect(home.body).toContain(`<script nonce="${nonce}">(function(){`);
  });

  it('caches hashed assets for a year and other files not at all', async () => {
    const asset = await t.app.inject('/assets/main-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject('/favicon.svg')).headers['cache-control']).toBe('no-cache');
  });

  it("serves an asset's brotli or gzip copy made at build time to a browser that takes it", async () => {
    const br = await t.app.inject({ url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(MAIN_JS);

    const gzip = await t.app.inject({ url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(MAIN_JS);

    const plain = await t.app.inject({ url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(MAIN_JS);
  });

  it('compresses pages and API answers over 1 KB, and leaves small ones alone', async () => {
    const page = await t.app.inject({ url: '/shop', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(zlib.brotliDecompressSync(page.rawPayload).toString()).toContain('id="store-config"');

    for (let i = 0; i < 12; i++)
      await createProduct(t.db, { name: `Compressed Tee ${i}`, description: 'A soft tee for long rides. '.repeat(4) });
    const products = await t.app.inject({
      url: `/trpc/catalog.products?input=${encodeURIComponent('{}')}`,
      headers: { origin: TEST_ORIGIN, 'accept-encoding': 'gzip' },
    });
    expect(products.statusCode).toBe(200);
    expect(products.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(products.rawPayload).toString()).toContain('Compressed Tee 11');

    // A refusal keeps its status and type through the compressor.
    const refused = await t.app.inject({
      url: '/trpc/admin.contact.newCount',
      headers: { origin: TEST_ORIGIN, 'accept-encoding': 'gzip' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);

    const health = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'gzip' } });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ ok: true });
  });

  it('sends an API answer whole with its length, not as a chunked stream', async () => {
    const res = await t.app.inject({
      url: `/trpc/catalog.categories,catalog.products?batch=1&input=${encodeURIComponent('{"1":{}}')}`,
      headers: { origin: TEST_ORIGIN },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.json<unknown[]>()).toHaveLength(2);
  });

  it('answers 404 (not the page) for missing files and API paths', async () => {
    expect((await t.app.inject('/assets/missing.js')).statusCode).toBe(404);
    expect((await t.app.inject('/api/nothing')).statusCode).toBe(404);
    const trpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/nope',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(trpc.statusCode).toBe(404);
  });

  it('answers 405 with the methods it takes to any other method on an API path', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      const res = await t.app.inject({ method, url: '/trpc/catalog.categories', headers: { origin: TEST_ORIGIN } });
      expect([method, res.statusCode, res.headers.allow, res.json()]).toEqual([method, 405, 'GET, POST', { error: 'Method not allowed' }]);
    }
  });

  it('sends protective headers on every response', async () => {
    const res = await t.app.inject('/');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});

describe('a page the server fails to render', () => {
  it('still goes out, for the browser to render, with status 500', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-client-'));
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
    );
    // A server-rendering module that fails every page, as an overflowed stack once did.
    fs.mkdirSync(path.join(dir, '.ssr'));
    fs.writeFileSync(
      path.join(dir, '.ssr', 'entry-server.js'),
      "export const hasPage = () => true;\nexport async function renderPage() { throw new RangeError('Maximum call stack size exceeded'); }\n",
    );
    const failing = await createTestApp({}, { clientDir: dir });
    try {
      const res = await failing.app.inject('/shop');
      expect([res.statusCode, res.headers['content-type']]).toEqual([500, 'text/html; charset=utf-8']);
      expect(res.body).toContain('<div id="root"></div>');
    } finally {
      await failing.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a client that leaves before its answer is complete', () => {
  it('is logged at debug, not as an error', async () => {
    // An asset with no copy made at build time, compressed as it is sent, and large enough that
    // the client leaves while it is still being sent.
    fs.writeFileSync(path.join(clientDir, 'assets', 'large-def456.js'), `// ${randomBytes(3 * 1024 * 1024).toString('base64')}\n`);
    const lines: { level: number; msg: string }[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
        done();
      },
    });
    const config = testConfig({ LOG_LEVEL: 'debug' });
    const app = await buildApp(config, { database: t.database, clientDir, logStream });
    try {
      const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
      const socket = net.connect(Number(address.port), address.hostname);
      socket.on('error', () => undefined);
      socket.write('GET /assets/large-def456.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n');
      await new Promise((resolve) => socket.once('data', resolve));
      socket.destroy();
      const gone = (line: { msg: string }) => /premature/i.test(line.msg);
      await expect.poll(() => lines.filter(gone).length).toBeGreaterThan(0);
      expect(lines.filter((line) => gone(line) && line.level > 20)).toEqual([]);
    } finally {
      await app.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});
