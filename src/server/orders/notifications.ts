import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import type { PaymentNotification, PaymentProvider } from '../payments/provider';
import { applyBillingEvent } from '../subscriptions/billing';
import type { Clock } from '../subscriptions/dates';
import { markOrderPaid, markOrderRefunded, markPaymentFailed, type MailSettings } from './transitions';

// A payment provider's notification, applied once. The event id is stored in the same transaction
// as the change it causes: a repeated delivery finds it stored and changes nothing, and the
// guarded transitions make events arriving out of order harmless (an expiry after payment, a
// completion after a refund).

/** `paid_after_cancel`: an order cancelled meanwhile was paid (on a page left open); its money is to go back. */
export type NotificationOutcome = 'applied' | 'paid_after_cancel' | 'duplicate' | 'unknown_order' | 'unknown_subscription' | 'ignored';

export interface NotificationServices {
  db: Db;
  mail: MailSettings;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** The order a notification is about, with the payment page it was last given and who was to take its payment. */
async function orderOf(db: Db, notification: PaymentNotification) {
  const orders = db.selectFrom('orders').select(['id', 'checkout_session_id', 'payment_provider']);
  if (notification.effect === 'refunded' && !notification.orderId) {
    return orders.where('payment_intent_id', '=', notification.paymentIntentId).executeTakeFirst();
  }
  if (!notification.orderId) return undefined;
  return orders.where('id', '=', notification.orderId).executeTakeFirst();
}

export async function applyPaymentNotification(
  { db, mail, clock, log }: NotificationServices,
  provider: Pick<PaymentProvider, 'name'>,
  notification: PaymentNotification,
): Promise<NotificationOutcome> {
  return db.transaction().execute(async (trx) => {
    const order = await orderOf(trx, notification);
    const orderId = order?.id ?? null;
    const stored = await trx
      .insertInto('payment_events')
      .values({ provider: provider.name, event_id: notification.eventId, type: notification.type, order_id: orderId })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!stored) return 'duplicate';
    if (notification.effect === 'none') return 'ignored';
    if (notification.effect === 'membership') {
      const outcome = await applyBillingEvent({ db: trx, mail, clock, log }, notification.billing);
      if (outcome === 'unknown_subscription') {
        log.warn(
          { eventId: notification.eventId, type: notification.type },
          'billing notification for a membership this store does not have',
        );
      }
      return outcome;
    }
    if (!orderId) {
      // Acknowledged all the same: the provider would only send it again.
      log.warn({ eventId: notification.eventId, type: notification.type }, 'payment notification for an order this store does not have');
      return 'unknown_order';
    }
    if (order?.payment_provider !== provider.name) {
      // An order paid some other way (by hand, say): this provider's events never change it, not
      // even a signed one that names it (a refund of some other charge carrying its id).
      log.warn(
        { eventId: notification.eventId, type: notification.type, orderId },
        'payment notification for an order this provider does not take the payment of: ignored',
      );
      return 'ignored';
    }
    if ('paymentPageId' in notification && notification.paymentPageId !== order.checkout_session_id) {
      // Not the page the order was given: a page of the same order left over from a try whose prices
      // changed (its expiry must not cancel the order paid on the newer one), or another payment on
      // the account that names this order (nobody may pay for an order on some other page's terms).
      log.warn(
        { eventId: notification.eventId, type: notification.type, orderId, paymentPageId: notification.paymentPageId },
        "payment notification from a payment page that is not the order's: ignored",
      );
      return 'ignored';
    }
    switch (notification.effect) {
      case 'paid':
        if ((await markOrderPaid(trx, mail, orderId, notification.paymentIntentId))?.refundDue) return 'paid_after_cancel';
        break;
      case 'payment_failed':
      case 'expired':
        await markPaymentFailed(trx, orderId, { cancel: notification.effect === 'expired' });
        break;
      case 'refunded':
        await markOrderRefunded(trx, mail, orderId, { evenIfUnpaid: true });
        break;
    }
    return 'applied';
  });
}

/**
 * Gives back the money paid for an order that was cancelled before it was paid, and tells the buyer
 * it was refunded. Done after the notice is stored, as it calls the provider. When the provider
 * fails, the order stays cancelled and paid, and an admin refunds it from the order's page.
 */
export async function refundCancelledOrder(
  { db, mail, log }: Omit<NotificationServices, 'clock'>,
  provider: Pick<PaymentProvider, 'refund'>,
  orderId: string,
): Promise<void> {
  const { payment_intent_id: paymentIntentId } = await db
    .selectFrom('orders')
    .select('payment_intent_id')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  try {
    await provider.refund({ id: orderId, paymentIntentId });
  } catch (error) {
    log.error({ err: error, orderId }, 'a cancelled order was paid and its refund failed: refund it from the admin');
    return;
  }
  await db.transaction().execute((trx) => markOrderRefunded(trx, mail, orderId));
}
