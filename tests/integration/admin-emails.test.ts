import { TRPCError } from '@trpc/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { EMAIL_LIST_LIMIT, type EmailStatus } from '../../src/shared/constants';
import { buildApp } from '../../src/server/app';
import { callTrpc, sharedCallers, sharedTestApp } from '../support/app';
import { sharedBeforeAll } from '../support/hooks';
import { startSmtpServer } from '../support/smtp';

// admin.emails.*: the newest 100 emails with filter and stat counts (no bodies), delivery
// attempts newest first, Retry Now, and Process Queue against a real local SMTP server.

const smtp = sharedBeforeAll(startSmtpServer, (server) => server.close());
const t = sharedTestApp(() => ({ SMTP_URL: smtp.url }));
const as = sharedCallers(t);
beforeEach(async () => {
  await t.db.deleteFrom('email_queue').execute();
  smtp.reset();
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function insertEmail(subject: string, status: EmailStatus, createdAt: Date, extra: { to?: string; nextRetryAt?: Date } = {}) {
  const row = await t.db
    .insertInto('email_queue')
    .values({
      to_email: extra.to ?? 'reader@example.com',
      subject,
      text_body: `Secret body of ${subject}`,
      html_body: `<p>Secret body of ${subject}</p>`,
      status,
      retry_count: status === 'failed' ? 2 : status === 'permanently_failed' ? 5 : 0,
      max_retries: 5,
      next_retry_at: extra.nextRetryAt ?? null,
      last_error: status === 'failed' || status === 'permanently_failed' ? 'Mailbox busy' : null,
      created_at: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const emailRow = (id: string) =>
  t.db
    .selectFrom('email_queue')
    .select(['status', 'next_retry_at', 'retry_count', 'sent_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('admin.emails.list', () => {
  it('returns the newest first with the five counts, filters by status, and never sends bodies', async () => {
    await insertEmail('oldest', 'sent', minutesAgo(30));
    await insertEmail('middle', 'failed', minutesAgo(20), {
      nextRetryAt: minutesAgo(-5),
    });
    await insertEmail('newest', 'pending', minutesAgo(10));
    await insertEmail('gave up', 'permanently_failed', minutesAgo(25));

    const all = await as.admin.admin.emails.list({});
    expect(all.emails.map((e) => e.subject)).toEqual(['newest', 'middle', 'gave up', 'oldest']);
    expect(all.counts).toEqual({
      total: 4,
      sent: 1,
      pending: 1,
      failed: 1,
      permanentlyFailed: 1,
    });
    expect(Object.keys(all.emails[0]!).sort()).toEqual(
      ['created_at', 'id', 'last_error', 'max_retries', 'next_retry_at', 'retry_count', 'sent_at', 'status', 'subject', 'to_email'].sort(),
    );
    expect(JSON.stringify(all)).not.toContain('Secret body');

    const failed = await as.admin.admin.emails.list({ status: 'failed' });
    expect(failed.emails.map((e) => e.subject)).toEqual(['middle']);
    expect(failed.emails[0]).toMatchObject({
      retry_count: 2,
      max_retries: 5,
      last_error: 'Mailbox busy',
    });
    // The tiles count the whole queue, whatever the filter.
    expect(failed.counts.total).toBe(4);
  });

  it('shows at most the 100 newest, ties broken by id', async () => {
    const at = minutesAgo(60);
    await t.db
      .insertInto('email_queue')
      .values(
        Array.from({ length: EMAIL_LIST_LIMIT + 5 }, (_, i) => ({
          to_email: 'bulk@example.com',
          subject: `bulk ${i}`,
          text_body: 'x',
          // Five share one timestamp, so order within it must come from the id.
          created_at: i < 5 ? at : new Date(at.getTime() + i * 1000),
        })),
      )
      .execute();
    const { emails, counts } = await as.admin.admin.emails.list({});
    expect(emails).toHaveLength(EMAIL_LIST_LIMIT);
    expect(counts.total).toBe(EMAIL_LIST_LIMIT + 5);
    expect(emails[0]!.subject).toBe(`bulk ${EMAIL_LIST_LIMIT + 4}`);
    const tied = await as.admin.admin.emails.list({});
    expect(tied.emails.map((e) => e.id)).toEqual(emails.map((e) => e.id));
    const lastFive = emails.slice(-5).filter((e) => new Date(e.created_at).getTime() === at.getTime());
    expect(lastFive.map((e) => e.id)).toEqual([...lastFive.map((e) => e.id)].sort().reverse());
  });

  it('refuses an unknown filter', async () => {
    await expect(as.admin.admin.emails.list({ status: 'bounced' as 'sent' })).rejects.toThrow('Invalid status');
  });
});

describe('admin.emails.attempts', () => {
  it('lists one email’s attempts newest first', async () => {
    const id = await insertEmail('tried', 'failed', minutesAgo(10));
    const other = await insertEmail('other', 'sent', minutesAgo(9));
    await t.db
      .insertInto('email_logs')
      .values([
        {
          email_queue_id: id,
          attempt_number: 1,
          status: 'failed',
          response_code: 451,
          error_message: 'busy',
          created_at: minutesAgo(8),
        },
        {
          email_queue_id: id,
          attempt_number: 2,
          status: 'failed',
          response_code: 421,
          error_message: 'later',
          created_at: minutesAgo(5),
        },
        {
          email_queue_id: other,
          attempt_number: 1,
          status: 'success',
          response_code: 250,
          error_message: null,
        },
      ])
      .execute();
    const attempts = await as.admin.admin.emails.attempts({ id });
    expect(attempts.map((a) => [a.attempt_number, a.status, a.response_code, a.error_message])).toEqual([
      [2, 'failed', 421, 'later'],
      [1, 'failed', 451, 'busy'],
    ]);
  });

  it('rejects a malformed id', async () => {
    await expect(as.admin.admin.emails.attempts({ id: 'nope' })).rejects.toThrow('Invalid email');
  });
});

describe('admin.emails.retry', () => {
  it('puts failed and permanently failed emails back to pending with no retry time', async () => {
    const failed = await insertEmail('failed one', 'failed', minutesAgo(10), {
      nextRetryAt: minutesAgo(-30),
    });
    const gaveUp = await insertEmail('gave up', 'permanently_failed', minutesAgo(10));
    for (const id of [failed, gaveUp]) {
      const result = await as.admin.admin.emails.retry({ id });
      expect(result.status).toBe('pending');
      expect(await emailRow(id)).toMatchObject({
        status: 'pending',
        next_retry_at: null,
      });
    }
  });

  it('refuses sent or pending emails and unknown ids, changing nothing', async () => {
    const sent = await insertEmail('done', 'sent', minutesAgo(10));
    await expect(as.admin.admin.emails.retry({ id: sent })).rejects.toThrow('Only failed emails can be retried');
    expect((await emailRow(sent)).status).toBe('sent');
    const error = await as.admin.admin.emails.retry({ id: crypto.randomUUID() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('NOT_FOUND');
  });
});

describe('admin.emails.processQueue', () => {
  it('stops claiming when the server starts closing, and the close waits for the email in hand', async () => {
    const ids: string[] = [];
    for (const [subject, ago] of [
      ['first', 3],
      ['second', 2],
      ['third', 1],
    ] as const)
      ids.push(await insertEmail(subject, 'pending', minutesAgo(ago)));
    // A second process of the store, to be shut down mid-run; its mail server is slow.
    const closing = await buildApp(t.config, { database: t.database, logger: false });
    smtp.delayMs = 1000;
    const run = callTrpc(closing, 'admin.emails.processQueue', { cookie: as.cookies.admin });
    // The first email is claimed, and with the mail server (which answers in a second), when closing starts.
    const claimed = async () =>
      (await t.db.selectFrom('email_queue').select('locked_until').where('id', '=', ids[0]!).executeTakeFirstOrThrow()).locked_until;
    await expect.poll(claimed, { timeout: 10_000 }).not.toBeNull();
    await closing.close();
    // Closed only once the email in hand was recorded; the others were never claimed.
    expect((await emailRow(ids[0]!)).status).toBe('sent');
    expect((await run).data).toEqual({ sent: 1, retrying: 0, permanentlyFailed: 0 });
    for (const id of ids.slice(1)) expect(await emailRow(id)).toMatchObject({ status: 'pending', sent_at: null });
    expect(smtp.received).toHaveLength(1);
  });

  it('sends due emails now through SMTP, retries a 451 later and gives up on a 550', async () => {
    const ok = await insertEmail('hello', 'pending', minutesAgo(3), {
      to: 'friend@example.com',
    });
    const temp = await insertEmail('try again', 'pending', minutesAgo(2), {
      to: 'temp-fail@example.com',
    });
    const perm = await insertEmail('no such user', 'pending', minutesAgo(1), {
      to: 'perm-fail@example.com',
    });
    const notDue = await insertEmail('later', 'failed', minutesAgo(1), {
      nextRetryAt: minutesAgo(-60),
    });

    // Over HTTP, as the screen calls it.
    const res = await callTrpc(t.app, 'admin.emails.processQueue', { cookie: as.cookies.admin });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ sent: 1, retrying: 1, permanentlyFailed: 1 });

    expect(smtp.accepted().map((m) => m.subject)).toEqual(['hello']);
    expect((await emailRow(ok)).status).toBe('sent');
    expect(await emailRow(temp)).toMatchObject({
      status: 'failed',
      retry_count: 1,
    });
    expect((await emailRow(temp)).next_retry_at).not.toBeNull();
    expect((await emailRow(perm)).status).toBe('permanently_failed');
    expect((await emailRow(notDue)).status).toBe('failed');
    const tempAttempts = await as.admin.admin.emails.attempts({ id: temp });
    expect(tempAttempts.map((a) => [a.attempt_number, a.status, a.response_code])).toEqual([[1, 'failed', 451]]);

    // Nothing due any more: a second run sends nothing.
    expect(await as.admin.admin.emails.processQueue()).toEqual({
      sent: 0,
      retrying: 0,
      permanentlyFailed: 0,
    });
  });
});
