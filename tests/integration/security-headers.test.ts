import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { createTestApp, TEST_ORIGIN, testConfig, type TestApp } from '../support/app';

// The protective headers (docs/ARCHITECTURE.md § Security) on the three kinds of answer the
// app gives: an HTML page, an API response and a stored file; HSTS in production only.

let t: TestApp;
let clientDir: string;
const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-client-'));
  fs.writeFileSync(
    path.join(clientDir, 'index.html'),
    '<!doctype html><html><head><title>x</title><!--store-config--></head><body><div id="root"></div></body></html>',
  );
  t = await createTestApp({}, { clientDir });
  await t.app.storage.put('categories', 'shirt-1.png', PNG_BYTES, 'image/png');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

/** The Content-Security-Policy header as directive -> sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/**
 * What every answer must carry, whatever it is. Pages get script and style nonces; other answers
 * run no script, so their policy allows this origin's scripts and styles alone.
 */
function expectProtectiveHeaders(res: LightMyRequestResponse, { page = false } = {}) {
  const policy = csp(res);
  const scripts = policy.get('script-src')!;
  const isNonce = (source: string) => /^'nonce-[0-9a-f]{32}'$/.test(source);
  expect(scripts).toContain("'self'");
  expect(scripts.filter(isNonce)).toHaveLength(page ? 1 : 0);
  expect(policy.get('style-src')!.filter(isNonce)).toHaveLength(page ? 1 : 0);
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(policy.get('script-src-attr')).toEqual(["'none'"]);
  expect(policy.get('style-src')).not.toContain("'unsafe-inline'");
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('connect-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  // Not outside production: a developer's http://localhost must not be pinned to https.
  expect(res.headers['strict-transport-security']).toBeUndefined();
}

describe('security headers', () => {
  it('on an HTML page, with a new script nonce for each response', async () => {
    const first = await t.app.inject('/shop');
    const second = await t.app.inject('/');
    expect(first.headers['content-type']).toMatch(/^text\/html/);
    expectProtectiveHeaders(first, { page: true });
    expectProtectiveHeaders(second, { page: true });
    expect(csp(first).get('script-src')).not.toEqual(csp(second).get('script-src'));
    // Images: this origin, and https URLs an admin may give for a product, category or template.
    expect(csp(first).get('img-src')).toEqual(["'self'", 'https:']);
    // Served over http here: no upgrade of requests to https.
    expect(csp(first).has('upgrade-insecure-requests')).toBe(false);
  });

  it('on API answers: a tRPC query, a refused cross-origin post, a health check and a 404', async () => {
    const query = await t.app.inject('/trpc/catalog.categories');
    expect(query.statusCode).toBe(200);
    expectProtectiveHeaders(query);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.signIn',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(refused.statusCode).toBe(403);
    expectProtectiveHeaders(refused);
    expectProtectiveHeaders(await t.app.inject('/healthz'));
    const missing = await t.app.inject('/api/nothing');
    expect(missing.statusCode).toBe(404);
    expectProtectiveHeaders(missing);
  });

  it("on addresses that cannot be decoded: the app's own 400, with a plain message", async () => {
    for (const url of ['/%', '/product/%FF', '/trpc/catalog.product%']) {
      const res = await t.app.inject(url);
      expect([res.statusCode, res.json()]).toEqual([400, { error: 'Bad request' }]);
      expectProtectiveHeaders(res);
    }
  });

  it('on headers over 16 KB: a 431 that closes the connection, so a kept-alive one is not used again', async () => {
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const socket = net.connect(Number(address.port), address.hostname);
    const answer: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => answer.push(chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => undefined);
    socket.write(`GET /shop HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\nX-Filler: ${'a'.repeat(17 * 1024)}\r\n\r\n`);
    await closed;
    const [head, body] = Buffer.concat(answer).toString().split('\r\n\r\n') as [string, string];
    const [statusLine, ...lines] = head.split('\r\n');
    expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    expect(headers.connection).toBe('close');
    expectProtectiveHeaders({ headers } as unknown as LightMyRequestResponse);
    expect(JSON.parse(body)).toEqual({ error: 'Request headers too large' });
  });

  it('on a stored file: its real type, nosniff, and an inline Content-Disposition naming it', async () => {
    const res = await t.app.inject('/storage/categories/shirt-1.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe('inline; filename="shirt-1.png"');
    expectProtectiveHeaders(res);
  });

  it('in production: Strict-Transport-Security for a year, and http URLs upgraded behind https', async () => {
    const config = testConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example' });
    const app = await buildApp(config, { database: t.database, logger: false });
    try {
      for (const url of ['/healthz', '/trpc/catalog.categories', '/product/%FF']) {
        const res = await app.inject({ url, headers: { origin: TEST_ORIGIN } });
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
        expect(csp(res).get('upgrade-insecure-requests')).toEqual([]);
        expect(csp(res).get('frame-ancestors')).toEqual(["'none'"]);
      }
    } finally {
      await app.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});
