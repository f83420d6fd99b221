import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { TRPCError } from '@trpc/server';
import { EventSource } from 'eventsource';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSession } from '../../src/server/auth/session';
import { CatalogCache } from '../../src/server/catalog-cache';
import { LISTENER_APPLICATION_NAME, openDatabase } from '../../src/server/db/database';
import { EventHub, publishEvent, type EventHubOptions } from '../../src/server/events/events';
import type { LiveMessage } from '../../src/server/routers/live';
import type { AppRouter } from '../../src/server/trpc/router';
import { callerFor, callTrpc, createTestApp, type TestApp } from '../support/app';
import { withAdminClient } from '../support/db';
import { createAdmin, createCustomer } from '../support/factories';
import { holdsFor, waitFor } from '../support/async';

let t: TestApp;
let baseUrl: string;
let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await createAdmin(t.db, { email: 'live-admin@example.com', password: 'livepass1' });
  const res = await callTrpc(t.app, 'auth.signIn', { input: { email: 'live-admin@example.com', password: 'livepass1' } });
  adminCookie = `session=${res.cookies.session}`;
});
afterAll(() => t.close());

function sseClient(cookie: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpSubscriptionLink({
        url: `${baseUrl}/trpc`,
        EventSource,
        eventSourceOptions: () => ({
          fetch: (input: string | URL | Request, init?: RequestInit) =>
            fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), cookie } }),
        }),
      }),
    ],
  });
}

const submitContact = (subject: string) =>
  callTrpc(t.app, 'contact.submit', { input: { name: 'Sam', email: 'sam@example.com', subject, message: 'Hello there' } });

describe('the new-contact badge over SSE', () => {
  it('sends the count at once and again when a submission arrives or changes status', async () => {
    const counts: number[] = [];
    const subscription = sseClient(adminCookie).live.feed.subscribe(undefined, {
      onData: (message) => {
        if (message.kind === 'newContactCount') counts.push(message.count);
      },
    });
    try {
      await waitFor(() => counts.length === 1, 'the first count');
      expect(counts).toEqual([0]);
      await submitContact('First');
      await waitFor(() => counts.length === 2, 'the count after a submission');
      expect(counts).toEqual([0, 1]);

      // A status change made by another server process reaches this one through NOTIFY.
      const other =
        t.database.kind === 'postgres' && 'url' in t.database ? await openDatabase({ databaseUrl: t.database.url as string }) : t.database;
      await other.db.transaction().execute(async (trx) => {
        await trx.updateTable('contact_submissions').set({ status: 'read' }).execute();
        await publishEvent(trx, { type: 'contact_submissions_changed' });
      });
      if (other !== t.database) await other.close();
      await waitFor(() => counts.length === 3, 'the count after a status change');
      expect(counts).toEqual([0, 1, 0]);
    } finally {
      subscription.unsubscribe();
    }
  });

  it("gives a customer their own account's changes and no count", async () => {
    const userId = (await createCustomer(t.db, { email: 'live-customer@example.com', password: 'livepass1' })).id;
    const res = await callTrpc(t.app, 'auth.signIn', { input: { email: 'live-customer@example.com', password: 'livepass1' } });
    const stream = watchSse<LiveMessage>((handlers) =>
      sseClient(`session=${res.cookies.session}`).live.feed.subscribe(undefined, handlers),
    );
    try {
      await waitFor(() => stream.started, 'the stream to start');
      await submitContact('Not for customers');
      // Published until one arrives: the stream listens soon after it starts.
      await waitFor(() => {
        if (stream.values.length === 0) void publishEvent(t.db, { type: 'customer_changed', userId });
        return stream.values.length > 0;
      }, 'the account change');
      expect(stream.values[0]).toEqual({ kind: 'account' });
      expect(stream.values.some((message) => message.kind === 'newContactCount')).toBe(false);
    } finally {
      stream.unsubscribe();
    }
  });

  it('refuses a visitor who is not signed in', async () => {
    const stream = watchSse<LiveMessage>((handlers) => sseClient('').live.feed.subscribe(undefined, handlers));
    await waitFor(() => stream.ended !== null, 'the refusal');
    stream.unsubscribe();
    expect(stream.ended).toBe('UNAUTHORIZED');
  });
});

/** What a stream gave its reader: values, then how it ended (a tRPC error code, or 'done'). */
interface Watched<T> {
  values: T[];
  ended: string | null;
}

