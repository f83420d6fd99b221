import { sql } from 'kysely';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { EmailSendError, type EmailSender, type EmailTransport, type SendResult } from './transport';
import { startPeriodicTask, type PeriodicTask } from '../periodic';

export interface ProcessResult {
  sent: number;
  retrying: number;
  permanentlyFailed: number;
}

const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 6 * 60 * 60 * 1000;
/**
 * How long a claim holds an email. Renewed while its send lasts, so it runs out only when the
 * processor holding it is gone (killed): that one email then waits about this long, no more.
 */
const DEFAULT_LEASE_MS = 60 * 1000;
/**
 * Waits between tries to record an attempt the database refused (a failover, a dropped
 * connection): an email the mail server took is sent again if its record is lost, so the lease is
 * held and the record tried again for about 15 s before the run gives up.
 */
const RECORD_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000];

/** Wait before the next attempt after `failures` failed ones: 30 s, 1 min, 2 min, ... at most 6 hours. */
export function backoffDelayMs(failures: number): number {
  const exponent = Math.max(0, Math.floor(failures) - 1);
  // 2^20 * 30 s is far past the cap; stopping there keeps the arithmetic finite.
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(exponent, 20));
}

// Database time, not this process's clock: several processes (and the claim query) must agree.
const nowPlusMs = (ms: number) => sql<string>`now() + ${Math.round(ms)}::integer * interval '1 millisecond'`;

const CLAIMABLE_STATUSES = ['pending', 'failed'] as const;

interface ClaimedEmail {
  id: string;
  to_email: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
}

/**
 * Claims the longest-waiting due email that no live lease holds, for `leaseMs`, in one statement
 * (FOR UPDATE SKIP LOCKED: two processors never take the same row); undefined when none is due.
 * No transaction stays open while talking to the mail server: PGlite has a single connection that
 * every request shares.
 */
async function claimNextEmail(db: Db, leaseMs: number = DEFAULT_LEASE_MS): Promise<ClaimedEmail | undefined> {
  return db
    .updateTable('email_queue')
    .set({ locked_until: nowPlusMs(leaseMs) })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('email_queue')
        .select('id')
        .where('status', 'in', CLAIMABLE_STATUSES)
        .where(sql<boolean>`coalesce(next_retry_at, created_at) <= now()`)
        .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', sql<string>`now()`)]))
        .orderBy(sql`coalesce(next_retry_at, created_at)`)
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'to_email', 'reply_to', 'subject', 'text_body', 'html_body'])
    .executeTakeFirst();
}

/**
 * Sends up to `batchSize` due emails, claiming them one at a time: a processor stopped or killed
 * mid-batch holds at most the one email it was sending, and the rest stay free for any other
 * processor. Once `signal` is aborted (shutdown) no further email is claimed; the one in flight is
 * finished and recorded. Delivery is at least once: only an email whose sender died mid-send can go
 * out again, after its lease.
 */
export async function processEmailQueue(
  db: Db,
  transport: EmailTransport,
  options: { from: EmailSender; batchSize: number; leaseMs?: number; signal?: AbortSignal },
): Promise<ProcessResult> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const result: ProcessResult = { sent: 0, retrying: 0, permanentlyFailed: 0 };
  for (let count = 0; count < options.batchSize && !options.signal?.aborted; count++) {
    const row = await claimNextEmail(db, leaseMs);
    if (!row) break;
    const { outcome, status } = await holdingLease(db, row.id, leaseMs, async () => {
      const outcome = await send(transport, options.from, row);
      return { outcome, status: await recordAttemptPersistently(db, row.id, outcome) };
    });
    if (status === 'sent') result.sent++;
    else if (status === 'failed') result.retrying++;
    else if (status === 'permanently_failed') result.permanentlyFailed++;
    // The mail server cannot be used: the next emails would only fail the same way.
    if (!outcome.ok && outcome.error.serverSide) break;
  }
  return result;
}

type SendOutcome = { ok: true; info: SendResult } | { ok: false; error: EmailSendError };

async function send(transport: EmailTransport, from: EmailSender, row: ClaimedEmail): Promise<SendOutcome> {
  try {
    const info = await transport.send({
      from,
      to: row.to_email,
      replyTo: row.reply_to,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
    });
    return { ok: true, info };
  } catch (error) {
    return {
      ok: false,
      error:
        error instanceof EmailSendError
          ? error
          : new EmailSendError(error instanceof Error ? error.message : String(error), { serverSide: true, cause: error }),
    };
  }
}

/**
 * Runs `work` while renewing the row's lease every third of it, so a slow mail server (its
 * timeouts add up to more than a minute) or a database slow to take the record never lets another
 * processor take the email mid-send. A renewal that fails is ignored: the lease then runs out as
 * if this processor had died. Once the attempt is recorded (the lease cleared), none renews it.
 */
