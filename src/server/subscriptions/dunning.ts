import { sql } from 'kysely';
import type { Db } from '../db/database';
import { readCheckoutSettings } from '../orders/pricing';
import { addDays, today } from './dates';
import { notifyMember } from './notify';
import { nextOpenCycle } from './cycles';
import { claimSubscription } from './queries';
import type { ClaimStep } from './renewal';

// Chasing what members owe, as steps of the renewal pass (one row claimed at a time, skipping
// rows another process holds).
//
// Paid by hand: a cycle order still unpaid 7 days after its cycle started gets a reminder, and
// another every 7 days; the third puts the membership on hold (Past due: no new cycles). Once
// those orders are paid (or cancelled by an admin) it is active again from the next open day.
//
// By card: Stripe reports a failed invoice (billing.ts makes the member Past due); the store tries
// it again every SUBSCRIPTION_RETRY_DAYS days, SUBSCRIPTION_PAYMENT_RETRIES times, then ends the
// membership at Stripe and here, with an email.

export const REMINDER_EVERY_DAYS = 7;
export const REMINDERS_BEFORE_HOLD = 3;

export const remindNextUnpaidOrder: ClaimStep = async ({ db, mail, clock }, skip, onClaim) => {
  const day = today(clock);
  const due = await db
    .selectFrom('subscription_cycles')
    .innerJoin('orders', 'orders.id', 'subscription_cycles.order_id')
    .select([
      'subscription_cycles.subscription_id',
      'subscription_cycles.cycle_start',
      'subscription_cycles.reminders_sent',
      'orders.order_number',
      'orders.total',
    ])
    .where('orders.payment_provider', '=', 'manual')
    .where('orders.payment_status', '=', 'pending')
    .where('orders.status', '<>', 'cancelled')
    .where('subscription_cycles.reminders_sent', '<', REMINDERS_BEFORE_HOLD)
    .where(
      sql<string>`coalesce(subscription_cycles.reminded_on, subscription_cycles.cycle_start)`,
      '<=',
      addDays(day, -REMINDER_EVERY_DAYS),
    )
    .$if(skip.length > 0, (query) => query.where('subscription_cycles.subscription_id', 'not in', skip))
    .orderBy('subscription_cycles.cycle_start')
    .forUpdate(['subscription_cycles'])
    .skipLocked()
    .limit(1)
    .executeTakeFirst();
  if (!due) return null;
  onClaim(due.subscription_id);
  const reminder = due.reminders_sent + 1;
  await db
    .updateTable('subscription_cycles')
    .set({ reminders_sent: reminder, reminded_on: day })
    .where('subscription_id', '=', due.subscription_id)
    .where('cycle_start', '=', due.cycle_start)
    .execute();
  const lastReminder = reminder === REMINDERS_BEFORE_HOLD;
  if (lastReminder) {
    await db
      .updateTable('subscriptions')
      .set({ status: 'past_due', updated_at: new Date() })
      .where('id', '=', due.subscription_id)
      .where('status', '=', 'active')
      .execute();
  }
  const { payment_instructions: instructions } = await readCheckoutSettings(db);
  await notifyMember(db, mail, due.subscription_id, {
    kind: 'payment_reminder',
    orderNumber: due.order_number,
    total: due.total,
    reminder,
    lastReminder,
    instructions,
  });
  return 'reminded';
};

/** A member on hold whose reminded orders are all settled is active again; cycles missed meanwhile are not made. */
export const reactivateNextPaidUp: ClaimStep = async ({ db, mail, clock }, skip, onClaim) => {
  const subscription = await claimSubscription(db, skip, onClaim, (query) =>
    query
      .where('payment_provider', '=', 'manual')
      .where('status', '=', 'past_due')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('subscription_cycles')
              .innerJoin('orders', 'orders.id', 'subscription_cycles.order_id')
              .select(sql.lit(1).as('one'))
              .whereRef('subscription_cycles.subscription_id', '=', 'subscriptions.id')
              .where('subscription_cycles.reminders_sent', '>=', REMINDERS_BEFORE_HOLD)
              .where('orders.payment_status', '=', 'pending')
              .where('orders.status', '<>', 'cancelled'),
          ),
        ),
      ),
  );
  if (!subscription) return null;
  const next = await nextOpenCycle(db, subscription, today(clock));
  await db
    .updateTable('subscriptions')
    .set({ status: 'active', next_cycle_on: next, updated_at: new Date() })
    .where('id', '=', subscription.id)
    .execute();
  await notifyMember(db, mail, subscription.id, { kind: 'resumed', nextShipment: next });
  return 'reactivated';
};

