import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { ACCOUNT_EMAILS_PER_HOUR } from '../auth/account-emails';
import { ensureCustomerRow, orderEmail } from './recipient';

// Guest orders (docs/adr/0027-guest-checkout.md): placed with an email address and no account,
// opened by a long random key in the order page's address, and taken into the account of that
// address once its owner signs in with the address confirmed.

/** A new order key: 256 random bits, URL-safe. */
export const newAccessKey = (): string => randomBytes(32).toString('base64url');

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A key compared in constant time; the digests have one length whatever was given. */
export function accessKeyMatches(stored: string | null, given: string): boolean {
  // With no stored key a comparison still runs, so a missing order takes as long as a wrong key.
  return timingSafeEqual(digest(stored ?? `no key:${given}`), digest(given)) && stored !== null;
}

/** What the per-address budget is counted under: the address itself is never stored there. */
export const addressHash = (email: string) => digest(`guest-email:${email.trim().toLowerCase()}`).toString('hex');

/**
 * Counts one more guest order emailed to the address in its hour: false once the hour's
 * ACCOUNT_EMAILS_PER_HOUR are spent. The same budget whether or not the address has an account,
 * so the answer says nothing about accounts. One statement: concurrent requests count once each.
 */
export async function spendGuestEmail(db: Db, email: string, log: Pick<FastifyBaseLogger, 'warn'>): Promise<boolean> {
  const { rows } = await sql<{ sent: number }>`
    insert into guest_email_budgets as budget (address_hash, emails_since, emails_sent)
    values (${addressHash(email)}, now(), 1)
    on conflict (address_hash) do update set
      emails_since = case when budget.emails_since > now() - interval '1 hour' then budget.emails_since else now() end,
      emails_sent = case when budget.emails_since > now() - interval '1 hour' then budget.emails_sent + 1 else 1 end
    returning emails_sent as sent
  `.execute(db);
  const allowed = rows[0]!.sent <= ACCOUNT_EMAILS_PER_HOUR;
  if (!allowed) log.warn('guest order refused: the hour of emails to its address is spent');
  return allowed;
}

/**
 * Takes the guest orders placed with the user's address into their account. Only for an address
 * the user has confirmed: whoever merely signed up with someone's address must not see their
 * orders. The number of orders taken.
 */
export async function attachGuestOrders(db: Db, user: { id: string; email: string; emailConfirmed: boolean }): Promise<number> {
  if (!user.emailConfirmed) return 0;
  const guestOrders = () =>
    db
      .selectFrom('orders')
      .select('id')
      .where(sql<string>`lower(guest_email)`, '=', user.email.toLowerCase())
      .where('guest_email', 'is not', null);
  if (!(await guestOrders().executeTakeFirst())) return 0;
  await ensureCustomerRow(db, user);
  // Their discount code uses come along: "once per customer" counts them for the account.
  await db
    .updateTable('discount_uses')
    .set({ customer_id: user.id })
    .where('order_id', 'in', guestOrders())
    .where('customer_id', 'is', null)
    .execute();
  const attached = await db
    .updateTable('orders')
    .set({ customer_id: user.id, guest_email: null, updated_at: new Date() })
    .where(sql<string>`lower(guest_email)`, '=', user.email.toLowerCase())
    .where('guest_email', 'is not', null)
    .executeTakeFirst();
  return Number(attached.numUpdatedRows);
}

/**
 * The order with this number, if `key` is its key; null otherwise, in the same time whether the
 * number is unknown, the order has no key (an account's order) or the key is wrong.
 */
export async function guestOrderByKey(db: Db, orderNumber: string, key: string) {
  const order = await db
    .selectFrom('orders')
    .leftJoin('customers', 'customers.id', 'orders.customer_id')
    .select(['orders.id', 'orders.order_number', 'orders.access_key', 'orders.customer_id', orderEmail.as('email')])
    .where('orders.order_number', '=', orderNumber)
    .executeTakeFirst();
  if (!accessKeyMatches(order?.access_key ?? null, key) || !order) return null;
  return { id: order.id, orderNumber: order.order_number, email: order.email, guest: order.customer_id === null && order.email !== null };
}