async function holdingLease<T>(db: Db, id: string, leaseMs: number, work: () => Promise<T>): Promise<T> {
  let renewal: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    renewal = db
      .updateTable('email_queue')
      .set({ locked_until: nowPlusMs(leaseMs) })
      .where('id', '=', id)
      .where('status', 'in', CLAIMABLE_STATUSES)
      .where('locked_until', 'is not', null)
      .execute()
      .catch(() => undefined);
  }, leaseMs / 3);
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
    // A renewal still on its way must not land after the attempt is recorded.
    await renewal;
  }
}

/** recordAttempt, tried again while the database refuses it (RECORD_RETRY_DELAYS_MS); throws its last error. */
async function recordAttemptPersistently(db: Db, id: string, outcome: SendOutcome): ReturnType<typeof recordAttempt> {
  for (const delayMs of RECORD_RETRY_DELAYS_MS) {
    try {
      return await recordAttempt(db, id, outcome);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
  return recordAttempt(db, id, outcome);
}

/** Writes the attempt's log row and the row's new state in one transaction; returns the new status. */
async function recordAttempt(db: Db, id: string, outcome: SendOutcome): Promise<'sent' | 'failed' | 'permanently_failed' | null> {
  return db.transaction().execute(async (trx) => {
    // Locking the row first serialises two processors finishing the same email (possible only
    // after a lease ran out), so attempt numbers stay unique.
    const current = await trx
      .selectFrom('email_queue')
      .select(['status', 'retry_count', 'max_retries'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) return null; // deleted while it was being sent
    const previous = await trx
      .selectFrom('email_logs')
      .select((eb) => eb.fn.max<number | null>('attempt_number').as('last'))
      .where('email_queue_id', '=', id)
      .executeTakeFirst();
    const attemptNumber = (previous?.last ?? 0) + 1;

    if (outcome.ok) {
      await trx
        .insertInto('email_logs')
        .values({
          email_queue_id: id,
          attempt_number: attemptNumber,
          status: 'success',
          response_code: outcome.info.responseCode,
          error_message: null,
        })
        .execute();
      await trx
        .updateTable('email_queue')
        .set({
          status: 'sent',
          sent_at: sql<string>`now()`,
          message_id: outcome.info.messageId,
          last_error: null,
          next_retry_at: null,
          locked_until: null,
          updated_at: sql<string>`now()`,
        })
        .where('id', '=', id)
        .execute();
      return 'sent';
    }

    const { error } = outcome;
    await trx
      .insertInto('email_logs')
      .values({
        email_queue_id: id,
        attempt_number: attemptNumber,
        status: 'failed',
        response_code: error.responseCode,
        error_message: error.message,
      })
      .execute();
    // Another processor already delivered it (after our lease ran out): keep it sent.
    if (current.status === 'sent') {
      await trx.updateTable('email_queue').set({ locked_until: null }).where('id', '=', id).execute();
      return null;
    }
    // A mail server that cannot be used (down, our login refused) uses up none of the email's
    // tries: an outage or a wrong password would otherwise fail every email queued meanwhile for
    // good. It is tried again, less and less often, until the server takes it.
    const retryCount = error.serverSide ? current.retry_count : current.retry_count + 1;
    const giveUp = !error.serverSide && (error.permanent || retryCount >= current.max_retries);
    await trx
      .updateTable('email_queue')
      .set({
        status: giveUp ? 'permanently_failed' : 'failed',
        retry_count: retryCount,
        next_retry_at: giveUp ? null : nowPlusMs(backoffDelayMs(error.serverSide ? attemptNumber : retryCount)),
        last_error: error.message,
        locked_until: null,
        updated_at: sql<string>`now()`,
      })
      .where('id', '=', id)
      .execute();
    return giveUp ? 'permanently_failed' : 'failed';
  });
}

export type EmailProcessor = PeriodicTask<ProcessResult>;

export interface ProcessorLog {
  info(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/**
 * Processes the queue every emailPollIntervalMs. Runs never overlap: timer runs and runNow()
 * calls queue up behind each other. Errors are logged, never thrown out of the timer. stop()
 * claims nothing more and resolves once the email in flight is recorded.
 */
export function startEmailProcessor(deps: { db: Db; transport: EmailTransport; config: Config; log: ProcessorLog }): EmailProcessor {
  const { db, transport, config, log } = deps;
  return startPeriodicTask({
    intervalMs: config.emailPollIntervalMs,
    run: (signal) => processEmailQueue(db, transport, { from: config.emailFrom, batchSize: config.emailBatchSize, signal }),
    onResult: (result) => {
      if (result.sent + result.retrying + result.permanentlyFailed > 0) log.info(result, 'email queue processed');
    },
    onError: (error) => log.error({ err: error }, 'email queue processing failed'),
  });
}