/** Reads a stream in the background, recording what it gives and how it ends. */
function watch<T>(stream: AsyncIterable<T>): Watched<T> {
  const watched: Watched<T> = { values: [], ended: null };
  void (async () => {
    try {
      for await (const value of stream) watched.values.push(value);
      watched.ended = 'done';
    } catch (error) {
      watched.ended = error instanceof TRPCError ? error.code : String(error);
    }
  })();
  return watched;
}

/** Records a subscription over SSE: its data, and the error code it ended with. */
function watchSse<T>(
  subscribe: (handlers: {
    onStarted: () => void;
    onData: (value: T) => void;
    onError: (error: { data?: { code?: string } | null; message: string }) => void;
    onComplete: () => void;
  }) => { unsubscribe: () => void },
) {
  const watched: Watched<T> & { started: boolean; unsubscribe: () => void } = {
    values: [],
    ended: null,
    started: false,
    unsubscribe: () => undefined,
  };
  watched.unsubscribe = subscribe({
    onStarted: () => (watched.started = true),
    onData: (value) => watched.values.push(value),
    onError: (error) => (watched.ended = error.data?.code ?? error.message),
    onComplete: () => (watched.ended ??= 'done'),
  }).unsubscribe;
  return watched;
}

let userCount = 0;

/**
 * A user signed in with a real session (the streams read the sessions table) and a caller acting
 * in it, on `hub`; the caller's streams end when `signal` aborts, or once `expire` ends the session.
 */
async function signIn(hub: EventHub, signal: AbortSignal, options: { admin?: boolean } = {}) {
  const email = `streamer${++userCount}@example.com`;
  const userId = (await (options.admin ? createAdmin : createCustomer)(t.db, { email })).id;
  const { token } = await createSession(t.db, userId, t.config.sessionDays);
  const sessionId = token.split('.')[0]!;
  const { caller } = callerFor(t.database, t.config, { id: userId, email }, { events: hub, sessionId, signal });
  // The session running out, as a tab left open for longer than the session lasts finds it.
  const expire = () =>
    t.db
      .updateTable('sessions')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', sessionId)
      .execute();
  return { caller, userId, sessionId, expire };
}

async function startedHub(options: EventHubOptions = {}): Promise<EventHub> {
  const hub = new EventHub(t.database, options);
  await hub.start();
  return hub;
}

type SignedIn = Awaited<ReturnType<typeof signIn>>;

/**
 * Runs `test` with a started hub (with `options`) and a user signed in on it, an admin if asked;
 * `signInAnother` signs in a second customer. Afterwards, passed or failed, the streams of everyone
 * signed in end and the hub stops (again, harmlessly, if the test stopped it).
 */
async function withSignedInUser(
  options: EventHubOptions & { admin?: boolean },
  test: (signedIn: SignedIn & { hub: EventHub; signInAnother: () => Promise<SignedIn> }) => Promise<void>,
): Promise<void> {
  const { admin, ...hubOptions } = options;
  const hub = await startedHub(hubOptions);
  const streams = new AbortController();
  try {
    const user = await signIn(hub, streams.signal, { admin });
    await test({ ...user, hub, signInAnother: () => signIn(hub, streams.signal) });
  } finally {
    streams.abort();
    await hub.stop();
  }
}

