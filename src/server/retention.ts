import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/database';
import { startPeriodicTask, type PeriodicTask } from './periodic';
import type { Clock } from './subscriptions/dates';

// Rows that only pile up are deleted once nothing needs them (docs/ARCHITECTURE.md § Processes and
// background work): emails sent more than EMAIL_RETENTION_DAYS ago (the admin's Email Logs keep
// the recent ones, failures stay until retried or dealt with), emailed links used or expired
// (a link is refused the same whether its row is gone or used up), and sessions past their expiry.

export interface PurgedRows {
  sentEmails: number;
  authTokens: number;
  sessions: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export async function purgeOldRows(db: Db, { emailRetentionDays, now }: { emailRetentionDays: number; now: Date }): Promise<PurgedRows> {
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  // Their delivery attempts (email_logs) go with them.
  const sentEmails = await db
    .deleteFrom('email_queue')
    .where('status', '=', 'sent')
    .where('sent_at', '<', new Date(now.getTime() - emailRetentionDays * DAY_MS).toISOString())
    .executeTakeFirst();
  const authTokens = await db
    .deleteFrom('auth_tokens')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now.toISOString())]))
    .executeTakeFirst();
  const sessions = await db.deleteFrom('sessions').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
  return { sentEmails: count(sentEmails), authTokens: count(authTokens), sessions: count(sessions) };
}

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Purges every hour; what went is logged when anything did. */
export function startRetention({
  db,
  emailRetentionDays,
  clock,
  log,
}: {
  db: Db;
  emailRetentionDays: number;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}): PeriodicTask<PurgedRows> {
  return startPeriodicTask({
    intervalMs: PURGE_INTERVAL_MS,
    run: () => purgeOldRows(db, { emailRetentionDays, now: clock.now() }),
    onResult: (purged) => {
      if (purged.sentEmails + purged.authTokens + purged.sessions > 0) log.info(purged, 'old rows purged');
    },
    onError: (error) => log.warn({ err: error }, 'purging old rows failed'),
  });
}
