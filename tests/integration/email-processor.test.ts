import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect, sql, type KyselyPlugin } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { openDatabase, type DatabaseHandle, type Db } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import type { DB } from '../../src/server/db/schema';
import { backoffDelayMs, processEmailQueue, startEmailProcessor } from '../../src/server/email/processor';
import { enqueueEmail } from '../../src/server/email/queue';
import { createOutboxTransport, createSmtpTransport, createTransport, type EmailTransport } from '../../src/server/email/transport';
import { createTestDatabase } from '../support/db';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

const FROM = 'Threadline <shop@threadline.example>';

let database: DatabaseHandle & { url?: string };
let db: Db;
let smtp: TestSmtpServer;
let transport: EmailTransport;
const tmpDirs: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  smtp = await startSmtpServer();
  transport = createSmtpTransport(smtp.url);
});

afterAll(async () => {
  await transport.close();
  await smtp.close();
  await database.close();
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await db.deleteFrom('email_queue').execute(); // logs go with it (ON DELETE CASCADE)
  smtp.reset();
});

function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-email-'));
  tmpDirs.push(dir);
  return dir;
}

const run = (options: { db?: Db; transport?: EmailTransport; batchSize?: number; leaseMs?: number } = {}) =>
  processEmailQueue(options.db ?? db, options.transport ?? transport, {
    from: FROM,
    batchSize: options.batchSize ?? 20,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
  });

const queueRow = (id: string, on: Db = db) => on.selectFrom('email_queue').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const logsOf = (id: string) => db.selectFrom('email_logs').selectAll().where('email_queue_id', '=', id).orderBy('attempt_number').execute();

/**
 * Backdates a row. PGlite's clock has millisecond resolution, so rows queued back to back can
 * share a created_at; tests about order set it explicitly.
 */
const queuedSecondsAgo = (id: string, seconds: number) =>
  // Raw SQL: the schema types created_at as never updated.
  sql`UPDATE email_queue SET created_at = now() - make_interval(secs => ${seconds}) WHERE id = ${id}`.execute(db);

/** Makes a failed row due now, as if its backoff had passed. */
const makeDue = (id: string) =>
  db
    .updateTable('email_queue')
    .set({ next_retry_at: sql<string>`now() - interval '1 second'` })
    .where('id', '=', id)
    .execute();

