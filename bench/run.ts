import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { build } from 'vite';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase, type DatabaseHandle } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { seedIfEmpty } from '../src/server/seed/seed';
import { createStorage } from '../src/server/storage/create';
import { buildIsCurrent } from '../scripts/build-freshness.js';
import { runScaleBenchmark } from './scale';
import { measureStartup } from './startup';
import { table } from './table';

// npm run bench: the storefront's product list through the whole stack (Fastify + tRPC + Kysely +
// embedded PostgreSQL, demo data) against a bare Fastify route returning the same bytes, and the
// size of the JavaScript a shopper downloads first (beside that of bench/stack-floor, the smallest
// page the client stack of React, TanStack Router and Query can hydrate), and (embedded database) how long npm start
// takes to its first response on existing data. BENCH_SECONDS sets each run's length and
// BENCH_CONNECTIONS the concurrent connections; BENCH_DATABASE_URL (a PostgreSQL server) runs the
// stack on a throw-away database there instead. `npm run bench -- --scale` runs bench/scale.ts instead.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(root, 'dist');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PRODUCTS_PATH = `/trpc/catalog.products?input=${encodeURIComponent(JSON.stringify({ sort: 'newest' }))}`;

interface LoadResult {
  rps: number;
  p99: number;
  errors: number;
}

