import fs from 'node:fs/promises';
import path from 'node:path';
import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { DELETED_CUSTOMER } from '../../shared/constants';
import { LAST_ADMIN_MESSAGE } from '../../shared/schemas/admin-people';
import type { Db } from '../db/database';
import { tablesMentioning } from '../db/tables';
import { addressHash } from '../orders/guests';
import { publishEvent } from '../events/events';
import type { SubscriptionBilling } from '../payments/provider';
import { today, type Clock } from '../subscriptions/dates';
import { clearedUnpaid } from '../subscriptions/dunning';
import { notFound } from '../trpc/errors';
import type { Context } from '../trpc/init';

// Erasure of an account (docs/adr/0025): its memberships end (at Stripe too), its sessions,
// emailed links, contact messages and the emails sent to it go, and its orders stay for the
// shop's accounts with "Deleted customer" for the person. The account row goes last; the foreign
// keys do the rest (sessions and links go with it, orders and memberships lose their customer).

export interface ErasureServices {
  db: Db;
  /** Card memberships are cancelled there first; null when the store takes no cards. */
  billing: SubscriptionBilling | null;
  /** The outbox folder, where emails go when no mail server is set: its copies of theirs go too. */
  outboxDir: string;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/** The erasure's services from a procedure's context. */
export const erasureServices = (ctx: Pick<Context, 'db' | 'payments' | 'config' | 'clock' | 'log'>): ErasureServices => ({
  db: ctx.db,
  billing: ctx.payments.subscriptions,
  outboxDir: path.join(ctx.config.dataDir, 'outbox'),
  clock: ctx.clock,
  log: ctx.log,
});

const CARD_BILLING_UNAVAILABLE =
  'Card payments are not available right now, so the membership cannot be cancelled. Please try again later.';
const LAST_ADMIN_ACCOUNT = `${LAST_ADMIN_MESSAGE}: make another admin first`;
/** A membership taken out with the card provider while the erasure ran: it starts again, up to this many times. */
const TRIES = 3;

/** Thrown, after rolling back, when personal data would be left in a table the erasure does not know. */
export class ErasureIncompleteError extends Error {
  override name = 'ErasureIncompleteError';
}

/** The email address the account had, for the caller to report; the account is gone when this resolves. */
export async function eraseAccount(services: ErasureServices, userId: string): Promise<{ email: string }> {
  const { db } = services;
  for (let tries = 1; ; tries++) {
    const person = await db
      .selectFrom('users')
      .leftJoin('customers', 'customers.id', 'users.id')
      .select(['users.email', 'customers.is_admin'])
      .where('users.id', '=', userId)
      .executeTakeFirst();
    if (!person) throw notFound('Account');

    // Stripe first, with no transaction open: on the embedded database a transaction holds the
    // only connection, and a slow Stripe would hold every request. A refusal there changes nothing.
    const atStripe = await liveCardMemberships(db, userId);
    for (const membership of atStripe) await endAtStripe(services.billing, membership);

    const outcome = await db.transaction().execute(async (trx) => {
      const locked = await trx.selectFrom('users').select('email').where('id', '=', userId).forUpdate().executeTakeFirst();
      if (!locked) throw notFound('Account');
      const now = await liveCardMemberships(trx, userId);
      if (now.some((membership) => !atStripe.some((done) => done.id === membership.id))) return 'joined meanwhile' as const;
      if (person.is_admin) await assertAnotherAdmin(trx, userId);
      await eraseRows(trx, services.clock, userId, locked.email);
      // Nothing may be left that names them; a table this code does not know about would keep it.
      const left = await tablesMentioning(trx, locked.email);
      if (left.length > 0) throw new ErasureIncompleteError(`The erasure would leave the address in: ${left.join(', ')}`);
      return 'erased' as const;
    });
    if (outcome === 'erased') {
      await eraseOutboxCopies(services, person.email);
      return { email: person.email };
    }
    if (tries === TRIES)
      throw new TRPCError({ code: 'CONFLICT', message: 'The account changed while it was being deleted. Please try again.' });
  }
}

type CardMembership = { id: string; stripe_subscription_id: string | null; checkout_session_id: string | null };

const liveCardMemberships = (db: Db, userId: string): Promise<CardMembership[]> =>
  db
    .selectFrom('subscriptions')
    .select(['id', 'stripe_subscription_id', 'checkout_session_id'])
    .where('customer_id', '=', userId)
    .where('payment_provider', '=', 'stripe')
    .where('status', '<>', 'cancelled')
    .execute();

/** Stripe bills nothing more: the subscription ends now, or a join's payment page closes. */
async function endAtStripe(billing: SubscriptionBilling | null, membership: CardMembership): Promise<void> {
  if (!membership.stripe_subscription_id && !membership.checkout_session_id) return;
  if (!billing) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: CARD_BILLING_UNAVAILABLE });
  try {
    if (membership.stripe_subscription_id) await billing.cancelNow(membership.stripe_subscription_id);
    else if (membership.checkout_session_id) await billing.closeCheckout(membership.checkout_session_id);
  } catch (error) {
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: CARD_BILLING_UNAVAILABLE, cause: error });
  }
}

