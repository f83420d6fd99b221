import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../support/app';

// The plain HTTP side of the app: health checks, public storage files and the client with its SPA fallback.

let t: TestApp;
let clientDir: string;
const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-client-'));
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(
    path.join(clientDir, 'index.html'),
    '<!doctype html><html><head><title>x</title><!--store-config--></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(clientDir, 'assets', 'main-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(clientDir, 'robots.txt'), 'User-agent: *');
  t = await createTestApp({ STORE_NAME: 'Tee </script> Club' }, { clientDir });
  await t.app.storage.put('product-art', 'shirt.png', PNG_BYTES, 'image/png');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('health', () => {
  it('answers liveness and readiness', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ ok: true });
    expect((await t.app.inject('/readyz')).json()).toEqual({ ok: true });
  });
});

describe('storage files', () => {
  it('serves a stored file with its real type, nosniff and a one-hour public cache', async () => {
    const res = await t.app.inject('/storage/product-art/shirt.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.rawPayload.equals(PNG_BYTES)).toBe(true);
  });

  it('refuses to overwrite a stored file', async () => {
    await expect(t.app.storage.put('product-art', 'shirt.png', PNG_BYTES, 'image/png')).rejects.toThrow();
  });

  it('answers 404 for a missing file and for paths outside the storage root', async () => {
    expect((await t.app.inject('/storage/product-art/missing.png')).statusCode).toBe(404);
    expect((await t.app.inject('/storage/../package.json')).statusCode).toBe(404);
    expect((await t.app.inject('/storage/product-art/%2e%2e%2f%2e%2e%2fpackage.json')).statusCode).toBe(404);
  });
});

describe('the client', () => {
  it('serves index.html for a deep link, never cached, with the store settings safely embedded', async () => {
    const res = await t.app.inject('/product/some-tee?x=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const json = /<script id="store-config" type="application\/json">(.*?)<\/script>/.exec(res.body)?.[1];
    expect(JSON.parse(json!)).toEqual({ storeName: 'Tee </script> Club', storeEmail: t.config.storeEmail });
    expect(res.body).toContain('<title>Tee /script> Club</title>');
  });

  it('serves the home page and /index.html the same way', async () => {
    const home = await t.app.inject('/');
    const index = await t.app.inject('/index.html');
    expect(home.statusCode).toBe(200);
    expect(index.body).toBe(home.body);
    expect(home.body).toContain('id="store-config"');
  });

  it('caches hashed assets for a year and other files not at all', async () => {
    const asset = await t.app.inject('/assets/main-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject('/robots.txt')).headers['cache-control']).toBe('no-cache');
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

  it('sends protective headers on every response', async () => {
    const res = await t.app.inject('/');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});
