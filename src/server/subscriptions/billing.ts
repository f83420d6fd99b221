import type { Selectable, Updateable } from 'kysely';
import { toCents } from '../../shared/money';
import type { Db } from '../db/database';
import type { SubscriptionPlansTable, SubscriptionsTable } from '../db/schema';
import type { BillingEvent, SubscriptionBilling } from '../payments/provider';
import { dayOfMonth, today } from './dates';
import { clearedUnpaid, endMembership } from './dunning';
import { notifyMember } from './notify';
import { orderCycle, type RenewalServices } from './renewal';

// Card memberships through Stripe Billing. A join waits as an `incomplete` row while the member
// pays in Stripe Checkout; from then on Stripe charges every cycle and its notices drive the
// membership: a paid invoice makes the cycle's order (one per invoice), a failed one makes the
// member Past due with a link to pay, and a subscription Stripe ended ends here too. Notices can
// come in any order and more than once: each change below is guarded so a repeat changes nothing.

type Plan = Selectable<SubscriptionPlansTable>;
type Subscription = Selectable<SubscriptionsTable>;

/** The order a paid invoice makes is keyed by the invoice: one per invoice. */
const invoiceOrderKey = (invoiceId: string) => `invoice:${invoiceId}`;

/**
 * The Stripe Price new members of the plan pay: made on first use and again when the plan's price
 * or interval changed; members who joined before keep the Price they pay.
 */
export async function planPriceId(db: Db, billing: SubscriptionBilling, plan: Plan): Promise<string> {
  if (plan.stripe_price_id && plan.stripe_price_interval === plan.billing_interval && plan.stripe_price_amount === plan.price) {
    return plan.stripe_price_id;
  }
  const { productId, priceId } = await billing.createRecurringPrice({
    planId: plan.id,
    planName: plan.name,
    productId: plan.stripe_product_id,
    unitCents: toCents(plan.price),
    interval: plan.billing_interval,
  });
  // Only if the plan is still at that price: an admin's change meanwhile makes its own Price next time.
  await db
    .updateTable('subscription_plans')
    .set({
      stripe_product_id: productId,
      stripe_price_id: priceId,
      stripe_price_amount: plan.price,
      stripe_price_interval: plan.billing_interval,
    })
    .where('id', '=', plan.id)
    .where('price', '=', plan.price)
    .where('billing_interval', '=', plan.billing_interval)
    .execute();
  return priceId;
}

/** Finds and locks the membership a notice is about: by our id (metadata), else by Stripe's. */
async function lockSubscription(db: Db, event: BillingEvent): Promise<Subscription | undefined> {
  const query = db.selectFrom('subscriptions').selectAll().forUpdate();
  if (event.subscriptionId) return query.where('id', '=', event.subscriptionId).executeTakeFirst();
  if (event.kind === 'checkout_completed' || event.kind === 'checkout_expired') return undefined;
  return query.where('stripe_subscription_id', '=', event.providerSubscriptionId).executeTakeFirst();
}

export type BillingOutcome = 'applied' | 'unknown_subscription';