/** The store keeps at least one admin: the last one cannot erase their account. */
async function assertAnotherAdmin(trx: Db, userId: string): Promise<void> {
  // Locked in id order, as demotions lock them (routers/admin/customers.ts), so the two cannot race.
  const admins = await trx.selectFrom('customers').select('id').where('is_admin', '=', true).orderBy('id').forUpdate().execute();
  if (admins.every((admin) => admin.id === userId)) throw new TRPCError({ code: 'CONFLICT', message: LAST_ADMIN_ACCOUNT });
}

/** Everything the database holds of the person, in the caller's transaction. */
async function eraseRows(trx: Db, clock: Clock, userId: string, email: string): Promise<void> {
  const address = sql<string>`jsonb_build_object('name', ${DELETED_CUSTOMER}::text, 'phone', '', 'street', '', 'city', '', 'state', '', 'zip', '', 'country', coalesce(shipping_address->'country', '""'))`;
  // Memberships end now and keep only what the shop's figures need.
  await trx
    .updateTable('subscriptions')
    .set((eb) => ({
      status: 'cancelled',
      cancelled_at: eb.fn.coalesce('cancelled_at', sql.val(clock.now().toISOString())),
      cancel_at: eb.fn.coalesce('cancel_at', sql.val(today(clock))),
      cancel_reason: DELETED_CUSTOMER,
      paused_until: null,
      skip_next: false,
      checkout_url: null,
      ...clearedUnpaid,
      shipping_address: address,
      updated_at: new Date(),
    }))
    .where('customer_id', '=', userId)
    .execute();
  // Orders stay for the shop's books (tax law keeps invoices), without the person.
  // Their keys go too (a guest order taken into the account keeps one): nobody is left to open the page.
  await trx
    .updateTable('orders')
    .set({ shipping_address: address, access_key: null, updated_at: new Date() })
    .where('customer_id', '=', userId)
    .execute();
  // So do orders placed as a guest with the address and not taken into the account.
  await trx
    .updateTable('orders')
    .set({ shipping_address: address, guest_email: null, access_key: null, updated_at: new Date() })
    .where(sql<string>`lower(guest_email)`, '=', email.toLowerCase())
    .where('guest_email', 'is not', null)
    .execute();
  await trx.deleteFrom('guest_email_budgets').where('address_hash', '=', addressHash(email)).execute();

  const sameAddress = (column: 'email' | 'to_email' | 'reply_to') => sql<boolean>`lower(${sql.ref(column)}) = lower(${email})`;
  const mentions = (column: 'subject' | 'text_body' | 'html_body') => sql<boolean>`strpos(lower(${sql.ref(column)}), lower(${email})) > 0`;
  await trx.deleteFrom('contact_submissions').where(sameAddress('email')).execute();
  // Emails to them, and the store's own about them (a contact message's notice, with their address to reply to).
  await trx
    .deleteFrom('email_queue')
    .where((eb) =>
      eb.or([sameAddress('to_email'), sameAddress('reply_to'), mentions('subject'), mentions('text_body'), mentions('html_body')]),
    )
    .execute();

  // Sessions, emailed links and the customer row go with the account; orders and memberships lose it.
  await trx.deleteFrom('users').where('id', '=', userId).execute();
  // Their open pages end at once (events/access.ts checks the session on this).
  await publishEvent(trx, { type: 'sessions_ended', userId });
}

/** The outbox's copies of emails to or about them (the store's stand-in for a mail server). */
async function eraseOutboxCopies({ outboxDir, log }: ErasureServices, email: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(outboxDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const needle = email.toLowerCase();
  for (const name of names) {
    if (!name.endsWith('.eml')) continue;
    const file = path.join(outboxDir, name);
    try {
      if ((await fs.readFile(file, 'utf8')).toLowerCase().includes(needle)) await fs.rm(file, { force: true });
    } catch (error) {
      log.warn({ err: error, file }, 'could not check an outbox email for an erased address');
    }
  }
}
