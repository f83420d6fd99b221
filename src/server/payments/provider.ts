import type { BillingInterval, PaymentProviderName } from '../../shared/constants';

// The seam between orders and whoever takes the money (docs/ARCHITECTURE.md § Orders, payments and subscriptions). Orders are
// placed and moved between states by src/server/orders; a provider only talks to its service.

export interface PaymentRequest {
  /** Known before the order is stored, so the provider's own idempotency follows the cart submission. */
  orderId: string;
  customerEmail: string;
  /** Each line with what a discount code takes off it (the payment page shows the discounted line). */
  /** `variant` is the line's colour and size as the buyer reads them ("White, M"). */
  lines: { name: string; variant: string; quantity: number; unitCents: number; discountCents: number }[];
  /** Shipping as charged: nothing under a free-shipping code. */
  shippingCents: number;
  taxCents: number;
  /** Where the buyer returns after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
}

export interface StartedPayment {
  /** The provider's id of this payment attempt (a Stripe Checkout Session). */
  sessionId: string;
  /** Where to send the buyer to pay. */
  url: string;
}

/** What a provider's notification means for a card membership (our subscription id from its metadata). */
export type BillingEvent =
  | { kind: 'checkout_completed'; subscriptionId: string; providerSubscriptionId: string | null; providerCustomerId: string | null }
  /** The join's payment page expired unpaid (the member left it): its link is dead. */
  | { kind: 'checkout_expired'; subscriptionId: string; sessionId: string }
  | {
      kind: 'invoice_paid';
      subscriptionId: string | null;
      providerSubscriptionId: string;
      invoiceId: string;
      /** The cycle the invoice pays for, as calendar days (UTC). */
      periodStart: string;
      periodEnd: string;
      paymentIntentId: string | null;
    }
  | { kind: 'invoice_failed'; subscriptionId: string | null; providerSubscriptionId: string; invoiceId: string; payUrl: string | null }
  | { kind: 'subscription_ended'; subscriptionId: string | null; providerSubscriptionId: string }
  /** Set to end at the provider (its dashboard, say): the last day, as a calendar day (UTC). */
  | { kind: 'cancel_scheduled'; subscriptionId: string | null; providerSubscriptionId: string; cancelsOn: string }
  /** Not set to end at the provider (any more): a cancellation there was withdrawn, or there was none. */
  | { kind: 'cancel_withdrawn'; subscriptionId: string | null; providerSubscriptionId: string };

/** What a provider's notification means for an order, whatever the provider calls it. */
export type PaymentNotification =
  | { eventId: string; type: string; effect: 'membership'; orderId: null; billing: BillingEvent }
  /** `paymentPageId`: the payment page (Stripe's Checkout Session) it is about; only the order's own counts. */
  | { eventId: string; type: string; effect: 'paid'; orderId: string; paymentPageId: string; paymentIntentId: string | null }
  | { eventId: string; type: string; effect: 'payment_failed' | 'expired'; orderId: string; paymentPageId: string }
  | { eventId: string; type: string; effect: 'refunded'; orderId: string | null; paymentIntentId: string }
  /** Nothing to change: a payment still clearing, or an event this store does not act on. */
  | { eventId: string; type: string; effect: 'none'; orderId: string | null };

/** A notification whose signature or body does not check out: answered 400, nothing changed. */
export class InvalidNotificationError extends Error {
  override name = 'InvalidNotificationError';
}

/** A plan's recurring price at the provider, made once per price and interval. */
export interface RecurringPriceRequest {
  planId: string;
  planName: string;
  /** The provider's product for the plan, when one was made before. */
  productId: string | null;
  unitCents: number;
  interval: BillingInterval;
}

export interface SubscriptionCheckoutRequest {
  /** Our subscription, waiting for its first payment. */
  subscriptionId: string;
  /**
   * The page the membership names now, which this one replaces (expired, closed, or made for other
   * terms): joins at once share the new page, and each later replacement gets one of its own.
   */
  replacesSessionId: string | null;
  customerEmail: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
}

/** Memberships billed by the provider (Stripe Billing): it charges every cycle and tells us. */
export interface SubscriptionBilling {
  createRecurringPrice(request: RecurringPriceRequest): Promise<{ productId: string; priceId: string }>;
  startSubscription(request: SubscriptionCheckoutRequest): Promise<StartedPayment>;
  /** What became of a payment page: paid on, still payable, or closed (expired, or unknown to the provider). */
  checkoutState(sessionId: string): Promise<'open' | 'paid' | 'closed'>;
  /**
   * Closes a payment page so that it can no longer be paid on; nothing when it is finished already.
   * Says whether it ended closed or paid on (a moment before, perhaps).
   */
  closeCheckout(sessionId: string): Promise<'paid' | 'closed'>;
  /** No charge for cycles starting before `resumesOn` (a day), or until resumed when null. */
  pauseCollection(providerSubscriptionId: string, resumesOn: string | null): Promise<void>;
  resumeCollection(providerSubscriptionId: string): Promise<void>;
  cancelAtPeriodEnd(providerSubscriptionId: string): Promise<void>;
  /** Takes back a cancellation at the period's end: the provider bills the next period as before. */
  withdrawCancellation(providerSubscriptionId: string): Promise<void>;
  cancelNow(providerSubscriptionId: string): Promise<void>;
  /**
   * Tries an unpaid invoice again; `attempt` keeps each retry one operation at the provider. 'paid'
   * also when nothing is owed any more (paid or voided meanwhile).
   */
  retryInvoice(invoiceId: string, attempt: number): Promise<'paid' | 'failed'>;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Card memberships; null when members pay each cycle's order by hand. */
  readonly subscriptions: SubscriptionBilling | null;
  /** Starts a payment for an order about to be stored; null when the buyer pays some other way (manual). */
  startPayment(request: PaymentRequest): Promise<StartedPayment | null>;
  /** Checks a notification from the provider (raw body and signature header) and says what it means. */
  readNotification(rawBody: Buffer, signature: string | undefined): Promise<PaymentNotification>;
  /** Gives a paid order's money back in full; safe to call twice for one order. */
  refund(order: { id: string; paymentIntentId: string | null }): Promise<void>;
  /** Closes a payment page the buyer has not paid on yet (its order was cancelled); nothing when it is already finished. */
  closePayment(sessionId: string): Promise<void>;
}