describe('backoffDelayMs', () => {
  it('doubles from 30 seconds and stops at 6 hours', () => {
    expect([1, 2, 3, 4].map(backoffDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoffDelayMs(10)).toBe(30_000 * 512);
    expect(backoffDelayMs(11)).toBe(6 * 60 * 60 * 1000);
    expect(backoffDelayMs(1000)).toBe(6 * 60 * 60 * 1000);
  });
});

describe('processEmailQueue over SMTP', () => {
  it('sends an accepted email, marks it sent and logs attempt 1 with code 250', async () => {
    const id = await enqueueEmail(
      db,
      { to: 'buyer@example.com', subject: 'Your order TL-1001', text: 'Thanks for your order.', html: '<p>Thanks for your order.</p>' },
      5,
    );

    expect(await run()).toEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 });

    const row = await queueRow(id);
    expect(row.status).toBe('sent');
    expect(row.sent_at).not.toBeNull();
    expect(row.message_id).toMatch(/^<.+@.+>$/);
    expect(row).toMatchObject({ retry_count: 0, last_error: null, next_retry_at: null, locked_until: null });

    const logs = await logsOf(id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ attempt_number: 1, status: 'success', response_code: 250, error_message: null });

    const mails = smtp.accepted();
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toEqual(['buyer@example.com']);
    expect(mail.from).toBe('shop@threadline.example');
    expect(mail.subject).toBe('Your order TL-1001');
    expect(mail.raw).toMatch(/^To: buyer@example\.com\r?$/m);
    expect(mail.raw).toMatch(/^From: Threadline <shop@threadline\.example>\r?$/m);
    expect(mail.raw).toContain('Thanks for your order.');
    expect(mail.raw).toContain('<p>Thanks for your order.</p>');
    expect(mail.raw).toContain(`Message-ID: ${row.message_id}`);
    expect(mail.raw).not.toMatch(/^Reply-To:/m);
  });

  it('names where replies go when the email says, and quotes a store name with punctuation in From', async () => {
    await enqueueEmail(
      db,
      { to: 'shop@threadline.example', replyTo: 'rider@example.com', subject: 'New contact message: Hi', text: 'x' },
      5,
    );
    const from = { name: 'Tees & Co: Shop (US)', address: 'shop@threadline.example' };
    expect(await processEmailQueue(db, transport, { from, batchSize: 5 })).toEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 });
    const [mail] = smtp.accepted();
    expect(mail!.raw).toMatch(/^Reply-To: rider@example\.com\r?$/m);
    expect(mail!.raw).toMatch(/^From: "Tees & Co: Shop \(US\)" <shop@threadline\.example>\r?$/m);
  });

  it('retries a temporary 4xx rejection with backoff, then sends it', async () => {
    const id = await enqueueEmail(db, { to: 'later@example.com', subject: 'Try me later', text: 'Hello' }, 5);
    smtp.reply = () => 451;

    const before = Date.now();
    expect(await run()).toEqual({ sent: 0, retrying: 1, permanentlyFailed: 0 });
    const failed = await queueRow(id);
    expect(failed).toMatchObject({ status: 'failed', retry_count: 1, locked_until: null, sent_at: null });
    expect(failed.last_error).toContain('451');
    // next_retry_at is now + 30 s (first backoff step), by the database's clock.
    const due = Date.parse(failed.next_retry_at!);
    expect(due).toBeGreaterThan(before + 25_000);
    expect(due).toBeLessThan(Date.now() + 35_000);
    expect(await logsOf(id)).toMatchObject([{ attempt_number: 1, status: 'failed', response_code: 451 }]);

    // Not due yet: another pass leaves it alone.
    expect(await run()).toEqual({ sent: 0, retrying: 0, permanentlyFailed: 0 });
    expect(smtp.received).toHaveLength(1);

    smtp.reply = () => 250;
    await makeDue(id);
    expect(await run()).toEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 });
    const sent = await queueRow(id);
    expect(sent).toMatchObject({ status: 'sent', last_error: null, next_retry_at: null, locked_until: null });
    expect(sent.sent_at).not.toBeNull();
    expect(await logsOf(id)).toMatchObject([
      { attempt_number: 1, status: 'failed', response_code: 451 },
      { attempt_number: 2, status: 'success', response_code: 250, error_message: null },
    ]);
    expect(smtp.accepted().map((m) => m.subject)).toEqual(['Try me later']);
  });

  it('gives up at once on a permanent 5xx rejection', async () => {
    const id = await enqueueEmail(db, { to: 'perm-fail@example.com', subject: 'Nobody home', text: 'Hello' }, 5);

    expect(await run()).toEqual({ sent: 0, retrying: 0, permanentlyFailed: 1 });
    const row = await queueRow(id);
    expect(row).toMatchObject({ status: 'permanently_failed', retry_count: 1, next_retry_at: null, locked_until: null, sent_at: null });
    expect(row.last_error).toContain('550');
    const logs = await logsOf(id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ attempt_number: 1, status: 'failed', response_code: 550 });
    expect(logs[0]!.error_message).toContain('550');

    // Never claimed again, even with a past retry time.
    await makeDue(id);
    expect(await run()).toEqual({ sent: 0, retrying: 0, permanentlyFailed: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it('gives up at once on an email the mail library refuses before sending it (no recipient in its address)', async () => {
    const id = await enqueueEmail(db, { to: 'Nobody <>', subject: 'Nowhere', text: 'Hello' }, 5);
    expect(await run()).toEqual({ sent: 0, retrying: 0, permanentlyFailed: 1 });
    expect(await queueRow(id)).toMatchObject({ status: 'permanently_failed', retry_count: 1 });
    expect(smtp.received).toHaveLength(0);
  });

  it('gives up when the retries are used up', async () => {
    const id = await enqueueEmail(db, { to: 'temp-fail@example.com', subject: 'Always busy', text: 'Hello' }, 2);

    expect(await run()).toEqual({ sent: 0, retrying: 1, permanentlyFailed: 0 });
    expect(await queueRow(id)).toMatchObject({ status: 'failed', retry_count: 1 });

    await makeDue(id);
    expect(await run()).toEqual({ sent: 0, retrying: 0, permanentlyFailed: 1 });
    expect(await queueRow(id)).toMatchObject({ status: 'permanently_failed', retry_count: 2, next_retry_at: null, locked_until: null });
    expect(await logsOf(id)).toMatchObject([
      { attempt_number: 1, status: 'failed', response_code: 451 },
      { attempt_number: 2, status: 'failed', response_code: 451 },
    ]);
  });

  it('treats an unreachable server as no fault of the email: tried again later, no try used up, the rest left for later', async () => {
    const gone = await startSmtpServer();
    await gone.close(); // its port is now closed: connection refused
    const unreachable = createSmtpTransport(gone.url);
    try {
      const id = await enqueueEmail(db, { to: 'buyer@example.com', subject: 'No server', text: 'Hello' }, 2);
      await queuedSecondsAgo(id, 10);
      const waiting = await enqueueEmail(db, { to: 'next@example.com', subject: 'Also waiting', text: 'Hello' }, 2);
      expect(await run({ transport: unreachable })).toEqual({ sent: 0, retrying: 1, permanentlyFailed: 0 });
      const row = await queueRow(id);
      expect(row).toMatchObject({ status: 'failed', retry_count: 0 });
      expect(row.next_retry_at).not.toBeNull();
      expect(await queueRow(waiting)).toMatchObject({ status: 'pending', retry_count: 0 });
      const logs = await logsOf(id);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ attempt_number: 1, status: 'failed', response_code: null });
      expect(logs[0]!.error_message).toBeTruthy();

      // An outage longer than the email's tries: still waiting, never given up.
      for (let attempt = 2; attempt <= 4; attempt++) {
        await makeDue(id);
        await run({ transport: unreachable });
      }
      expect(await queueRow(id)).toMatchObject({ status: 'failed', retry_count: 0 });
      expect(await logsOf(id)).toHaveLength(4);
      await makeDue(id);
      expect(await run()).toEqual({ sent: 2, retrying: 0, permanentlyFailed: 0 });
    } finally {
      await unreachable.close();
    }
  });

  it("treats a refused login (535) as the settings' fault, not the email's: no email fails for good until it is mended", async () => {
    const withLogin = (password: string) => {
      const url = new URL(smtp.url);
      [url.username, url.password] = ['shop', password];
      return createSmtpTransport(url.toString());
    };
    const wrong = withLogin('rotated-away');
    const right = withLogin(smtp.password);
    try {
      const ids = [
        await enqueueEmail(db, { to: 'a@example.com', subject: 'First', text: 'Hello' }, 1),
        await enqueueEmail(db, { to: 'b@example.com', subject: 'Second', text: 'Hello' }, 1),
      ];
      await queuedSecondsAgo(ids[0]!, 10);
      expect(await run({ transport: wrong })).toEqual({ sent: 0, retrying: 1, permanentlyFailed: 0 });
      expect(await queueRow(ids[0]!)).toMatchObject({ status: 'failed', retry_count: 0 });
      expect((await logsOf(ids[0]!))[0]).toMatchObject({ status: 'failed', response_code: 535 });
      expect(await queueRow(ids[1]!)).toMatchObject({ status: 'pending' });

      await makeDue(ids[0]!);
      expect(await run({ transport: right })).toEqual({ sent: 2, retrying: 0, permanentlyFailed: 0 });
      expect(smtp.accepted().map((mail) => mail.subject)).toEqual(['First', 'Second']);
    } finally {
      await Promise.all([wrong.close(), right.close()]);
    }
  });

  it('claims only due rows without a live lease, oldest first, at most batchSize', async () => {
    const due = await enqueueEmail(db, { to: 'a@example.com', subject: 'Due', text: 'x' }, 5);
    const later = await enqueueEmail(db, { to: 'b@example.com', subject: 'Not yet due', text: 'x' }, 5);
    await db
      .updateTable('email_queue')
      .set({ status: 'failed', retry_count: 1, next_retry_at: sql<string>`now() + interval '1 hour'` })
      .where('id', '=', later)
      .execute();
    const leased = await enqueueEmail(db, { to: 'c@example.com', subject: 'Leased', text: 'x' }, 5);
    await db
      .updateTable('email_queue')
      .set({ locked_until: sql<string>`now() + interval '1 minute'` })
      .where('id', '=', leased)
      .execute();
    const expired = await enqueueEmail(db, { to: 'd@example.com', subject: 'Lease ran out', text: 'x' }, 5);
    await db
      .updateTable('email_queue')
      .set({ locked_until: sql<string>`now() - interval '1 second'` })
      .where('id', '=', expired)
      .execute();
    await queuedSecondsAgo(due, 40);
    await queuedSecondsAgo(later, 30);
    await queuedSecondsAgo(leased, 20);
    await queuedSecondsAgo(expired, 10);

    // batchSize 1 takes the oldest due row only.
    expect(await run({ batchSize: 1 })).toEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 });
    expect((await queueRow(due)).status).toBe('sent');
    expect((await queueRow(expired)).status).toBe('pending');

    expect(await run()).toEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 });
    expect(smtp.accepted().map((m) => m.subject)).toEqual(['Due', 'Lease ran out']);
    expect(await queueRow(later)).toMatchObject({ status: 'failed', retry_count: 1 });
    expect(await queueRow(leased)).toMatchObject({ status: 'pending' });
    expect((await queueRow(leased)).locked_until).not.toBeNull();
    expect(await logsOf(later)).toHaveLength(0);
    expect(await logsOf(leased)).toHaveLength(0);
  });

  it('renews the lease of a slow send, so no other processor takes that email meanwhile', async () => {
    const id = await enqueueEmail(db, { to: 'slow@example.com', subject: 'Slow server', text: 'x' }, 5);
    // The mail server takes three leases to answer; the claim must outlive them all.
    smtp.delayMs = 1500;
    const slow = run({ leaseMs: 500 });
    await vi.waitFor(async () => expect((await queueRow(id)).locked_until).not.toBeNull(), { interval: 20 });
    const others: number[] = [];
    while (smtp.received.length === 0) {
      others.push((await run({ leaseMs: 500 })).sent);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await slow).toEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 });
    expect(others.every((sent) => sent === 0)).toBe(true);
    expect(smtp.received.map((m) => m.subject)).toEqual(['Slow server']);
    expect(await logsOf(id)).toMatchObject([{ attempt_number: 1, status: 'success' }]);
  });

  it('records an email the server took even when the database refuses for a while, holding it meanwhile: it goes out once', async () => {
    const id = await enqueueEmail(db, { to: 'blip@example.com', subject: 'Database blip', text: 'x' }, 5);
    // Right after the mail server takes it, the record cannot be written (a failover, say), for
    // longer than the lease; then the database is back.
    let healed: Promise<unknown> = Promise.resolve();
    const blip: EmailTransport = {
      kind: transport.kind,
      send: async (message) => {
        const result = await transport.send(message);
        await sql`ALTER TABLE email_logs RENAME TO email_logs_away`.execute(db);
        healed = new Promise((resolve) => setTimeout(resolve, 1200)).then(() =>
          sql`ALTER TABLE email_logs_away RENAME TO email_logs`.execute(db),
        );
        return result;
      },
      close: () => transport.close(),
    };
    const first = run({ transport: blip, leaseMs: 500 });
    await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { interval: 20 });
    const others: number[] = [];
    let done = false;
    void first.finally(() => (done = true));
    while (!done) {
      others.push((await run({ leaseMs: 500 })).sent);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await healed;
    expect(await first).toEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 });
    expect(others.every((sent) => sent === 0)).toBe(true);
    expect(smtp.received.map((m) => m.subject)).toEqual(['Database blip']);
    expect(await queueRow(id)).toMatchObject({ status: 'sent', locked_until: null });
    expect(await logsOf(id)).toMatchObject([{ attempt_number: 1, status: 'success' }]);
  });

  it('claims one email at a time: a processor that dies mid-send holds back only that one, for about the lease', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push(await enqueueEmail(db, { to: `victim${i}@example.com`, subject: `Victim ${i}`, text: 'x' }, 5));
    for (const [i, id] of ids.entries()) await queuedSecondsAgo(id, 10 - i);

    // The dying processor: its mail server never answers, and once it is "killed" its database
    // calls (lease renewals included) fail, as they would for a process that is gone.
    let dead = false;
    const killSwitch: KyselyPlugin = {
      transformQuery: (args) => {
        if (dead) throw new Error('this processor is dead');
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    let sending = 0;
    let abandon: (error: Error) => void = () => undefined;
    const hanging: EmailTransport = {
      kind: 'smtp',
      send() {
        sending++;
        return new Promise((_resolve, reject) => (abandon = reject));
      },
      close: () => Promise.resolve(),
    };
    const leaseMs = 1500;
    const dying = run({ db: db.withPlugin(killSwitch), transport: hanging, leaseMs });
    await vi.waitFor(() => expect(sending).toBe(1), { interval: 20 });
    dead = true;
    const diedAt = Date.now();

    // Every other email is free at once: another processor sends them straight away.
    expect(await run()).toEqual({ sent: 4, retrying: 0, permanentlyFailed: 0 });
    expect(smtp.accepted().map((m) => m.subject)).toEqual(['Victim 2', 'Victim 3', 'Victim 4', 'Victim 5']);
    expect((await queueRow(ids[0]!)).locked_until).not.toBeNull();

    // The one in the dead processor's hands goes out once its lease runs out.
    let sentAt = 0;
    while (!sentAt) {
      if ((await run()).sent === 1) sentAt = Date.now();
      else await new Promise((resolve) => setTimeout(resolve, 100));
      expect(Date.now() - diedAt).toBeLessThan(leaseMs * 2 + 2000);
    }
    expect(sentAt - diedAt).toBeGreaterThan(leaseMs / 2);
    expect(await queueRow(ids[0]!)).toMatchObject({ status: 'sent', locked_until: null });

    // Nothing went twice.
    const subjects = smtp.accepted().map((m) => m.subject);
    expect(subjects).toHaveLength(5);
    expect(new Set(subjects).size).toBe(5);
    abandon(new Error('connection lost'));
    await expect(dying).rejects.toThrow('this processor is dead');
  });

  it('sends every email exactly once with two processors working the same queue', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 12; i++)
      ids.push(await enqueueEmail(db, { to: `buyer${i}@example.com`, subject: `Concurrent ${i}`, text: 'x' }, 5));

    // On a PostgreSQL server the second processor gets its own connection pool, so the two
    // really race; PGlite has one connection, so both share it as the app's code would.
    const second = database.url ? await openDatabase({ databaseUrl: database.url }) : undefined;
    const secondTransport = createSmtpTransport(smtp.url);
    try {
      const drain = async (on: Db, via: EmailTransport) => {
        let sent = 0;
        for (;;) {
          const result = await run({ db: on, transport: via, batchSize: 3 });
          if (result.sent === 0) return sent;
          sent += result.sent;
        }
      };
      const [a, b] = await Promise.all([drain(db, transport), drain(second?.db ?? db, secondTransport)]);
      expect(a + b).toBe(12);
    } finally {
      await secondTransport.close();
      await second?.close();
    }

    const subjects = smtp.accepted().map((m) => m.subject);
    expect(subjects).toHaveLength(12);
    expect(new Set(subjects).size).toBe(12);
    for (const id of ids) {
      expect((await queueRow(id)).status).toBe('sent');
      expect(await logsOf(id)).toMatchObject([{ attempt_number: 1, status: 'success', response_code: 250 }]);
    }
  });
});