/**
 * Tries a Past due card member's invoice again, or ends the membership after the last try. Stripe
 * is called between two short transactions and not inside one: on the embedded database a
 * transaction holds the only connection, so a slow Stripe would hold every request of the store.
 * What the call found is written only if the membership is still as it was claimed (a Stripe
 * notice or the member's cancellation meanwhile wins); the call's idempotency key makes a repeat
 * by another process one operation at Stripe.
 */
export const retryNextUnpaidInvoice: ClaimStep = async ({ db, mail, clock, billing, dunning }, skip, onClaim) => {
  if (!billing) return null;
  const day = today(clock);
  const subscription = await db
    .transaction()
    .execute((trx) =>
      claimSubscription(trx, skip, onClaim, (query) =>
        query
          .where('payment_provider', '=', 'stripe')
          .where('status', '=', 'past_due')
          .where('unpaid_retried_on', '<=', addDays(day, -dunning.subscriptionRetryDays)),
      ),
    );
  if (!subscription) return null;
  const ifUnchanged = (write: (trx: Db) => Promise<unknown>) =>
    db.transaction().execute(async (trx) => {
      const unchanged = await trx
        .selectFrom('subscriptions')
        .select('id')
        .where('id', '=', subscription.id)
        .where('status', '=', 'past_due')
        .where('unpaid_invoice_id', subscription.unpaid_invoice_id === null ? 'is' : '=', subscription.unpaid_invoice_id)
        .where('unpaid_retries', '=', subscription.unpaid_retries)
        .forUpdate()
        .executeTakeFirst();
      if (unchanged) await write(trx);
    });

  if (subscription.unpaid_invoice_id && subscription.unpaid_retries < dunning.subscriptionPaymentRetries) {
    const attempt = subscription.unpaid_retries + 1;
    const outcome = await billing.retryInvoice(subscription.unpaid_invoice_id, attempt);
    // Paid: active again at once (the invoice's own notice makes the cycle's order).
    await ifUnchanged((trx) =>
      trx
        .updateTable('subscriptions')
        .set(
          outcome === 'paid'
            ? { status: 'active', ...clearedUnpaid, updated_at: new Date() }
            : { unpaid_retries: attempt, unpaid_retried_on: day, updated_at: new Date() },
        )
        .where('id', '=', subscription.id)
        .execute(),
    );
    return 'retried';
  }
  if (subscription.stripe_subscription_id) await billing.cancelNow(subscription.stripe_subscription_id);
  await ifUnchanged(async (trx) => {
    await endMembership(trx, subscription.id, day, clock.now());
    await notifyMember(trx, mail, subscription.id, { kind: 'ended_unpaid' });
  });
  return 'endedUnpaid';
};

export const clearedUnpaid = {
  unpaid_invoice_id: null,
  unpaid_invoice_url: null,
  unpaid_since: null,
  unpaid_retries: 0,
  unpaid_retried_on: null,
} as const;

/** Ends a membership now: cancelled, unpaid invoice forgotten. */
export async function endMembership(db: Db, subscriptionId: string, day: string, at: Date): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set((eb) => ({
      status: 'cancelled',
      cancelled_at: at,
      cancel_at: eb.fn.coalesce('cancel_at', sql.val(day)),
      paused_until: null,
      ...clearedUnpaid,
      updated_at: new Date(),
    }))
    .where('id', '=', subscriptionId)
    .execute();
}
