import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database';

/**
 * How many emails anyone, signed in or not, can make the store send to an account's address in an
 * hour: a sign-up with the address, a password reset request, a new confirmation link. Enough for
 * someone whose emails are slow to arrive; too few for the store to be used to flood an inbox from
 * many client addresses, which the per-client limits do not see.
 */
export const ACCOUNT_EMAILS_PER_HOUR = 5;

/**
 * Counts one more such email for the account: false when its hour's budget is spent (or there is
 * no such account), and `email` is not to be sent (said in the log). One statement, so concurrent
 * requests in any process count once each; the hour starts again with the first email after it ends.
 */
export async function spendAccountEmail(db: Db, userId: string, log: Pick<FastifyBaseLogger, 'warn'>, email: string): Promise<boolean> {
  const inHour = sql<boolean>`account_emails_since > now() - interval '1 hour'`;
  const row = await db
    .updateTable('users')
    .set({
      account_emails_since: sql<string>`CASE WHEN ${inHour} THEN account_emails_since ELSE now() END`,
      account_emails_sent: sql<number>`CASE WHEN ${inHour} THEN account_emails_sent + 1 ELSE 1 END`,
    })
    .where('id', '=', userId)
    .returning('account_emails_sent')
    .executeTakeFirst();
  const allowed = row !== undefined && row.account_emails_sent <= ACCOUNT_EMAILS_PER_HOUR;
  if (!allowed) log.warn({ userId }, `${email}: the account's hour of account emails is spent, none sent`);
  return allowed;
}
