import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createAuthToken } from '../../src/server/auth/tokens';
import { createSession } from '../../src/server/auth/session';
import { LISTENER_APPLICATION_NAME } from '../../src/server/db/database';
import { EventHub, publishEvent, type StoreEvent } from '../../src/server/events/events';
import { purgeOldRows } from '../../src/server/retention';
import { addDays, today } from '../../src/server/subscriptions/dates';
import { callTrpc, sharedTestApp } from '../support/app';
import { withAdminClient } from '../support/db';
import { createCustomer, createMembership, createOrder, createPlan } from '../support/factories';

// Running the store for years: /metrics for a scraper (behind METRICS_TOKEN), /readyz with the
// connection that LISTENs, and the purge of rows that only pile up (README "Monitoring").

const TOKEN = 'a-metrics-token-for-tests';
const t = sharedTestApp({ METRICS_TOKEN: TOKEN, AUTH_RATE_LIMIT_PER_MINUTE: '2' });
const onServer = Boolean(process.env.TEST_DATABASE_URL);

const scrape = (authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });

/** The value of one series of the scrape, e.g. value(text, 'threadline_emails{status="pending"}'). */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  it('answers only the bearer of METRICS_TOKEN', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(TOKEN)).statusCode).toBe(401);
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts requests per route and procedure, rate-limit refusals and catalog cache hits, and reports the event loop', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    const message = { name: 'Sam', email: 'sam@example.com', subject: 'Hi', message: 'Hello there' };
    for (let i = 0; i < 3; i++) await callTrpc(t.app, 'contact.submit', { input: message });
    for (let i = 0; i < 2; i++) await callTrpc(t.app, 'catalog.categories', { type: 'query' });
    await callTrpc(t.app, 'no.such.procedure', { type: 'query' });

    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(value(text, 'threadline_http_requests_total{method="GET",route="/healthz",status="200"}')).toBe(1);
    expect(value(text, 'threadline_trpc_calls_total{procedure="contact.submit",status="200"}')).toBe(2);
    expect(value(text, 'threadline_trpc_calls_total{procedure="contact.submit",status="429"}')).toBe(1);
    expect(value(text, 'threadline_trpc_calls_total{procedure="unknown",status="404"}')).toBe(1);
    expect(value(text, 'threadline_rate_limit_refusals_total{procedure="contact.submit"}')).toBe(1);
    expect(value(text, 'threadline_trpc_call_duration_seconds_count{procedure="catalog.categories"}')).toBe(2);
    expect(value(text, 'threadline_catalog_cache_reads{result="hit"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(value(text, 'threadline_listener_connected')).toBe(1);
  });

  it('reports what piles up: emails waiting, renewals due and late, the print queue, card renewals without their notice', async () => {
    const hourAgo = new Date(Date.now() - 3600_000);
    await t.db
      .insertInto('email_queue')
      .values({ to_email: 'late@example.com', subject: 'Waiting', text_body: 'x', created_at: hourAgo })
      .execute();
    const member = await createCustomer(t.db);
    const plan = await createPlan(t.db);
    const day = today({ now: () => new Date() });
    await createMembership(t.db, { customerId: member.id, plan, startsOn: addDays(day, -2) });
    await createMembership(t.db, { customerId: (await createCustomer(t.db)).id, plan, startsOn: day });
    await createMembership(t.db, {
      customerId: (await createCustomer(t.db)).id,
      plan,
      startsOn: addDays(day, -1),
      payment_provider: 'stripe',
    });
    await createOrder(t.db, { customer_id: member.id, payment_status: 'paid', paid_at: hourAgo }, [
      { product_name: 'Tee', size: 'M', quantity: 3, unit_price: '10.00', total_price: '30.00', print_status: 'pending' },
    ]);

    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(value(text, 'threadline_emails{status="pending"}')).toBeGreaterThanOrEqual(3);
    expect(value(text, 'threadline_email_oldest_pending_seconds')).toBeGreaterThanOrEqual(3600);
    expect(value(text, 'threadline_renewals_due')).toBe(2);
    expect(value(text, 'threadline_renewals_late')).toBe(1);
    expect(value(text, 'threadline_webhook_backlog{provider="stripe"}')).toBe(1);
    expect(value(text, 'threadline_fulfilment_backlog_items{provider="self"}')).toBe(3);
    expect(value(text, 'threadline_fulfilment_oldest_paid_seconds{provider="self"}')).toBeGreaterThanOrEqual(3600);
  });
});

