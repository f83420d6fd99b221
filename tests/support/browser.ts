import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type BrowserContext, type Page, type Response as PageResponse } from 'playwright-core';
import { expect } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { Config } from '../../src/server/config';
import type { DatabaseHandle, Db } from '../../src/server/db/database';
import { seedIfEmpty } from '../../src/server/seed/seed';
import { LocalStorage } from '../../src/server/storage/local';
import type { Storage } from '../../src/server/storage/storage';
import { seriousA11yViolations } from './a11y';
import { BUILT_CLIENT_DIR, testConfig } from './app';
import { createTestDatabase } from './db';
import { DEFAULT_PASSWORD } from './factories';
import { sharedBeforeAll } from './hooks';

// End-to-end harness: the built client (dist/) served by the real app on a random local port,
// a fresh seeded database, and Debian's Chromium driven by playwright-core.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOT_DIR = path.join(ROOT, '.tmp/screenshots');
const CHROMIUM_PATH = '/usr/bin/chromium';
// Without the background-networking flags Chromium tries hosts it cannot reach.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const VIEWPORTS = {
  mobile: { width: 375, height: 812 },
  desktop: { width: 1280, height: 900 },
} as const;

export interface BrowserAppOptions {
  /** Fills the fresh database: the demo store (seedIfEmpty) unless given another function, or false for none. */
  seed?: ((db: Db, storage: Storage) => Promise<unknown>) | false;
  env?: Record<string, string>;
}

export interface NewPageOptions {
  viewport?: { width: number; height: number };
}

export interface BrowserApp {
  baseUrl: string;
  browser: Browser;
  app: FastifyInstance;
  database: DatabaseHandle;
  db: Db;
  storage: Storage;
  config: Config;
  /** A page in its own browser context (own cookies and localStorage), resolving paths against baseUrl. */
  newPage(options?: NewPageOptions): Promise<Page>;
  /** Uncaught exceptions and console errors a page reported so far. */
  pageErrors(page: Page): string[];
  close(): Promise<void>;
}

