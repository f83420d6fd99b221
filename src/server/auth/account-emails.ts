import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database';

/**
 * How many emails one budget lets the store send to an account's address in an hour. Enough for
 * someone whose emails are slow to arrive; too few for the store to be used to flood an inbox from
 * many client addresses, which the per-client limits do not see.
 */
export const ACCOUNT_EMAILS_PER_HOUR = 5;

/**
 * Who asked for the email, each with a budget of its own, so that one can never spend the other's:
 * `anyone` (a sign-up with the address, which needs no password) and `own` (the account's own
 * signed-in sessions: a new confirmation link, and orders, joins and membership changes before the
 * address is confirmed). Password reset links have a rule of their own (see auth.ts).
 */
const BUDGETS = {
  anyone: { since: 'account_emails_since', sent: 'account_emails_sent' },
  own: { since: 'own_emails_since', sent: 'own_emails_sent' },
} as const;
export type AccountEmailBudget = keyof typeof BUDGETS;

/**
 * Counts one more email in the account's budget: false when its hour is spent (or there is no such
 * account), and `email` is not to be sent (said in the log). One statement, so concurrent requests
 * in any process count once each; the hour starts again with the first email after it ends.
 */
export async function spendAccountEmail(
  db: Db,
  userId: string,
  budget: AccountEmailBudget,
  log: Pick<FastifyBaseLogger, 'warn'>,
  email: string,
): Promise<boolean> {
  const { since, sent } = BUDGETS[budget];
  const inHour = sql<boolean>`${sql.ref(since)} > now() - interval '1 hour'`;
  const row = await db
    .updateTable('users')
    .set(since, sql<string>`CASE WHEN ${inHour} THEN ${sql.ref(since)} ELSE now() END`)
    .set(sent, sql<number>`CASE WHEN ${inHour} THEN ${sql.ref(sent)} + 1 ELSE 1 END`)
    .where('id', '=', userId)
    .returning(sql<number>`${sql.ref(sent)}`.as('sent'))
    .executeTakeFirst();
  const allowed = row !== undefined && row.sent <= ACCOUNT_EMAILS_PER_HOUR;
  if (!allowed) log.warn({ userId, budget }, `${email}: the account's hour of such emails is spent, none sent`);
  return allowed;
}

/**
 * Whether a reset request may mint and email a new reset link. Not while one is live: it is in the
 * inbox already, so repeated requests (anyone's) reuse it instead of flooding the inbox, and the
 * owner asking after strangers still has a link that works. Nor when ACCOUNT_EMAILS_PER_HOUR links
 * were minted in the hour (each one used up or ended, say by password changes). Call inside the
 * transaction that mints the link: the account's row is locked here, so requests at once take turns.
 */
export async function resetLinkDue(db: Db, userId: string, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): Promise<boolean> {
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const { rows } = await sql<{ live: number; minted: number }>`
    select count(*) filter (where used_at is null and expires_at > now())::int as live, count(*)::int as minted
    from auth_tokens
    where user_id = ${userId} and purpose = 'password_reset' and created_at > now() - interval '1 hour'
  `.execute(db);
  const { live, minted } = rows[0]!;
  if (live > 0) log.info({ userId }, 'password reset link: a live one was sent already, none sent');
  else if (minted >= ACCOUNT_EMAILS_PER_HOUR) log.warn({ userId }, "password reset link: the account's hour of them is spent, none sent");
  return live === 0 && minted < ACCOUNT_EMAILS_PER_HOUR;
}
