import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { DatabaseHandle } from '../../src/server/db/database';
import { testConfig } from '../support/app';
import { createTestDatabase } from '../support/db';

// `npm run dev`: the app serves the client from its sources through Vite on its own port, and an
// edited component reaches the open page by hot module replacement, without a reload, under the
// same strict Content-Security-Policy as production (Vite's inline scripts carry the nonce). The
// sources are copied to a temporary project, so the test edits the copy, never the working tree.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COPIED = ['index.html', 'vite.config.ts', 'tsconfig.json', 'public', 'src/client', 'src/shared'];
const COMPONENT = 'src/client/components/NotFoundPage.tsx';

describe('npm run dev', () => {
  let project: string;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let browser: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-dev-'));
    for (const entry of COPIED) fs.cpSync(path.join(ROOT, entry), path.join(project, entry), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
    database = await createTestDatabase();
    const config = testConfig();
    app = await buildApp(config, { database, devClientRoot: project, logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (typeof address !== 'object' || !address) throw new Error('the dev app has no address');
    baseUrl = `http://127.0.0.1:${address.port}`;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await database?.close();
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  it('updates an edited component in the open page without reloading it, with no CSP violation', async () => {
    const page = await browser.newPage();
    // The first visit bundles the dependencies once; later steps are quick.
    page.setDefaultTimeout(60_000);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto(`${baseUrl}/no-such-page`);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[0-9a-f]+';/);
    await page.getByRole('heading', { name: 'Page Not Found', exact: true }).waitFor();
    // Gone if the page reloads.
    await page.evaluate(() => Object.assign(window, { keptAcrossUpdate: true }));

    const file = path.join(project, COMPONENT);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('title="Page Not Found"', 'title="Page Not Found Here"'));

    await page.getByRole('heading', { name: 'Page Not Found Here' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { keptAcrossUpdate?: boolean }).keptAcrossUpdate)).toBe(true);
    expect(violations).toEqual([]);
  });

  it('serves the API and the client modules on the one port', async () => {
    const [api, module] = await Promise.all([fetch(`${baseUrl}/trpc/catalog.categories`), fetch(`${baseUrl}/src/client/main.tsx`)]);
    expect(api.status).toBe(200);
    expect(module.status).toBe(200);
    expect(module.headers.get('content-type')).toContain('javascript');
  });
});