describe('outbox transport', () => {
  it('writes one .eml file per email, named in sending order', async () => {
    const dir = path.join(tmpDir(), 'outbox');
    const outbox = createOutboxTransport(dir);
    const first = await enqueueEmail(db, { to: 'reader@example.com', subject: 'Reset your password', text: 'Follow this link' }, 5);
    const second = await enqueueEmail(db, { to: 'reader@example.com', subject: 'Welcome', text: 'Hi', html: '<b>Hi</b>' }, 5);
    await queuedSecondsAgo(first, 2);
    await queuedSecondsAgo(second, 1);

    expect(await run({ transport: outbox })).toEqual({ sent: 2, retrying: 0, permanentlyFailed: 0 });

    const files = fs.readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    const [firstFile, secondFile] = files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    expect(firstFile).toMatch(/^Subject: Reset your password\r$/m);
    expect(firstFile).toMatch(/^To: reader@example\.com\r$/m);
    expect(firstFile).toMatch(/^From: Threadline <shop@threadline\.example>\r$/m);
    expect(firstFile).toContain('Follow this link');
    expect(secondFile).toMatch(/^Subject: Welcome\r$/m);
    expect(secondFile).toContain('<b>Hi</b>');

    for (const id of [first, second]) {
      const row = await queueRow(id);
      expect(row.status).toBe('sent');
      expect(firstFile! + secondFile!).toContain(`Message-ID: ${row.message_id}`);
      expect(await logsOf(id)).toMatchObject([{ attempt_number: 1, status: 'success', response_code: 250 }]);
    }
  });

  it('is what createTransport picks without SMTP_URL, in DATA_DIR/outbox', async () => {
    const dataDir = tmpDir();
    const viaConfig = createTransport(loadConfig({ DATA_DIR: dataDir }));
    expect(viaConfig.kind).toBe('outbox');
    const result = await viaConfig.send({ from: FROM, to: 'x@example.com', subject: 'Hi', text: 'Hello' });
    expect(result.responseCode).toBe(250);
    expect(fs.readdirSync(path.join(dataDir, 'outbox'))).toHaveLength(1);
    await viaConfig.close();

    const smtpTransport = createTransport(loadConfig({ DATA_DIR: dataDir, SMTP_URL: smtp.url }));
    expect(smtpTransport.kind).toBe('smtp');
    await smtpTransport.close();
  });
});