async function load(url: string, duration: number): Promise<LoadResult> {
  // A worker thread, so the load generator does not share the servers' event loop.
  const result = await autocannon({ url, connections: CONNECTIONS, duration, workers: 1 });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const listen = async (app: FastifyInstance) => app.listen({ host: '127.0.0.1', port: 0 });

interface AssetSizes {
  files: number;
  raw: number;
  gzip: number;
}

/** Builds the store when dist/ is missing or older than its sources, as npm start does. */
function ensureClientBuilt(): boolean {
  if (!fs.existsSync(path.join(root, 'vite.config.ts'))) return fs.existsSync(path.join(distDir, 'index.html'));
  if (!buildIsCurrent()) {
    console.log('Building the store (npm run build)...');
    execFileSync('npx', ['tsx', 'scripts/build.ts', '--quiet'], { cwd: root, stdio: 'inherit' });
  }
  return fs.existsSync(path.join(distDir, 'index.html'));
}

/** Entry scripts and module preloads of a built index.html (the JS needed before the first paint), and its CSS. */
function initialAssets(builtDir: string): { js: AssetSizes; css: AssetSizes } {
  const html = fs.readFileSync(path.join(builtDir, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const js: string[] = [];
  const css: string[] = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
    const src = attr(tag, 'src');
    if (src && attr(tag, 'type') === 'module') js.push(src);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const href = attr(tag, 'href');
    if (href && attr(tag, 'rel') === 'modulepreload') js.push(href);
    if (href && attr(tag, 'rel') === 'stylesheet') css.push(href);
  }
  const measure = (urls: string[]): AssetSizes =>
    urls.reduce(
      (sum, url) => {
        const bytes = fs.readFileSync(path.join(builtDir, url.replace(/^\//, '')));
        return { files: sum.files + 1, raw: sum.raw + bytes.length, gzip: sum.gzip + zlib.gzipSync(bytes, { level: 9 }).length };
      },
      { files: 0, raw: 0, gzip: 0 },
    );
  return { js: measure(js), css: measure(css) };
}

/** The initial JavaScript of bench/stack-floor, built as the store is (Vite, production). */
async function stackFloor(): Promise<AssetSizes> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-stack-floor-'));
  try {
    await build({
      configFile: false,
      root: path.join(root, 'bench', 'stack-floor'),
      plugins: [react()],
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    });
    return initialAssets(outDir).js;
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/** A new, empty database on the server at BENCH_DATABASE_URL; dropped by the returned function. */
async function scratchDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `threadline_bench_${process.pid}_${Date.now()}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
// autocannon measures latency in whole milliseconds.
const ms = (value: number) => (value < 1 ? '<1' : String(value));

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-bench-'));
  let database: DatabaseHandle | undefined;
  let app: FastifyInstance | undefined;
  let bare: FastifyInstance | undefined;
  let scratch: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  try {
    const built = ensureClientBuilt();
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' });
    const serverUrl = process.env.BENCH_DATABASE_URL;
    if (serverUrl) scratch = await scratchDatabase(serverUrl);
    database = await openDatabase(scratch ? { databaseUrl: scratch.url } : { dataDir });
    await migrateToLatest(database.db);
    const seedStart = performance.now();
    const storage = await createStorage(config);
    await seedIfEmpty(database.db, storage);
    const seedMs = performance.now() - seedStart;

    app = await buildApp(config, { database, storage, logger: false });
    const appUrl = await listen(app);
    const response = await fetch(`${appUrl}${PRODUCTS_PATH}`);
    if (!response.ok) throw new Error(`GET ${PRODUCTS_PATH} answered ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());

    bare = Fastify({ logger: false });
    bare.get('/products', (_req, reply) => reply.header('content-type', 'application/json').send(body));
    const bareUrl = await listen(bare);

    console.log(`Load: ${CONNECTIONS} connections, ${seconds} s per run, response ${kib(body.length)} (${seconds * 2 + 2} s in all)...`);
    await load(`${appUrl}${PRODUCTS_PATH}`, 1); // warm-up: JIT, query plans, pool
    const trpc = await load(`${appUrl}${PRODUCTS_PATH}`, seconds);
    await load(`${bareUrl}/products`, 1);
    const plain = await load(`${bareUrl}/products`, seconds);

    const assets = built ? initialAssets(distDir) : undefined;
    const floor = built ? await stackFloor() : undefined;
    console.log(`\nSeeding the demo store took ${(seedMs / 1000).toFixed(1)} s.\n`);
    console.log(
      table([
        ['GET catalog.products (newest)', 'req/s', 'p99 ms', 'errors'],
        [`tRPC + ${scratch ? 'PostgreSQL' : 'PGlite'} (full stack)`, trpc.rps.toFixed(0), ms(trpc.p99), String(trpc.errors)],
        ['bare Fastify, same bytes', plain.rps.toFixed(0), ms(plain.p99), String(plain.errors)],
        ['ratio tRPC / bare (req/s)', (trpc.rps / plain.rps).toFixed(2), '', ''],
      ]),
    );
    console.log('');
    console.log(
      assets && floor
        ? table([
            ['Storefront initial assets', 'files', 'raw', 'gzip -9'],
            ['JavaScript (entry + modulepreload)', String(assets.js.files), kib(assets.js.raw), kib(assets.js.gzip)],
            ['CSS', String(assets.css.files), kib(assets.css.raw), kib(assets.css.gzip)],
            ['the stack alone (bench/stack-floor), JS', String(floor.files), kib(floor.raw), kib(floor.gzip)],
          ])
        : 'Storefront initial JS: client not built (no dist/index.html and no vite.config.ts).',
    );
    // The embedded database's start-up; a PostgreSQL run measures the stack on that server instead.
    if (built && !scratch) {
      const launches = await measureStartup();
      console.log(
        `\nStart-up on an existing embedded database (npm start, launch to first 200 for /): ${launches.map((t) => `${Math.round(t)} ms`).join(', ')}`,
      );
    }
  } finally {
    await bare?.close();
    await app?.close();
    await database?.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** npm run bench -- --scale: the scale benchmark (bench/scale.ts), on PGlite or a scratch database at BENCH_DATABASE_URL. */
async function scale() {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const scratch = serverUrl ? await scratchDatabase(serverUrl) : undefined;
  try {
    await runScaleBenchmark(scratch?.url);
  } finally {
    await scratch?.drop();
  }
}

(process.argv.includes('--scale') ? scale() : main()).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('Benchmark failed:', error);
    process.exit(1);
  },
);