function assertBuilt(): void {
  if (!fs.existsSync(path.join(BUILT_CLIENT_DIR, 'index.html'))) {
    throw new Error(
      `The client is not built: ${path.join(BUILT_CLIENT_DIR, 'index.html')} is missing. Run \`npm run build\` (npm test does it) before the e2e tests.`,
    );
  }
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium).`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startBrowserApp(options: BrowserAppOptions = {}): Promise<BrowserApp> {
  assertBuilt();
  const database = await createTestDatabase();
  // PUBLIC_URL must be the origin the browser really uses (origin check, links in emails), so the
  // port is chosen before the app is built; if another process takes it meanwhile, try another.
  let port = await freePort();
  let config = testConfig({ PUBLIC_URL: `http://127.0.0.1:${port}`, ...options.env });
  const storage = new LocalStorage(path.join(config.dataDir, 'storage'));
  let app: FastifyInstance | undefined;
  let browser: Browser | undefined;
  try {
    const seed = options.seed ?? seedIfEmpty;
    if (seed) await seed(database.db, storage);
    for (let attempt = 0; !app; attempt++) {
      const candidate = await buildApp(config, { database, clientDir: BUILT_CLIENT_DIR, storage, logger: false });
      try {
        await candidate.listen({ host: '127.0.0.1', port });
        app = candidate;
      } catch (error) {
        await candidate.close();
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 4) throw error;
        port = await freePort();
        config = { ...config, publicUrl: `http://127.0.0.1:${port}` };
      }
    }
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  } catch (error) {
    await app?.close();
    await database.close();
    fs.rmSync(config.dataDir, { recursive: true, force: true });
    throw error;
  }

  const baseUrl = config.publicUrl;
  const openApp = app;
  const contexts: BrowserContext[] = [];
  const errors = new WeakMap<Page, string[]>();
  const openBrowser = browser;

  return {
    baseUrl,
    browser: openBrowser,
    app: openApp,
    database,
    db: database.db,
    storage,
    config,
    async newPage(pageOptions = {}) {
      const context = await openBrowser.newContext({ baseURL: baseUrl, viewport: pageOptions.viewport ?? VIEWPORTS.desktop });
      contexts.push(context);
      const page = await context.newPage();
      untilHydrated(page);
      const list: string[] = [];
      errors.set(page, list);
      page.on('pageerror', (error) => list.push(error.message));
      page.on('console', (message) => {
        // A page that answers 404 on purpose (an unknown product) makes the browser log its own status.
        const failedLoad = message.text().startsWith('Failed to load resource');
        if (message.type() !== 'error' || (failedLoad && message.location().url === page.url())) return;
        // A failed load names what failed, which the browser's message leaves out.
        list.push(failedLoad ? `${message.text()}: ${message.location().url}` : message.text());
      });
      return page;
    },
    pageErrors: (page) => errors.get(page) ?? [],
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await openBrowser.close();
      await openApp.close();
      await database.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes page.goto and page.reload return only once a store page they load is hydrated
 * (html[data-hydrated]): a server-rendered button shows before it answers clicks, and a click
 * then would be lost.
 */
function untilHydrated(page: Page): void {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  const hydrated = async (response: PageResponse | null) => {
    if (response?.headers()['content-type']?.startsWith('text/html')) {
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    }
    return response;
  };
  page.goto = async (url, options) => hydrated(await goto(url, options));
  page.reload = async (options) => hydrated(await reload(options));
}

/**
 * One browser app for all the tests of a file (or a describe): started in beforeAll, closed in
 * afterAll. `options` may be a function, for values known only once earlier hooks ran.
 */
export function sharedBrowserApp(options: BrowserAppOptions | (() => BrowserAppOptions) = {}): BrowserApp {
  return sharedBeforeAll(
    () => startBrowserApp(typeof options === 'function' ? options() : options),
    (env) => env.close(),
  );
}

export interface SignInOptions extends NewPageOptions {
  email: string;
  password?: string;
  /** Playwright's wait for each step; shorter than its 30 s, so a broken step fails fast with its own message. */
  timeout?: number;
  /** Signs in this page's browser context instead of opening a new page. */
  page?: Page;
}

/**
 * A page signed in through the API (POST /trpc/auth.signIn from our origin, as the app does), for
 * tests of what a signed-in user sees rather than of the sign-in form. The cookie is the page's
 * context's, so other pages of that context are signed in too.
 */
export async function signInInBrowser(env: BrowserApp, options: SignInOptions): Promise<Page> {
  let page = options.page;
  if (!page) {
    page = await env.newPage(options.viewport ? { viewport: options.viewport } : {});
    page.setDefaultTimeout(options.timeout ?? 10_000);
  }
  const res = await page.request.post('/trpc/auth.signIn', {
    data: { email: options.email, password: options.password ?? DEFAULT_PASSWORD },
    headers: { origin: env.baseUrl },
  });
  if (res.status() !== 200) throw new Error(`sign-in of ${options.email} answered ${res.status()}: ${await res.text()}`);
  return page;
}

/**
 * Holds this page's requests to a procedure until release(), so a busy state can be seen for as
 * long as the test needs; requests after the release pass at once.
 */
export async function holdRequests(page: Page, procedure: string): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.includes(procedure),
    async (route) => {
      await released;
      // The page may have closed meanwhile (a failed test); there is nothing left to answer.
      await route.continue().catch(() => undefined);
    },
  );
  return { release };
}

/**
 * Waits until every image has loaded (or failed). Lazy images are switched to eager first:
 * scrolling them into view races the browser's lazy-load observer on a busy machine.
 */
export async function waitForImages(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.evaluate(() => {
    for (const img of Array.from(document.images)) if (img.loading === 'lazy') img.loading = 'eager';
  });
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: timeoutMs });
}

/** Opens `url` and waits for its level-1 heading, `heading`. */
export async function openPage(page: Page, url: string, heading: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Saves a full-page screenshot under .tmp/screenshots (gitignored) and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * A screen checked at phone width: nothing wider than the screen and no serious accessibility
 * violations; then a screenshot of it to look at.
 */
export async function expectFitsPhone(page: Page, screenshotName: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.mobile.width);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await saveScreenshot(page, screenshotName);
}
