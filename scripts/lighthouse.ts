import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

// `npm run lighthouse`: starts a production server as `npm start` does (building first if needed) on a fresh
// embedded database with the demo store, and prints Lighthouse's four scores (mobile, simulated
// throttling: its defaults) for the home page, the shop, a category page and a product page.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'total-byte-weight',
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitUntilReady(origin: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const ready = await fetch(`${origin}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the server did not become ready within 2 minutes');
}

/** The first category and product page the sitemap lists. */
async function samplePages(origin: string): Promise<string[]> {
  const xml = await (await fetch(`${origin}/sitemap.xml`)).text();
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
  const category = locs.find((loc) => loc.includes('/category/'));
  const product = locs.find((loc) => loc.includes('/product/'));
  if (!category || !product) throw new Error('the demo store has no category or product in its sitemap');
  return [`${origin}/`, `${origin}/shop`, category, product];
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-lighthouse-'));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
// npm start's way: build if the sources changed, then the built server.
const server = spawn(process.execPath, [path.join(root, 'scripts', 'start.js')], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: origin,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  await waitUntilReady(origin, server);
  const pages = await samplePages(origin);
  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const rows: string[] = [];
  for (const url of pages) {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { categories, audits } = result.lhr;
    const scores = CATEGORIES.map((name) => String(Math.round((categories[name]?.score ?? 0) * 100)).padStart(4));
    const metrics = METRICS.map((name) => audits[name]?.displayValue ?? '-').join(', ');
    rows.push(`${url.replace(origin, '') || '/'}`.padEnd(44) + scores.join(' ') + `   ${metrics}`);
  }
  console.log(`\n${'page'.padEnd(44)}perf a11y  b-p  seo   FCP, LCP, TBT, CLS, bytes`);
  for (const row of rows) console.log(row);
} finally {
  chrome?.kill();
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