describe('restart', () => {
  it('keeps queued emails in the embedded database across a restart', async () => {
    const dataDir = tmpDir();
    const first = await openDatabase({ dataDir });
    let id: string;
    try {
      await migrateToLatest(first.db);
      id = await enqueueEmail(first.db, { to: 'patient@example.com', subject: 'Queued before restart', text: 'x' }, 5);
    } finally {
      await first.close();
    }

    const reopened = await openDatabase({ dataDir });
    try {
      expect(await queueRow(id, reopened.db)).toMatchObject({ status: 'pending', retry_count: 0 });
      expect(await run({ db: reopened.db })).toEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 });
      expect((await queueRow(id, reopened.db)).status).toBe('sent');
      expect(smtp.accepted().map((m) => m.subject)).toEqual(['Queued before restart']);
    } finally {
      await reopened.close();
    }
  }, 60_000);
});

describe('startEmailProcessor', () => {
  const captureLog = () => {
    const info: unknown[] = [];
    const error: unknown[] = [];
    return { info, error, log: { info: (obj: unknown) => info.push(obj), error: (obj: unknown) => error.push(obj) } };
  };

  it('sends queued email on its own, never runs twice at once, and stops cleanly', async () => {
    // Batches of 2, so that overlapping runs would each claim rows and send at the same time.
    const config = loadConfig({
      DATA_DIR: tmpDir(),
      SMTP_URL: smtp.url,
      EMAIL_POLL_INTERVAL_MS: '100',
      EMAIL_BATCH_SIZE: '2',
      EMAIL_FROM: FROM,
    });
    const smtpTransport = createTransport(config);
    // Counts sends in flight, to see that timer runs and runNow() never overlap.
    let inFlight = 0;
    let maxInFlight = 0;
    const counting: EmailTransport = {
      kind: smtpTransport.kind,
      async send(message) {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return await smtpTransport.send(message);
        } finally {
          inFlight--;
        }
      },
      close: () => smtpTransport.close(),
    };
    const { info, error, log } = captureLog();
    const processor = startEmailProcessor({ db, transport: counting, config, log });
    try {
      const id = await enqueueEmail(db, { to: 'auto@example.com', subject: 'Sent by the timer', text: 'x' }, 5);
      await vi.waitFor(async () => expect((await queueRow(id)).status).toBe('sent'), { timeout: 10_000, interval: 50 });
      expect(smtp.accepted().map((m) => m.subject)).toEqual(['Sent by the timer']);
      await vi.waitFor(() => expect(info).toContainEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 }));

      for (let i = 0; i < 6; i++) await enqueueEmail(db, { to: `n${i}@example.com`, subject: `Now ${i}`, text: 'x' }, 5);
      const results = await Promise.all([processor.runNow(), processor.runNow(), processor.runNow()]);
      const total = results.reduce((sum, r) => sum + r.sent, 0);
      // The timer may have taken some of them in between; together every one went exactly once.
      await vi.waitFor(() => expect(smtp.accepted()).toHaveLength(7));
      expect(total).toBeLessThanOrEqual(6);
      expect(new Set(smtp.accepted().map((m) => m.subject)).size).toBe(7);
      expect(maxInFlight).toBe(1);
      expect(error).toEqual([]);
    } finally {
      await processor.stop();
      await counting.close();
    }
    // Stopped: nothing new is sent.
    const after = await enqueueEmail(db, { to: 'late@example.com', subject: 'After stop', text: 'x' }, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await queueRow(after)).status).toBe('pending');
  });

  it('stops mid-batch after the email in flight; the others are free for another processor at once', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push(await enqueueEmail(db, { to: `stop${i}@example.com`, subject: `Stop ${i}`, text: 'x' }, 5));
    for (const [i, id] of ids.entries()) await queuedSecondsAgo(id, 10 - i);
    smtp.delayMs = 300;
    const config = loadConfig({ DATA_DIR: tmpDir(), SMTP_URL: smtp.url, EMAIL_POLL_INTERVAL_MS: '60000', EMAIL_FROM: FROM });
    let started = 0;
    const counting: EmailTransport = {
      kind: 'smtp',
      send(message) {
        started++;
        return transport.send(message);
      },
      close: () => Promise.resolve(),
    };
    const { error, log } = captureLog();
    const processor = startEmailProcessor({ db, transport: counting, config, log });
    const batch = processor.runNow();
    await vi.waitFor(() => expect(started).toBe(1), { interval: 10 });

    const stoppedAt = Date.now();
    await processor.stop();
    expect(Date.now() - stoppedAt).toBeLessThan(2000);
    expect(await batch).toEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 });
    expect(started).toBe(1);
    expect(await queueRow(ids[0]!)).toMatchObject({ status: 'sent', locked_until: null });
    for (const id of ids.slice(1)) {
      expect(await queueRow(id)).toMatchObject({ status: 'pending', locked_until: null, retry_count: 0 });
      expect(await logsOf(id)).toHaveLength(0);
    }

    // Nothing was left claimed: another processor sends the rest straight away, each once.
    smtp.delayMs = 0;
    expect(await run()).toEqual({ sent: 4, retrying: 0, permanentlyFailed: 0 });
    const subjects = smtp.accepted().map((m) => m.subject);
    expect(subjects).toEqual(['Stop 1', 'Stop 2', 'Stop 3', 'Stop 4', 'Stop 5']);
    expect(error).toEqual([]);
  });

  it('logs database errors and keeps polling', async () => {
    const gone = await startSmtpServer();
    await gone.close();
    // A database that refuses connections: every run fails.
    const brokenPool = new pg.Pool({ host: '127.0.0.1', port: gone.port, user: 'nobody', database: 'none', connectionTimeoutMillis: 1000 });
    const broken = new Kysely<DB>({ dialect: new PostgresDialect({ pool: brokenPool }) });
    const config = loadConfig({ DATA_DIR: tmpDir(), EMAIL_POLL_INTERVAL_MS: '100' });
    const { error, log } = captureLog();
    const processor = startEmailProcessor({ db: broken, transport, config, log });
    try {
      await vi.waitFor(() => expect(error.length).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 50 });
      await expect(processor.runNow()).rejects.toThrow();
    } finally {
      await processor.stop();
      await broken.destroy();
    }
  });
});
