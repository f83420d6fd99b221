import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/database';
import { enqueueEmail } from '../../src/server/email/queue';
import { TEST_ORIGIN } from '../support/app';
import { waitFor } from '../support/async';
import { createTestDatabase } from '../support/db';
import {
  createAdmin,
  createCategory,
  createCustomer,
  createMembership,
  createPlan,
  createProduct,
  DEFAULT_PASSWORD,
} from '../support/factories';
import { startLocalS3, type LocalS3 } from '../support/s3';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

// Several processes behave as one store: two real server.ts processes (A and B) on one PostgreSQL database and one S3
// bucket behave as one store. Sessions, rate limits, files, live events, the email queue and the
// subscription renewals are each shown across the two. Needs a PostgreSQL server
// (TEST_DATABASE_URL): the embedded database belongs to one process by design.

const LIMIT = 4;
const onServer = Boolean(process.env.TEST_DATABASE_URL);

let database: DatabaseHandle & { url?: string };
let s3: LocalS3;
let smtp: TestSmtpServer;
let a: ServerProcess;
let b: ServerProcess;
let dataDirs: string[] = [];

beforeAll(async () => {
  if (!onServer) return;
  [database, s3, smtp] = await Promise.all([createTestDatabase(), startLocalS3(), startSmtpServer()]);
  const env = {
    NODE_ENV: 'development',
    DATABASE_URL: database.url!,
    ...s3.env,
    PUBLIC_URL: TEST_ORIGIN,
    SMTP_URL: smtp.url,
    EMAIL_POLL_INTERVAL_MS: '100',
    SUBSCRIPTION_RENEW_INTERVAL_MS: '1000',
    AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT),
    TRUST_PROXY: '1',
    SEED_DEMO_DATA: 'false',
  };
  // A folder of its own for each: nothing may pass between them through a shared disk.
  const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-process-'));
  dataDirs = [dataDir(), dataDir()];
  [a, b] = await Promise.all([
    startServerProcess({ ...env, DATA_DIR: dataDirs[0]! }),
    startServerProcess({ ...env, DATA_DIR: dataDirs[1]! }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.kill(), b?.kill()]);
  await Promise.all([database?.close(), s3?.stop(), smtp?.close()]);
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A tRPC mutation over HTTP to one process, as the store's own page sends it. */
const mutate = (server: ServerProcess, procedure: string, input: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}/trpc/${procedure}`, {
    method: 'POST',
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
  });

async function signIn(server: ServerProcess, email: string): Promise<string> {
  const res = await mutate(server, 'auth.signIn', { email, password: DEFAULT_PASSWORD });
  expect(res.status).toBe(200);
  return /session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
}

const me = async (server: ServerProcess, cookie: string) =>
  (
    (await (await fetch(`${server.baseUrl}/trpc/auth.me`, { headers: { cookie } })).json()) as {
      result: { data: { email: string } | null };
    }
  ).result.data;

describe.runIf(onServer)('two app processes on one database and one bucket', () => {
  it('a session made on A works on B, and signing out on B ends it on A', async () => {
    const customer = await createCustomer(database.db);
    const cookie = await signIn(a, customer.email);
    expect(await me(b, cookie)).toMatchObject({ email: customer.email });
    expect((await mutate(b, 'auth.signOut', null, { cookie })).status).toBe(200);
    expect(await me(a, cookie)).toBeNull();
  });

  it('sign-in attempts spread over A and B hit the limit at the configured count', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LIMIT + 2; attempt++) {
      const res = await mutate(
        attempt % 2 === 0 ? a : b,
        'auth.signIn',
        { email: 'nobody@example.com', password: 'wrong password' },
        {
          'x-forwarded-for': '10.1.2.3',
        },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(400), 429, 429]);
  });

  it('an image uploaded through A is served by B', async () => {
    const admin = await createAdmin(database.db);
    const cookie = await signIn(a, admin.email);
    const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#1e3a8a' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'banner.png');
    const uploaded = await fetch(`${a.baseUrl}/api/uploads/categories`, {
      method: 'POST',
      headers: { origin: TEST_ORIGIN, cookie },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { url } = (await uploaded.json()) as { url: string };
    const served = await fetch(`${b.baseUrl}${url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await s3.keys()).some((key) => `/storage/${key}` === url)).toBe(true);
  });

  it('a contact message sent through A updates the admin badge streamed by B', async () => {
    const admin = await createAdmin(database.db);
    const cookie = await signIn(b, admin.email);
    const stream = await fetch(`${b.baseUrl}/trpc/live.feed`, { headers: { cookie, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let streamed = '';
    const counts = () => [...streamed.matchAll(/"newContactCount","count":(\d+)/g)].map((match) => Number(match[1]));
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        streamed += new TextDecoder().decode(value);
      }
    })().catch(() => undefined);
    try {
      await waitFor(() => counts().length === 1, 'the first badge count', 10_000);
      const before = counts()[0]!;
      const sent = await mutate(a, 'contact.submit', {
        name: 'Sam',
        email: 'sam@example.com',
        subject: 'Sizes',
        message: 'Do you have XXL?',
      });
      expect(sent.status).toBe(200);
      await waitFor(() => counts().length === 2, 'the badge count after the message', 10_000);
      expect(counts()[1]).toBe(before + 1);
    } finally {
      await reader.cancel();
      await reading;
    }
  });

  it('each queued email is sent once although both processes run the processor', async () => {
    smtp.reset();
    const subjects = Array.from({ length: 12 }, (_, i) => `Shared queue ${i + 1}`);
    for (const subject of subjects) await enqueueEmail(database.db, { to: 'queue@example.com', subject, text: 'x' }, 5);
    const sent = () => smtp.accepted().flatMap((mail) => (mail.subject?.startsWith('Shared queue') ? [mail.subject] : []));
    await waitFor(() => sent().length >= subjects.length, 'the queue to drain', 20_000);
    // A little longer: a second sending of any of them would show now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(sent().sort()).toEqual([...subjects].sort());
  });

  it('a due subscription renews once although both processes run the renewals', async () => {
    const category = await createCategory(database.db);
    await createProduct(database.db, { category_id: category.id, name: 'Club Tee' });
    const customer = await createCustomer(database.db);
    const membership = await createMembership(database.db, {
      customerId: customer.id,
      plan: await createPlan(database.db),
      // Today as the renewal engine reads the clock (UTC).
      startsOn: new Date().toISOString().slice(0, 10),
      category_ids: [category.id],
    });
    const orders = async () =>
      (await database.db.selectFrom('orders').select('id').where('subscription_id', '=', membership.id).execute()).length;
    await expect.poll(orders, { timeout: 15_000, interval: 200 }).toBe(1);
    // Both processes have looked again (every second) by now.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await orders()).toBe(1);
    const cycles = await database.db
      .selectFrom('subscription_cycles')
      .select('outcome')
      .where('subscription_id', '=', membership.id)
      .execute();
    expect(cycles).toHaveLength(1);
  });
});