describe('/readyz', () => {
  it('reports the connection that listens for live updates', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ ok: true, listener: 'connected' });
  });

  it.runIf(onServer)('says while that connection reconnects, and live updates resume once it is back', async () => {
    const [{ name }] = (await sql<{ name: string }>`select current_database() as name`.execute(t.db)).rows as [{ name: string }];
    const allowConnections = (allow: boolean) =>
      withAdminClient(process.env.TEST_DATABASE_URL!, (client) =>
        client.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS ${allow}`),
      );
    const readyz = async () => (await t.app.inject({ method: 'GET', url: '/readyz' })).json<{ ok: boolean; listener: string }>();
    // A hub of its own on the app's database: they share the one connection that listens.
    const hub = new EventHub(t.database);
    await hub.start();
    const received: StoreEvent[] = [];
    void (async () => {
      for await (const event of hub.subscribe(undefined)) received.push(event);
    })();
    try {
      // The database ends it, as a restart or failover would, and refuses a new one for now.
      await allowConnections(false);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`.execute(t.db);
      await vi.waitFor(async () => expect(await readyz()).toEqual({ ok: true, listener: 'reconnecting' }));
      expect(value((await scrape(`Bearer ${TOKEN}`)).body, 'threadline_listener_connected')).toBe(0);

      await allowConnections(true);
      await vi.waitFor(async () => expect(await readyz()).toEqual({ ok: true, listener: 'connected' }), { timeout: 15_000 });
      await publishEvent(t.db, { type: 'contact_submissions_changed' });
      await vi.waitFor(() => expect(received).toContainEqual({ type: 'contact_submissions_changed' }));
    } finally {
      await allowConnections(true);
      await hub.stop();
    }
  });
});

describe('old rows', () => {
  it('are purged: sent emails after EMAIL_RETENTION_DAYS, used or expired emailed links, ended sessions', async () => {
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600_000);
    const email = (subject: string, status: 'sent' | 'failed', sentDaysAgo: number | null) =>
      t.db
        .insertInto('email_queue')
        .values({
          to_email: 'old@example.com',
          subject,
          text_body: 'x',
          status,
          sent_at: sentDaysAgo === null ? null : daysAgo(sentDaysAgo),
          created_at: daysAgo(200),
        })
        .execute();
    await email('Sent long ago', 'sent', 91);
    await email('Sent lately', 'sent', 89);
    await email('Never sent', 'failed', null);
    const user = await createCustomer(t.db);
    await createAuthToken(t.db, user.id, 'password_reset', 3600_000);
    await t.db.updateTable('auth_tokens').set({ used_at: now }).where('user_id', '=', user.id).execute();
    await createAuthToken(t.db, user.id, 'email_confirmation', -1000);
    await createAuthToken(t.db, user.id, 'password_reset', 3600_000);
    await createSession(t.db, user.id, 30);
    const ended = await createSession(t.db, user.id, 30);
    await t.db
      .updateTable('sessions')
      .set({ expires_at: daysAgo(1) })
      .where('id', '=', ended.token.split('.')[0]!)
      .execute();

    expect(await purgeOldRows(t.db, { emailRetentionDays: t.config.emailRetentionDays, now })).toMatchObject({
      authTokens: 2,
      sessions: 1,
    });
    const subjects = (await t.db.selectFrom('email_queue').select('subject').where('to_email', '=', 'old@example.com').execute()).map(
      (e) => e.subject,
    );
    expect(subjects.sort()).toEqual(['Never sent', 'Sent lately']);
    expect(await t.db.selectFrom('auth_tokens').select('used_at').where('user_id', '=', user.id).execute()).toEqual([{ used_at: null }]);
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
  });
});