describe('streams end with the session or the right that opened them', () => {
  it('a stream opened signed in delivers nothing after sign-out and ends', async () => {
    const email = 'signs-out@example.com';
    const userId = (await createCustomer(t.db, { email, password: 'livepass1' })).id;
    const res = await callTrpc(t.app, 'auth.signIn', { input: { email, password: 'livepass1' } });
    const cookie = `session=${res.cookies.session}`;
    const stream = watchSse<LiveMessage>((handlers) => sseClient(cookie).live.feed.subscribe(undefined, handlers));
    try {
      await waitFor(() => stream.started, 'the stream to start');
      // Delivered while signed in (published until one arrives: the stream listens soon after it starts).
      await waitFor(() => {
        if (stream.values.length === 0) void publishEvent(t.db, { type: 'customer_changed', userId });
        return stream.values.length > 0;
      }, 'an event while signed in');
      const delivered = stream.values.length;

      expect((await callTrpc(t.app, 'auth.signOut', { cookie })).statusCode).toBe(200);
      await publishEvent(t.db, { type: 'customer_changed', userId });
      await waitFor(() => stream.ended !== null, 'the stream to end');
      expect(stream.ended).toBe('UNAUTHORIZED');
      expect(stream.values).toHaveLength(delivered);
    } finally {
      stream.unsubscribe();
    }
  });

  it("an admin's badge stream ends at once when the admin is demoted, with no other event", async () => {
    const email = 'demoted-live@example.com';
    const userId = (await createAdmin(t.db, { email, password: 'livepass1' })).id;
    const res = await callTrpc(t.app, 'auth.signIn', { input: { email, password: 'livepass1' } });
    const stream = watchSse<LiveMessage>((handlers) =>
      sseClient(`session=${res.cookies.session}`).live.feed.subscribe(undefined, handlers),
    );
    try {
      await waitFor(() => stream.values.length === 1, 'the first count');
      const demoted = await callTrpc(t.app, 'admin.customers.setAdmin', { input: { userId, isAdmin: false }, cookie: adminCookie });
      expect(demoted.statusCode).toBe(200);
      await waitFor(() => stream.ended !== null, 'the stream to end');
      expect(stream.ended).toBe('FORBIDDEN');
      expect(stream.values).toHaveLength(1);
    } finally {
      stream.unsubscribe();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('live events when the listening connection drops', () => {
  it('resume, and whoever follows something reads again what may have changed meanwhile', () =>
    withSignedInUser({ admin: true }, async ({ hub, caller, userId }) => {
      const stream = watch(await caller.live.feed());
      const cache = new CatalogCache();
      cache.follow(hub);
      await waitFor(() => stream.values.length === 1, 'the first count');
      expect(await cache.read('products', () => Promise.resolve('before'))).toBe('before');
      expect(await cache.read('products', () => Promise.resolve('after'))).toBe('before');

      // The database ends the connection, as a restart or a failover would.
      const ended = await sql<{ ended: boolean }>`
        select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`.execute(t.db);
      expect(ended.rows).toEqual([{ ended: true }]);

      // The admin's stream sends the count and the account again; the catalog is read afresh.
      await waitFor(() => stream.values.length === 3, 'the count and the account read again');
      // Nothing was submitted meanwhile: the same count as at first.
      expect(stream.values.slice(1)).toEqual([stream.values[0], { kind: 'account' }]);
      expect(stream.values[0]).toMatchObject({ kind: 'newContactCount' });
      expect(await cache.read('products', () => Promise.resolve('after'))).toBe('after');

      // Events flow again, on a new connection.
      await publishEvent(t.db, { type: 'customer_changed', userId });
      await waitFor(() => stream.values.length === 4, 'an event after the drop');
      expect(stream.values[3]).toEqual({ kind: 'account' });
      expect(stream.ended).toBeNull();
    }));
});

describe.runIf(process.env.TEST_DATABASE_URL)('the catalog cache while the listening connection is down', () => {
  it('keeps nothing until the connection is back, since it would hear of no change meanwhile', async () => {
    const hub = await startedHub();
    const cache = new CatalogCache();
    cache.follow(hub);
    const [{ name }] = (await sql<{ name: string }>`select current_database() as name`.execute(t.db)).rows as [{ name: string }];
    const allowConnections = (allow: boolean) =>
      withAdminClient(process.env.TEST_DATABASE_URL!, (client) =>
        client.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS ${allow}`),
      );
    let loads = 0;
    const read = () => cache.read('products', () => Promise.resolve(++loads));
    try {
      await read();
      expect(await read()).toBe(1);

      // The listening connection is lost and cannot come back (the pool's open connections still work).
      await allowConnections(false);
      await sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`.execute(t.db);
      await vi.waitFor(async () => expect(await read()).not.toBe(1));
      const during = await read();
      expect(await read()).toBe(during + 1);

      // Back: answers are kept again.
      await allowConnections(true);
      await vi.waitFor(async () => expect(await read()).toBe(await read()), { timeout: 10_000 });
    } finally {
      await allowConnections(true);
      await hub.stop();
    }
  });
});

describe('live events in one process', () => {
  it("refuse a user's stream beyond the most one user may hold open, until one of theirs ends; others are not held back", () =>
    withSignedInUser({ maxStreamsPerUser: 2 }, async ({ hub, caller, userId, signInAnother }) => {
      const first = (await caller.live.feed())[Symbol.asyncIterator]();
      const firstValue = first.next();
      const second = watch(await caller.live.feed());
      await waitFor(() => hub.subscriptions === 2, 'two streams listening');
      const third = watch(await caller.live.feed());
      await waitFor(() => third.ended !== null, 'the third stream to be refused');
      expect(third.ended).toBe('TOO_MANY_REQUESTS');
      expect(second.ended).toBeNull();

      const other = await signInAnother();
      const theirs = watch(await other.caller.live.feed());
      await waitFor(() => hub.subscriptions === 3, "another user's stream listening");
      expect(theirs.ended).toBeNull();

      // The first stream ends (its reader leaves after an event): its place is free again.
      await publishEvent(t.db, { type: 'customer_changed', userId });
      expect(await firstValue).toEqual({ done: false, value: { kind: 'account' } });
      await first.return?.(undefined);
      const fourth = watch(await caller.live.feed());
      await waitFor(() => hub.subscriptions === 3, "the fourth stream listening in the first one's place");
      expect(fourth.ended).toBeNull();
    }));

  it('tell a user only about changes to their own account', () =>
    withSignedInUser({}, async ({ caller, userId }) => {
      const otherId = (await createCustomer(t.db, { email: 'other@example.com' })).id;
      const iterator = (await caller.live.feed())[Symbol.asyncIterator]();
      const next = iterator.next();
      // Notifications arrive in order: had the other user's event got through, it would be read first.
      await publishEvent(t.db, { type: 'customer_changed', userId: otherId });
      await publishEvent(t.db, { type: 'customer_changed', userId });
      expect(await next).toEqual({ done: false, value: { kind: 'account' } });
    }));

  it('end an admin stream once the admin is demoted', () =>
    withSignedInUser({ admin: true }, async ({ caller, userId }) => {
      const stream = await caller.live.feed();
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ kind: 'newContactCount' });
      await t.db.updateTable('customers').set({ is_admin: false }).where('id', '=', userId).execute();
      await publishEvent(t.db, { type: 'contact_submissions_changed' });
      await expect(iterator.next()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }));

  it("end a stream at once when the hub says the user's sessions ended", () =>
    withSignedInUser({}, async ({ caller, userId, sessionId, signInAnother }) => {
      const other = await signInAnother();
      const stream = watch(await caller.live.feed());
      const bystander = watch(await other.caller.live.feed());
      await t.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
      await publishEvent(t.db, { type: 'sessions_ended', userId });
      await waitFor(() => stream.ended !== null, 'the stream to end');
      expect(stream.ended).toBe('UNAUTHORIZED');
      expect(stream.values).toEqual([]);
      // Another user's stream goes on.
      await publishEvent(t.db, { type: 'customer_changed', userId: other.userId });
      await waitFor(() => bystander.values.length === 1, "the other user's event");
      expect(bystander.ended).toBeNull();
    }));

  it('end a stream whose session expired, at its next check, delivering nothing after the expiry', () =>
    withSignedInUser({ accessRecheckMs: 200 }, async ({ hub, caller, userId, expire }) => {
      const stream = watch(await caller.live.feed());
      // One event, once the stream listens: several published until one arrived could arrive after the expiry.
      await waitFor(() => hub.subscriptions === 1, 'the stream to listen');
      await publishEvent(t.db, { type: 'customer_changed', userId });
      await waitFor(() => stream.values.length === 1, 'an event before the expiry');
      // A tab left open for longer than the session lasts: nothing else happens, no event comes.
      await expire();
      await waitFor(() => stream.ended !== null, 'the stream to end', 2000);
      expect(stream.ended).toBe('UNAUTHORIZED');
      expect(stream.values).toHaveLength(1);
    }));

  it("end an expired session's stream at the next event instead of delivering it", () =>
    withSignedInUser({}, async ({ caller, userId, expire }) => {
      const stream = watch(await caller.live.feed());
      await expire();
      await publishEvent(t.db, { type: 'customer_changed', userId });
      await waitFor(() => stream.ended !== null, 'the stream to end');
      expect(stream.ended).toBe('UNAUTHORIZED');
      expect(stream.values).toEqual([]);
    }));

  it('end an admin stream at the next check when a demotion announced nothing', () =>
    withSignedInUser({ admin: true, accessRecheckMs: 200 }, async ({ caller, userId }) => {
      const stream = watch(await caller.live.feed());
      await waitFor(() => stream.values.length === 1, 'the first count');
      // Still an admin: the periodic checks let the stream be.
      await holdsFor(() => stream.ended === null, 'the stream', 500);
      await t.db.updateTable('customers').set({ is_admin: false }).where('id', '=', userId).execute();
      await waitFor(() => stream.ended !== null, 'the stream to end', 2000);
      expect(stream.ended).toBe('FORBIDDEN');
      expect(stream.values).toHaveLength(1);
    }));

  it('end streams with a code the client retries when the server closes', () =>
    withSignedInUser({}, async ({ hub, caller }) => {
      const stream = watch(await caller.live.feed());
      await hub.stop();
      await waitFor(() => stream.ended !== null, 'the stream to end');
      expect(stream.ended).toBe('SERVICE_UNAVAILABLE');
    }));
});
