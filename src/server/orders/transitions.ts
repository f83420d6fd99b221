import { sql, type UpdateObject } from 'kysely';
import type { OrderEventKind, OrderStatus, PaymentStatus } from '../../shared/constants';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { releaseDiscountUse } from './discounts';
import type { DB } from '../db/schema';
import { enqueueEmail, type OutgoingEmail } from '../email/queue';
import type { StoreInfo } from '../email/templates/layout';
import {
  orderCancelledEmail,
  orderConfirmationEmail,
  orderRefundedEmail,
  orderShippedEmail,
  orderTrackingEmail,
  paymentReceivedEmail,
  type OrderForEmail,
} from '../email/templates/orders';
import { readCheckoutSettings } from './pricing';
import { orderEmail, ordersWithCustomer } from './recipient';

// How an order moves, whoever moves it (an admin, a payment webhook, checkout). Each change is one
// guarded UPDATE: it happens only from the states it may come from, so a second click or a
// repeated notification finds nothing to change and sends no second email. Callers pass their
// transaction; the history row and the email commit with the change or not at all.

export type MailSettings = Pick<Config, 'storeName' | 'storeEmail' | 'publicUrl' | 'emailMaxRetries'>;

export async function recordOrderEvent(db: Db, orderId: string, kind: OrderEventKind): Promise<void> {
  await db.insertInto('order_events').values({ order_id: orderId, kind }).execute();
}

/** The order as its emails show it; null when its customer erased their account, leaving no one to write to. */
export async function orderForEmail(db: Db, orderId: string): Promise<OrderForEmail | null> {
  const order = await ordersWithCustomer(db)
    .select([
      'orders.order_number',
      'orders.access_key',
      orderEmail.as('email'),
      'orders.subtotal',
      'orders.shipping_cost',
      'orders.tax',
      'orders.discount_code',
      'orders.discount',
      'orders.total',
      'orders.shipping_address',
    ])
    .where('orders.id', '=', orderId)
    .executeTakeFirstOrThrow();
  if (order.email === null) return null;
  const lines = await db
    .selectFrom('order_items')
    .select(['product_name', 'colour_name', 'size', 'quantity', 'total_price'])
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return {
    orderNumber: order.order_number,
    customerEmail: order.email,
    accessKey: order.access_key,
    lines: lines.map((line) => ({
      productName: line.product_name,
      colourName: line.colour_name,
      size: line.size,
      quantity: line.quantity,
      totalPrice: line.total_price,
    })),
    subtotal: order.subtotal,
    shippingCost: order.shipping_cost,
    tax: order.tax,
    discount: order.discount_code ? { code: order.discount_code, amount: order.discount } : null,
    total: order.total,
    shippingAddress: order.shipping_address,
  };
}

async function sendOrderEmail(
  db: Db,
  mail: MailSettings,
  orderId: string,
  build: (store: StoreInfo, order: OrderForEmail) => OutgoingEmail,
) {
  const order = await orderForEmail(db, orderId);
  if (!order) return;
  const email = build(mail, order);
  // They invite replies ("reply to ask how to pay"), and EMAIL_FROM may be an address nobody reads.
  await enqueueEmail(db, { replyTo: mail.storeEmail, ...email }, mail.emailMaxRetries);
}

/** The confirmation of a just-placed order (to be paid by hand: with the store's payment instructions). */
export async function sendOrderConfirmation(db: Db, mail: MailSettings, orderId: string, paid: boolean): Promise<void> {
  const { payment_instructions: instructions } = await readCheckoutSettings(db);
  await sendOrderEmail(db, mail, orderId, (store, order) => orderConfirmationEmail(store, order, { paid, instructions }));
}

/**
 * A payment change, applied only while the payment is in one of the `from` states, and recorded in
 * the order's history. The changed order, or undefined when there was nothing to change.
 */
async function changePayment(
  db: Db,
  orderId: string,
  from: readonly PaymentStatus[],
  values: UpdateObject<DB, 'orders'>,
  event: OrderEventKind,
) {
  const changed = await db
    .updateTable('orders')
    .set({ ...values, updated_at: sql<string>`now()` })
    .where('id', '=', orderId)
    .where('payment_status', 'in', from)
    .returning(['payment_provider', 'status'])
    .executeTakeFirst();
  if (changed) await recordOrderEvent(db, orderId, event);
  return changed;
}

/**
 * Pending becomes paid, once (null when it was not pending). A hand-paid order gets "payment
 * received"; a card-paid one gets its confirmation now, when the money is there, unless the order
 * was cancelled meanwhile (paid on a page left open): then the money is to go back (`refundDue`).
 */
export async function markOrderPaid(
  db: Db,
  mail: MailSettings,
  orderId: string,
  paymentIntentId: string | null = null,
): Promise<{ refundDue: boolean } | null> {
  const changed = await changePayment(
    db,
    orderId,
    ['pending'],
    {
      payment_status: 'paid',
      paid_at: sql<string>`now()`,
      payment_intent_id: sql<string | null>`coalesce(${paymentIntentId}, payment_intent_id)`,
    },
    'paid',
  );
  if (!changed) return null;
  if (changed.payment_provider === 'manual') await sendOrderEmail(db, mail, orderId, paymentReceivedEmail);
  else if (changed.status === 'cancelled') return { refundDue: true };
  else await sendOrderConfirmation(db, mail, orderId, true);
  return { refundDue: false };
}

/**
 * A payment that did not go through; an abandoned checkout (expired) also cancels the order while
 * it is still pending. One an admin took further meanwhile (processing, even shipped, unpaid) keeps
 * its status, with the failed payment for the admin to see: only they know what went out.
 */