/** Applies one Stripe Billing notice to its membership, inside the caller's transaction. */
export async function applyBillingEvent(
  services: Pick<RenewalServices, 'db' | 'mail' | 'clock' | 'log'>,
  event: BillingEvent,
): Promise<BillingOutcome> {
  const { db, mail, clock } = services;
  const subscription = await lockSubscription(db, event);
  if (!subscription) return 'unknown_subscription';
  if (event.kind === 'checkout_expired') {
    // The page the member would pay on is gone: theirs shows "Join again" instead of a dead link.
    // A later join has made a new page already (another session): that one stands.
    if (subscription.status === 'incomplete' && subscription.checkout_session_id === event.sessionId) {
      await db.updateTable('subscriptions').set({ checkout_url: null, updated_at: new Date() }).where('id', '=', subscription.id).execute();
    }
    return 'applied';
  }
  const day = today(clock);
  const providerIds =
    event.kind === 'checkout_completed'
      ? { stripe_subscription_id: event.providerSubscriptionId, stripe_customer_id: event.providerCustomerId }
      : { stripe_subscription_id: event.providerSubscriptionId };
  const update = (set: Updateable<SubscriptionsTable>) =>
    db.updateTable('subscriptions').set(set).where('id', '=', subscription.id).execute();

  // Checkout completed or a first invoice paid, whichever comes first: the member is in.
  const welcome = async () => {
    if (subscription.status !== 'incomplete') return;
    await update({ status: 'active', anchor_day: dayOfMonth(day), updated_at: new Date() });
    await notifyMember(db, mail, subscription.id, { kind: 'joined', firstShipment: day });
  };

  switch (event.kind) {
    case 'checkout_completed':
      await update({ ...providerIds, checkout_url: null, updated_at: new Date() });
      await welcome();
      break;
    case 'invoice_paid': {
      await welcome();
      const wasUnpaid = subscription.status === 'past_due' && subscription.unpaid_invoice_id === event.invoiceId;
      // The first paid cycle fixes the member's day of the month as Stripe bills it, not as this
      // notice happened to be handled (a day late after an outage, past midnight UTC).
      const firstCycle = !(await db
        .selectFrom('subscription_cycles')
        .select('cycle_start')
        .where('subscription_id', '=', subscription.id)
        .executeTakeFirst());
      await update({
        ...providerIds,
        ...(firstCycle ? { anchor_day: dayOfMonth(event.periodStart) } : {}),
        // A later cycle paid for: the next one is the invoice's period end.
        ...(event.periodEnd > subscription.next_cycle_on || subscription.status === 'incomplete' ? { next_cycle_on: event.periodEnd } : {}),
        skip_next: false,
        ...(wasUnpaid ? { status: 'active' as const, ...clearedUnpaid } : {}),
        updated_at: new Date(),
      });
      // The money is in: the cycle ships whatever became of the membership since.
      await orderCycle(services, subscription, event.periodStart, {
        paid: true,
        idempotencyKey: invoiceOrderKey(event.invoiceId),
        paymentIntentId: event.paymentIntentId,
      });
      break;
    }
    case 'invoice_failed': {
      // A first payment that fails in Checkout is the buyer's to retry there; a new unpaid invoice of a member is chased.
      if (subscription.status === 'incomplete' || subscription.status === 'cancelled') break;
      if (subscription.unpaid_invoice_id === event.invoiceId) break;
      // An earlier attempt's notice arriving after the invoice was paid (its order made): old news.
      const paidAlready = await db
        .selectFrom('orders')
        .select('id')
        .where('subscription_id', '=', subscription.id)
        .where('idempotency_key', '=', invoiceOrderKey(event.invoiceId))
        .executeTakeFirst();
      if (paidAlready) break;
      await update({
        ...providerIds,
        status: 'past_due',
        unpaid_invoice_id: event.invoiceId,
        unpaid_invoice_url: event.payUrl,
        unpaid_since: day,
        unpaid_retries: 0,
        unpaid_retried_on: day,
        updated_at: new Date(),
      });
      await notifyMember(db, mail, subscription.id, { kind: 'payment_failed', payUrl: event.payUrl });
      break;
    }
    case 'subscription_ended': {
      if (subscription.status === 'cancelled') break;
      await endMembership(db, subscription.id, day, clock.now());
      // Ended as the member asked (at period end) needs no second email.
      if (subscription.cancel_at === null) await notifyMember(db, mail, subscription.id, { kind: 'ended' });
      break;
    }
    case 'cancel_scheduled': {
      // Our own cancellation comes back this way too: only one made at Stripe alone is news. Stripe
      // ends the subscription on that day (subscription_ended); the member hears of it now, as
      // when they cancel themselves.
      if (subscription.status === 'cancelled' || subscription.cancel_at !== null) break;
      await update({ cancel_at: event.cancelsOn, updated_at: new Date() });
      await notifyMember(db, mail, subscription.id, { kind: 'cancelling', cancelsOn: event.cancelsOn });
      break;
    }
    case 'cancel_withdrawn': {
      // Taken back in Stripe's dashboard: the membership goes on (Stripe bills it again) and the
      // member can manage it, and cancel it, as before.
      if (subscription.status === 'cancelled' || subscription.cancel_at === null) break;
      await update({ cancel_at: null, cancel_reason: null, updated_at: new Date() });
      break;
    }
  }
  return 'applied';
}
