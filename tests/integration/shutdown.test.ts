import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/server/auth/session';
import { openDatabase } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { enqueueEmail } from '../../src/server/email/queue';
import { waitFor } from '../support/async';
import { createCustomer } from '../support/factories';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

// The real server.ts as its own process, on an embedded database in a temporary DATA_DIR (PGlite
// even when the rest of the suite uses PostgreSQL: the process is what is under test), with a live
// SSE stream open and a queue of emails going to a slow mail server, then SIGTERM
// (docs/ARCHITECTURE.md § Security: stop accepting, stop claiming, finish the row in flight, exit
// within 10 s).

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-shutdown-'));
const EMAILS = 20;

let smtp: TestSmtpServer;
let server: ServerProcess | undefined;
let cookie: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  const database = await openDatabase({ dataDir });
  try {
    await migrateToLatest(database.db);
    const user = await createCustomer(database.db, { email: 'watching@example.com' });
    cookie = `session=${(await createSession(database.db, user.id, 30)).token}`;
    for (let i = 1; i <= EMAILS; i++) {
      const id = await enqueueEmail(database.db, { to: `queued${i}@example.com`, subject: `Queued ${i}`, text: 'x' }, 5);
      await sql`UPDATE email_queue SET created_at = now() - make_interval(secs => ${100 - i}) WHERE id = ${id}`.execute(database.db);
    }
  } finally {
    await database.close();
  }
}, 60_000);

afterAll(async () => {
  await server?.kill();
  await smtp?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts server.ts; resolves with its address once it listens. */
async function startServer(): Promise<string> {
  server = await startServerProcess({
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    EMAIL_POLL_INTERVAL_MS: '100',
    SEED_DEMO_DATA: 'false',
  });
  return server.baseUrl;
}

describe('server.ts on SIGTERM', () => {
  it('stops claiming, finishes only the email in flight, ends live streams and exits within 10 s', async () => {
    // Each email takes the mail server a second: the whole queue would take 20 s.
    smtp.delayMs = 1000;
    const baseUrl = await startServer();
    const child = server!.child;

    // A signed-in tab's live stream, open for as long as the server lets it.
    const stream = await fetch(`${baseUrl}/trpc/live.feed`, { headers: { cookie, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let streamed = '';
    let streamEnded = false;
    const reading = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          streamed += new TextDecoder().decode(value);
        }
      } catch {
        // Cut by the server: ended all the same.
      }
      streamEnded = true;
    })();
    await waitFor(() => streamed.includes('event: connected'), 'the live stream to connect', 10_000);
    await waitFor(() => smtp.accepted().length >= 1, 'the first email', 20_000);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const acceptedAtSignal = smtp.accepted().length;
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    // Watched a little past the limit, so a server that hangs fails here rather than at the test's timeout.
    const code = await Promise.race([
      exited,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 12_000)),
    ]);
    const took = Date.now() - signalledAt;
    if (code === 'still running') child.kill('SIGKILL');

    expect(code).toBe(0);
    expect(took).toBeLessThan(10_000);
    await reading;
    expect(streamEnded).toBe(true);

    // At most the email in flight went out after the signal, and it was recorded as sent.
    const accepted = smtp.accepted().map((mail) => mail.subject);
    expect(accepted.length).toBeLessThanOrEqual(acceptedAtSignal + 1);
    expect(new Set(accepted).size).toBe(accepted.length);
    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.selectFrom('email_queue').select(['subject', 'status', 'locked_until']).execute();
      const sent = rows.filter((row) => row.status === 'sent').map((row) => row.subject);
      expect(sent.sort()).toEqual([...accepted].sort());
      // The rest are waiting, and no lease holds any of them: another process can send them now.
      const waiting = rows.filter((row) => row.status !== 'sent');
      expect(waiting).toHaveLength(EMAILS - sent.length);
      expect(waiting.every((row) => row.status === 'pending' && row.locked_until === null)).toBe(true);
    } finally {
      await database.close();
    }
  }, 120_000);
});
