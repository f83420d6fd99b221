import { sql } from 'kysely';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { EmailSendError, type EmailTransport, type SendResult } from './transport';
import { startPeriodicTask, type PeriodicTask } from '../periodic';

export interface ProcessResult {
  sent: number;
  retrying: number;
  permanentlyFailed: number;
}

const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 6 * 60 * 60 * 1000;
const DEFAULT_LEASE_MS = 5 * 60 * 1000;

/** Wait before the next attempt after `failures` failed ones: 30 s, 1 min, 2 min, ... at most 6 hours. */
export function backoffDelayMs(failures: number): number {
  const exponent = Math.max(0, Math.floor(failures) - 1);
  // 2^20 * 30 s is far past the cap; stopping there keeps the arithmetic finite.
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(exponent, 20));
}

// Database time, not this process's clock: several processes (and the claim query) must agree.
const nowPlusMs = (ms: number) => sql<string>`now() + ${Math.round(ms)}::integer * interval '1 millisecond'`;

// Microsecond UTC text that sorts as it reads: the ISO strings the driver returns stop at
// milliseconds, and emails queued within one millisecond must keep their order.
const dueAtSortKey = sql<string>`to_char(coalesce(next_retry_at, created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;

/**
 * Sends the due emails once. Rows are claimed with a lease (locked_until) in one statement and
 * no transaction stays open while talking to the mail server: PGlite has a single connection
 * that every request shares. A processor that dies mid-batch leaves rows whose lease runs out,
 * so they are sent again later: delivery is at least once.
 */
export async function processEmailQueue(
  db: Db,
  transport: EmailTransport,
  options: { from: string; batchSize: number; leaseMs?: number },
): Promise<ProcessResult> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const claimedAt = Date.now();
  const claimed = await db
    .updateTable('email_queue')
    .set({ locked_until: nowPlusMs(leaseMs) })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('email_queue')
        .select('id')
        .where('status', 'in', ['pending', 'failed'])
        .where(sql<boolean>`coalesce(next_retry_at, created_at) <= now()`)
        .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', sql<string>`now()`)]))
        .orderBy(sql`coalesce(next_retry_at, created_at)`)
        .limit(options.batchSize)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'to_email', 'subject', 'text_body', 'html_body', dueAtSortKey.as('due_at')])
    .execute();
  // RETURNING has no order of its own; send the longest-waiting first.
  claimed.sort((a, b) => (a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : 0));

  const result: ProcessResult = { sent: 0, retrying: 0, permanentlyFailed: 0 };
  for (const [index, row] of claimed.entries()) {
    // Past half the lease another processor could soon take these rows; hand the rest back
    // rather than risk sending them twice.
    if (Date.now() - claimedAt > leaseMs / 2) {
      const rest = claimed.slice(index).map((r) => r.id);
      await db.updateTable('email_queue').set({ locked_until: null }).where('id', 'in', rest).execute();
      break;
    }

    let outcome: { ok: true; info: SendResult } | { ok: false; error: EmailSendError };
    try {
      const info = await transport.send({
        from: options.from,
        to: row.to_email,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
      });
      outcome = { ok: true, info };
    } catch (error) {
      outcome = {
        ok: false,
        error:
          error instanceof EmailSendError
            ? error
            : new EmailSendError(error instanceof Error ? error.message : String(error), { cause: error }),
      };
    }

    const status = await recordAttempt(db, row.id, outcome);
    if (status === 'sent') result.sent++;
    else if (status === 'failed') result.retrying++;
    else if (status === 'permanently_failed') result.permanentlyFailed++;
  }
  return result;
}

/** Writes the attempt's log row and the row's new state in one transaction; returns the new status. */
async function recordAttempt(
  db: Db,
  id: string,
  outcome: { ok: true; info: SendResult } | { ok: false; error: EmailSendError },
): Promise<'sent' | 'failed' | 'permanently_failed' | null> {
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
    const retryCount = current.retry_count + 1;
    const giveUp = error.permanent || retryCount >= current.max_retries;
    await trx
      .updateTable('email_queue')
      .set({
        status: giveUp ? 'permanently_failed' : 'failed',
        retry_count: retryCount,
        next_retry_at: giveUp ? null : nowPlusMs(backoffDelayMs(retryCount)),
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
 * calls queue up behind each other. Errors are logged, never thrown out of the timer.
 */
export function startEmailProcessor(deps: { db: Db; transport: EmailTransport; config: Config; log: ProcessorLog }): EmailProcessor {
  const { db, transport, config, log } = deps;
  return startPeriodicTask({
    intervalMs: config.emailPollIntervalMs,
    run: () => processEmailQueue(db, transport, { from: config.emailFrom, batchSize: config.emailBatchSize }),
    onResult: (result) => {
      if (result.sent + result.retrying + result.permanentlyFailed > 0) log.info(result, 'email queue processed');
    },
    onError: (error) => log.error({ err: error }, 'email queue processing failed'),
  });
}
