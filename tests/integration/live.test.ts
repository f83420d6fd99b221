import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { EventHub, publishEvent } from '../../src/server/events/events';
import type { AppRouter } from '../../src/server/trpc/router';
import { callerFor, callTrpc, createTestApp, insertUser, type TestApp } from '../support/app';
import { waitFor } from '../support/async';

let t: TestApp;
let baseUrl: string;
let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await insertUser(t.db, 'live-admin@example.com', { admin: true, password: 'livepass1' });
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
    const subscription = sseClient(adminCookie).admin.contact.onNewCount.subscribe(undefined, { onData: (n) => counts.push(n) });
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

  it('refuses a customer', async () => {
    await insertUser(t.db, 'live-customer@example.com', { password: 'livepass1' });
    const res = await callTrpc(t.app, 'auth.signIn', { input: { email: 'live-customer@example.com', password: 'livepass1' } });
    const errors: string[] = [];
    const subscription = sseClient(`session=${res.cookies.session}`).admin.contact.onNewCount.subscribe(undefined, {
      onData: () => errors.push('data'),
      onError: (error) => errors.push(error.data?.code ?? error.message),
    });
    await waitFor(() => errors.length > 0, 'the refusal');
    subscription.unsubscribe();
    expect(errors[0]).toBe('FORBIDDEN');
  });
});

describe('live events in one process', () => {
  it('tell a user only about changes to their own account', async () => {
    const hub = new EventHub(t.database);
    await hub.start();
    const userId = await insertUser(t.db, 'watcher@example.com');
    const otherId = await insertUser(t.db, 'other@example.com');
    const { caller } = callerFor(t.database, t.config, { id: userId, email: 'watcher@example.com' }, { events: hub });
    const iterator = (await caller.live.myAccount())[Symbol.asyncIterator]();
    const next = iterator.next();
    // Notifications arrive in order: had the other user's event got through, it would be read first.
    await publishEvent(t.db, { type: 'customer_changed', userId: otherId });
    await publishEvent(t.db, { type: 'customer_changed', userId });
    expect(await next).toEqual({ done: false, value: { changed: true } });
    await iterator.return?.(undefined);
    await hub.stop();
  });

  it('end an admin stream once the admin is demoted', async () => {
    const hub = new EventHub(t.database);
    await hub.start();
    const adminId = await insertUser(t.db, 'soon-former@example.com', { admin: true });
    const { caller } = callerFor(t.database, t.config, { id: adminId, email: 'soon-former@example.com' }, { events: hub });
    const stream = await caller.admin.contact.onNewCount();
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual(expect.any(Number));
    await t.db.updateTable('customers').set({ is_admin: false }).where('id', '=', adminId).execute();
    await publishEvent(t.db, { type: 'contact_submissions_changed' });
    await expect(iterator.next()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await hub.stop();
  });
});