export async function markPaymentFailed(db: Db, orderId: string, { cancel }: { cancel: boolean }): Promise<boolean> {
  const before = await lockOrder(db, orderId);
  // An admin's cancellation expires the payment page, whose notice then finds the order cancelled already.
  const cancels = cancel && before?.status === 'pending';
  const values = { payment_status: 'failed' as const, ...(cancels ? { status: 'cancelled' as const } : {}) };
  if (!(await changePayment(db, orderId, ['pending'], values, 'payment_failed'))) return false;
  if (cancels) await recordOrderEvent(db, orderId, 'cancelled');
  return true;
}

/**
 * Paid becomes refunded, once, with its email. The provider's word that the money went back also
 * counts for an order whose payment notice has not arrived yet (notices can come out of order),
 * so the late "paid" finds nothing to change.
 */
export async function markOrderRefunded(
  db: Db,
  mail: MailSettings,
  orderId: string,
  { evenIfUnpaid = false }: { evenIfUnpaid?: boolean } = {},
): Promise<boolean> {
  const from: PaymentStatus[] = evenIfUnpaid ? ['paid', 'pending', 'failed'] : ['paid'];
  if (!(await changePayment(db, orderId, from, { payment_status: 'refunded' }, 'refunded'))) return false;
  await sendOrderEmail(db, mail, orderId, orderRefundedEmail);
  return true;
}

/** The order's status, payment and tracking number, locked for a change of status or tracking. */
const lockOrder = (db: Db, orderId: string) =>
  db
    .selectFrom('orders')
    .select(['status', 'payment_status', 'tracking_number', 'tracking_announced'])
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();

/**
 * Any status an admin sets (docs/PRODUCT.md § States: no ordering enforced). Shipping and cancelling tell the
 * customer, the first time only: an order moved back and forth is not announced again, except for
 * a tracking number the customer has not been sent yet. Null when the order does not exist;
 * `paymentStatus` is the payment's as the change found it.
 */
export async function setOrderStatus(
  db: Db,
  mail: MailSettings,
  orderId: string,
  status: OrderStatus,
): Promise<{ changed: boolean; paymentStatus: PaymentStatus } | null> {
  const current = await lockOrder(db, orderId);
  if (!current) return null;
  if (current.status === status) return { changed: false, paymentStatus: current.payment_status };
  const toldBefore = await db
    .selectFrom('order_events')
    .select('kind')
    .where('order_id', '=', orderId)
    .where('kind', '=', status)
    .executeTakeFirst();
  await db
    .updateTable('orders')
    .set({ status, updated_at: sql<string>`now()` })
    .where('id', '=', orderId)
    .execute();
  await recordOrderEvent(db, orderId, status);
  if (status === 'shipped' && !toldBefore) {
    const tracking = current.tracking_number ? await trackingOf(db, current.tracking_number) : null;
    await sendOrderEmail(db, mail, orderId, (store, order) => orderShippedEmail(store, order, tracking));
    if (current.tracking_number) await markTrackingAnnounced(db, orderId, current.tracking_number);
  } else if (status === 'shipped' && current.tracking_number) {
    await announceTracking(db, mail, orderId, current.tracking_number, current.tracking_announced);
  }
  if (status === 'cancelled' && !toldBefore) await sendOrderEmail(db, mail, orderId, orderCancelledEmail);
  // A cancelled order that was never paid gives its discount code's use back.
  if (status === 'cancelled' && current.payment_status !== 'paid') await releaseDiscountUse(db, orderId);
  return { changed: true, paymentStatus: current.payment_status };
}

/**
 * Sets or clears the tracking number. One given or changed once the order has shipped is emailed
 * to the customer (the shipping email went out without it), unless it is the one they were sent
 * last. One given before is sent with the shipping email. Null when the order does not exist.
 */
export async function setOrderTrackingNumber(
  db: Db,
  mail: MailSettings,
  orderId: string,
  trackingNumber: string | null,
): Promise<true | null> {
  const current = await lockOrder(db, orderId);
  if (!current) return null;
  if (current.tracking_number === trackingNumber) return true;
  await db
    .updateTable('orders')
    .set({ tracking_number: trackingNumber, updated_at: sql<string>`now()` })
    .where('id', '=', orderId)
    .execute();
  if (trackingNumber && current.status === 'shipped') {
    await announceTracking(db, mail, orderId, trackingNumber, current.tracking_announced);
  }
  return true;
}

/** Emails a shipped order's tracking number, unless it is the one the customer was sent last. */
async function announceTracking(db: Db, mail: MailSettings, orderId: string, trackingNumber: string, announced: string | null) {
  if (trackingNumber === announced) return;
  const tracking = await trackingOf(db, trackingNumber);
  await sendOrderEmail(db, mail, orderId, (store, order) => orderTrackingEmail(store, order, tracking));
  await markTrackingAnnounced(db, orderId, trackingNumber);
}

const markTrackingAnnounced = (db: Db, orderId: string, trackingNumber: string) =>
  db.updateTable('orders').set({ tracking_announced: trackingNumber }).where('id', '=', orderId).execute();

async function trackingOf(db: Db, trackingNumber: string) {
  const { tracking_url_template: template } = await readCheckoutSettings(db);
  return { number: trackingNumber, url: trackingUrl(template, trackingNumber) };
}

/** The tracking page of a number, from the store's template. */
export const trackingUrl = (template: string, trackingNumber: string) => template.replace('{number}', encodeURIComponent(trackingNumber));
