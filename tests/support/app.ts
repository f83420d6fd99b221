import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { OutgoingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { pino } from 'pino';
import { buildApp } from '../../src/server/app';
import { BackgroundWork } from '../../src/server/background';
import { ColourRenders } from '../../src/server/mockups/colour-renders';
import { backupsDir, StoreBackups } from '../../src/server/backup/schedule';
import { CatalogCache } from '../../src/server/catalog-cache';
import { loadConfig, type Config } from '../../src/server/config';
import type { DatabaseHandle, Db } from '../../src/server/db/database';
import { EventHub } from '../../src/server/events/events';
import { createFulfilmentProvider } from '../../src/server/fulfilment';
import type { FulfilmentProvider } from '../../src/server/fulfilment/provider';
import { manualPayments } from '../../src/server/payments/manual';
import type { PaymentProvider } from '../../src/server/payments/provider';
import { LocalStorage } from '../../src/server/storage/local';
import type { Storage } from '../../src/server/storage/storage';
import { createContextInner } from '../../src/server/trpc/init';
import { createCaller } from '../../src/server/trpc/router';
import { createTestDatabase } from './db';
import { CONFIRMATION_SUBJECT, queuedEmailLink } from './email';
import { createAdmin, createCustomer, DEFAULT_PASSWORD, type TestUser } from './factories';
import { sharedBeforeAll } from './hooks';
import { systemClock, type Clock } from '../../src/server/subscriptions/dates';

export const TEST_ORIGIN = 'http://localhost:3000';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built client (npm run build; npm test builds first). E2E_CLIENT_DIR lets parallel work test its own build instead of sharing dist/. */
export const BUILT_CLIENT_DIR = process.env.E2E_CLIENT_DIR ? path.resolve(process.env.E2E_CLIENT_DIR) : path.join(ROOT, 'dist');

export function testConfig(env: Record<string, string> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-test-'));
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    // Tests run many at once on small machines: only the test of load shedding turns it on.
    LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  db: Db;
  config: Config;
  close(): Promise<void>;
}

/**
 * The whole Fastify app on a fresh database, for app.inject. `plugins` see every query the app
 * makes (Kysely plugins), e.g. to record when it makes them.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { clientDir?: string; plugins?: KyselyPlugin[] } = {},
): Promise<TestApp> {
  const created = await createTestDatabase();
  const database = { ...created, db: (options.plugins ?? []).reduce((db, plugin) => db.withPlugin(plugin), created.db) };
  const config = testConfig(env);
  const app = await buildApp(config, { database, logger: false, clientDir: options.clientDir });
  await app.ready();
  return {
    app,
    database,
    db: database.db,
    config,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** A test app of its own, with `env`, for the length of `test`: closed after it, whatever happens. */
export async function withTestApp<T>(env: Record<string, string>, test: (t: TestApp) => Promise<T>): Promise<T> {
  const t = await createTestApp(env);
  try {
    return await test(t);
  } finally {
    await t.close();
  }
}

/**
 * One test app for all the tests of a file: made in beforeAll, closed in afterAll. `env` may be a
 * function, for values known only once earlier hooks ran (a mail server's URL).
 */
export function sharedTestApp(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: { clientDir?: string } = {},
): TestApp {
  return sharedBeforeAll(
    () => createTestApp(typeof env === 'function' ? env() : env, options),
    (t) => t.close(),
  );
}

export interface TrpcResponse<T = unknown> {
  statusCode: number;
  data: T | undefined;
  error:
    { message: string; code: string; data: { code: string; httpStatus: number; fieldErrors: Record<string, string[]> | null } } | undefined;
  cookies: Record<string, string>;
  setCookies: string[];
  headers: OutgoingHttpHeaders;
}

/** Calls a procedure over HTTP like a browser on our origin would. */
export async function callTrpc<T = unknown>(
  app: FastifyInstance,
  procedure: string,
  options: { input?: unknown; type?: 'query' | 'mutation'; cookie?: string; headers?: Record<string, string> } = {},
): Promise<TrpcResponse<T>> {
  const type = options.type ?? 'mutation';
  const headers: Record<string, string> = { origin: TEST_ORIGIN, ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  const request: InjectOptions =
    type === 'query'
      ? {
          method: 'GET',
          url: `/trpc/${procedure}${options.input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(options.input))}`}`,
          headers,
        }
      : {
          method: 'POST',
          url: `/trpc/${procedure}`,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: JSON.stringify(options.input ?? null),
        };
  const res = await app.inject(request);
  const body = res.json<{ result?: { data: T }; error?: TrpcResponse['error'] }>();
  const setCookieHeader = res.headers['set-cookie'];
  const setCookies = setCookieHeader === undefined ? [] : Array.isArray(setCookieHeader) ? setCookieHeader : [setCookieHeader];
  const cookies: Record<string, string> = {};
  for (const c of res.cookies) cookies[c.name] = c.value;
  return { statusCode: res.statusCode, data: body.result?.data, error: body.error, cookies, setCookies, headers: res.headers };
}

/**
 * Calls one router's procedures over HTTP (`router` as 'admin.plans'), signed in with `cookie()`
 * unless a call passes another ('' for nobody); those named in `queries` go as GET queries.
 */
export function routerOverHttp(t: TestApp, router: string, options: { cookie: () => string; queries?: string[] }) {
  return <T = unknown>(procedure: string, input?: unknown, cookie = options.cookie()) =>
    callTrpc<T>(t.app, `${router}.${procedure}`, { input, cookie, type: options.queries?.includes(procedure) ? 'query' : 'mutation' });
}

/**
 * Signs up over HTTP as a person does: sign up, open the confirmation link in the queued email
 * (queued after the answer, so waited for) and confirm in the same browser (with its sign-up
 * cookie), which signs in. Returns the session cookie header to send with later calls.
 */
export async function signUp(t: Pick<TestApp, 'app' | 'db'>, email: string, password = DEFAULT_PASSWORD): Promise<string> {
  const res = await callTrpc(t.app, 'auth.signUp', { input: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${JSON.stringify(res.error)}`);
  const token = new URL(await queuedEmailLink(t.db, email, CONFIRMATION_SUBJECT)).searchParams.get('token');
  const confirmed = await callTrpc(t.app, 'auth.confirmEmail', { input: { token }, cookie: `signup=${res.cookies.signup}` });
  if (confirmed.statusCode !== 200 || !confirmed.cookies.session)
    throw new Error(`confirmation failed: ${JSON.stringify(confirmed.error)}`);
  return `session=${confirmed.cookies.session}`;
}

/** Signs in over HTTP and returns the session cookie header to send with later calls. */
export async function signInHttp(app: FastifyInstance, email: string, password = DEFAULT_PASSWORD): Promise<string> {
  const res = await callTrpc(app, 'auth.signIn', { input: { email, password } });
  if (res.statusCode !== 200 || !res.cookies.session) throw new Error(`sign-in failed: ${JSON.stringify(res.error)}`);
  return `session=${res.cookies.session}`;
}

export interface CallerOptions {
  events?: EventHub;
  /** The session the caller acts in: a real one (createSession) for code that reads the sessions table; a made-up id otherwise. */
  sessionId?: string;
  signal?: AbortSignal;
  storage?: Storage;
  payments?: PaymentProvider;
  fulfilment?: FulfilmentProvider;
  clock?: Clock;
}

/**
 * A server-side caller acting as the given user (or anonymous), through createContextInner: no
 * HTTP. Cookies it would set are recorded in `cookieJar` instead of a response.
 */
export function callerFor(
  database: DatabaseHandle,
  config: Config,
  user: { id: string; email: string } | null,
  options: CallerOptions = {},
) {
  const cookieJar: { token?: string | undefined; cleared: boolean } = { cleared: false };
  const storage = options.storage ?? new LocalStorage(path.join(config.dataDir, 'storage'));
  const ctx = createContextInner(
    {
      config,
      db: database.db,
      events: options.events ?? new EventHub(database),
      // No entries kept: these callers test what procedures read, each read from the database
      // (the cache has tests of its own).
      catalog: new CatalogCache({ maxEntries: 0 }),
      storage,
      payments: options.payments ?? manualPayments,
      fulfilment: options.fulfilment ?? createFulfilmentProvider(config),
      clock: options.clock ?? systemClock,
      background: new BackgroundWork(),
      colourRenders: new ColourRenders(),
      backups: database.kind === 'pglite' ? new StoreBackups({ database, storage }, backupsDir(config.dataDir), config.backupKeep) : null,
    },
    {
      session: user ? { id: options.sessionId ?? 'test-session', user: { id: user.id, email: user.email, emailConfirmed: true } } : null,
      ip: '127.0.0.1',
      log: pino({ level: 'silent' }),
      setSessionCookie: (token) => {
        cookieJar.token = token;
      },
      clearSessionCookie: () => {
        cookieJar.cleared = true;
      },
      // Like a browser that keeps no cookies: a new sign-up secret each time, none sent back.
      signUpSecret: undefined,
      markSignUpBrowser: () => randomBytes(32).toString('base64url'),
      // No HTTP answer to wait for.
      answerSent: () => Promise.resolve(),
      rateLimit: () => Promise.resolve(),
    },
  );
  return { caller: createCaller(ctx, options.signal ? { signal: options.signal } : {}), cookieJar };
}

export type Caller = ReturnType<typeof callerFor>['caller'];

/** callerFor on a test app's database and config: the caller alone. */
export function callerAs(t: TestApp, user: { id: string; email: string } | null, options: CallerOptions = {}): Caller {
  return callerFor(t.database, t.config, user, options).caller;
}

export interface Callers {
  anonymous: Caller;
  customer: Caller;
  admin: Caller;
  /** The users behind `customer` and `admin`, e.g. to sign them in over HTTP with signInHttp. */
  users: { customer: TestUser; admin: TestUser };
}

/** Makes a customer and an admin (factories) and a caller for each, and one for nobody signed in. */
export async function callers(t: TestApp, options: CallerOptions = {}): Promise<Callers> {
  const users = { customer: await createCustomer(t.db), admin: await createAdmin(t.db) };
  return {
    anonymous: callerAs(t, null, options),
    customer: callerAs(t, users.customer, options),
    admin: callerAs(t, users.admin, options),
    users,
  };
}

export interface SignedInCallers extends Callers {
  /** Session cookie headers of `users`, signed in over HTTP, for tests that read status codes or field errors. */
  cookies: { customer: string; admin: string };
}

/**
 * callers() on a sharedTestApp, made in beforeAll, with both users also signed in over HTTP.
 * `options` may be a function, for what earlier hooks make (a sharedEventHub's hub).
 */
export function sharedCallers(t: TestApp, options: CallerOptions | (() => CallerOptions) = {}): SignedInCallers {
  return sharedBeforeAll(async () => {
    const as = await callers(t, typeof options === 'function' ? options() : options);
    const admin = await signInHttp(t.app, as.users.admin.email);
    return { ...as, cookies: { admin, customer: await signInHttp(t.app, as.users.customer.email) } };
  });
}

/** A started EventHub on a sharedTestApp's database, for tests that record live events; stopped before the app closes. */
export function sharedEventHub(t: TestApp): { hub: EventHub } {
  return sharedBeforeAll(
    async () => {
      const hub = new EventHub(t.database);
      await hub.start();
      return { hub };
    },
    ({ hub }) => hub.stop(),
  );
}

/**
 * What the passes over stored files (display copies, the sweep) are given, from a sharedTestApp as
 * the app would give it: its database, its storage (local in tests, its files under
 * `storage.root`) and `shared`, true on a PostgreSQL server, which other processes could use too.
 */
export function sharedStoredFiles(t: TestApp): { db: Db; storage: Storage & Pick<LocalStorage, 'root'>; shared: boolean } {
  return sharedBeforeAll(() => {
    const { storage } = t.app;
    if (!(storage instanceof LocalStorage)) throw new Error('The test app stores files in S3, not under a folder');
    return Promise.resolve({ db: t.db, storage, shared: t.database.kind === 'postgres' });
  });
}

/** POST /api/uploads/:bucket with a multipart body built by the platform's FormData, as a browser sends it. */
export async function uploadFile(
  app: FastifyInstance,
  bytes: Buffer,
  options: { bucket: string; cookie: string; filename?: string; type?: string; origin?: string },
): Promise<{ status: number; body: { url?: string; error?: string } }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/png' }), options.filename ?? 'art.png');
  const body = new Response(form);
  const headers: Record<string, string> = { 'content-type': body.headers.get('content-type')!, origin: options.origin ?? TEST_ORIGIN };
  if (options.cookie) headers.cookie = options.cookie;
  const res = await app.inject({
    method: 'POST',
    url: `/api/uploads/${options.bucket}`,
    headers,
    payload: Buffer.from(await body.arrayBuffer()),
  });
  return { status: res.statusCode, body: res.json<{ url?: string; error?: string }>() };
}
