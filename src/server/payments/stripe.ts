import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { BillingInterval } from '../../shared/constants';
import { isUuid } from '../../shared/ids';
import {
  InvalidNotificationError,
  type BillingEvent,
  type PaymentProvider,
  type PaymentRequest,
  type SubscriptionBilling,
} from './provider';

// Stripe Checkout through the official SDK. Every call carries an idempotency key made from the
// order id (and, for a Checkout Session, what it charges), so a retried submission or refund is
// one operation at Stripe. Webhooks are verified on the raw body with the endpoint's signing secret.

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (a local test server); unset is Stripe itself. */
  apiUrl: string | undefined;
}

/**
 * The SDK's client, loaded when first used: a store that takes payments by hand never loads the
 * SDK, and one that takes cards does not wait for it at start-up (it is a fifth of a second).
 */
function lazyClient(settings: StripeSettings): () => Promise<Stripe> {
  let client: Promise<Stripe> | undefined;
  return () => (client ??= import('stripe').then(({ default: Sdk }) => clientFor(Sdk, settings)));
}

function clientFor(Sdk: typeof Stripe, settings: StripeSettings): Stripe {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  return new Sdk(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

function lineItems(request: PaymentRequest): Stripe.Checkout.SessionCreateParams.LineItem[] {
  const item = (name: string, unitCents: number, quantity = 1) => ({
    quantity,
    price_data: { currency: 'usd', unit_amount: unitCents, product_data: { name } },
  });
  const line = ({ name, variant, quantity, unitCents, discountCents }: PaymentRequest['lines'][number]) => {
    if (discountCents === 0) return item(`${name} (${variant})`, unitCents, quantity);
    // Discounted: per unit when the discount divides evenly, else the line as one item, so Stripe charges the order's cents exactly.
    const totalCents = unitCents * quantity - discountCents;
    return totalCents % quantity === 0
      ? item(`${name} (${variant}), discounted`, totalCents / quantity, quantity)
      : item(`${name} (${variant}) × ${quantity}, discounted`, totalCents);
  };
  return [
    ...request.lines.filter((l) => l.unitCents * l.quantity > l.discountCents).map(line),
    ...(request.shippingCents > 0 ? [item('Shipping', request.shippingCents)] : []),
    ...(request.taxCents > 0 ? [item('Tax', request.taxCents)] : []),
  ];
}

const RECURRING: Record<BillingInterval, { interval: 'month' | 'year'; interval_count: number }> = {
  monthly: { interval: 'month', interval_count: 1 },
  quarterly: { interval: 'month', interval_count: 3 },
  yearly: { interval: 'year', interval_count: 1 },
};

/** A Unix timestamp as the calendar day (UTC) it falls on. */
const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
/** The start (midnight UTC) of a calendar day as a Unix timestamp. */
const startOf = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);

/** Our subscription and Stripe's behind an invoice of a membership; null for an invoice of something else. */
function membershipOf(invoice: Stripe.Invoice): { subscriptionId: string | null; providerSubscriptionId: string } | null {
  const details = invoice.parent?.subscription_details;
  if (!details) return null;
  return { subscriptionId: ourId(details.metadata?.subscription_id), providerSubscriptionId: idOf(details.subscription) ?? '' };
}

/**
 * Our id as a Stripe object carries it, or null when it is not one of ours: anything else on the
 * account (a Payment Link takes client_reference_id from its URL) may send any text there.
 */
const ourId = (value: string | null | undefined): string | null => (isUuid(value) ? value : null);

/**
 * The order a Checkout Session pays for, from the metadata only this server writes (startPayment):
 * never client_reference_id, which a Payment Link's buyer can set to any order's id.
 */
const orderIdOf = (session: Stripe.Checkout.Session): string | null => ourId(session.metadata?.order_id);

/**
 * Whether a Stripe subscription (`current`: as it stands) ends: now, on a set day (cancelled at the
 * period's end, by us or in Stripe's dashboard), or not; `subscription` (as an event carried it)
 * names the membership.
 */
function endingOf(subscription: Stripe.Subscription, current: Stripe.Subscription): BillingEvent {
  const ids = { subscriptionId: ourId(subscription.metadata.subscription_id), providerSubscriptionId: subscription.id };
  if (current.status === 'canceled') return { kind: 'subscription_ended', ...ids };
  if (current.cancel_at) return { kind: 'cancel_scheduled', ...ids, cancelsOn: dayOf(current.cancel_at) };
  return { kind: 'cancel_withdrawn', ...ids };
}

/** What an event of Stripe Billing means for a membership; null when it is about no membership. */
function billingEventOf(event: Stripe.Event): BillingEvent | null {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const subscriptionId = ourId(session.metadata?.subscription_id);
      if (session.mode !== 'subscription' || !subscriptionId) return null;
      return {
        kind: 'checkout_completed',
        subscriptionId,
        providerSubscriptionId: idOf(session.subscription),
        providerCustomerId: idOf(session.customer),
      };
    }
    case 'checkout.session.expired': {
      const session = event.data.object;
      const subscriptionId = ourId(session.metadata?.subscription_id);
      if (session.mode !== 'subscription' || !subscriptionId) return null;
      return { kind: 'checkout_expired', subscriptionId, sessionId: session.id };
    }
    case 'invoice.paid': {
      const invoice = event.data.object;
      const membership = membershipOf(invoice);
      const period = invoice.lines.data[0]?.period;
      if (!membership || !period) return null;
      const payment = invoice.payments?.data.find((entry) => entry.status === 'paid') ?? invoice.payments?.data[0];
      return {
        kind: 'invoice_paid',
        ...membership,
        invoiceId: invoice.id ?? '',
        periodStart: dayOf(period.start),
        periodEnd: dayOf(period.end),
        paymentIntentId: idOf(payment?.payment.payment_intent),
      };
    }
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const membership = membershipOf(invoice);
      if (!membership) return null;
      return { kind: 'invoice_failed', ...membership, invoiceId: invoice.id ?? '', payUrl: invoice.hosted_invoice_url ?? null };
    }
    case 'customer.subscription.deleted':
      return endingOf(event.data.object, event.data.object);
    default:
      return null;
  }
}

/** Whether `error` is the SDK's error of this type (StripeCardError, StripeInvalidRequestError...). */
const isStripeError = (error: unknown, type: string): error is { type: string; code?: string } =>
  typeof error === 'object' && error !== null && 'type' in error && error.type === type;

/** Whether Stripe answered that the object asked for does not exist (404 resource_missing). */
const isMissingAtStripe = (error: unknown) => isStripeError(error, 'StripeInvalidRequestError') && error.code === 'resource_missing';

/**
 * A subscription as Stripe has it now. One Stripe no longer has (its test data deleted, say) is
 * taken as the event carried it: refusing the event would only have Stripe send it again for days.
 */
async function currentSubscription(stripe: Stripe, subscription: Stripe.Subscription): Promise<Stripe.Subscription> {
  try {
    return await stripe.subscriptions.retrieve(subscription.id);
  } catch (error) {
    if (isMissingAtStripe(error)) return subscription;
    throw error;
  }
}

/** What became of a Checkout Session; one Stripe does not have (made under other keys, say) is closed. */
async function sessionState(stripe: Stripe, sessionId: string): Promise<'open' | 'paid' | 'closed'> {
  try {
    const { status } = await stripe.checkout.sessions.retrieve(sessionId);
    return status === 'open' ? 'open' : status === 'complete' ? 'paid' : 'closed';
  } catch (error) {
    if (isMissingAtStripe(error)) return 'closed';
    throw error;
  }
}

/**
 * Expires a Checkout Session unless it is finished already (paid or expired): nothing is left to
 * close then. Says whether it ended closed or paid on, which it may have been a moment before.
 */
async function expireSession(stripe: Stripe, sessionId: string): Promise<'paid' | 'closed'> {
  const before = await sessionState(stripe, sessionId);
  if (before !== 'open') return before;
  try {
    await stripe.checkout.sessions.expire(sessionId);
    return 'closed';
  } catch (error) {
    // Paid (or expired) between the two calls.
    const after = await sessionState(stripe, sessionId);
    if (after === 'open') throw error;
    return after;
  }
}

function billingOf(client: () => Promise<Stripe>): SubscriptionBilling {
  return {
    async checkoutState(sessionId) {
      return sessionState(await client(), sessionId);
    },

    async closeCheckout(sessionId) {
      return expireSession(await client(), sessionId);
    },

    async createRecurringPrice(request) {
      const stripe = await client();
      const cents = request.unitCents;
      const productId =
        request.productId ??
        (
          await stripe.products.create(
            { name: request.planName, metadata: { plan_id: request.planId } },
            { idempotencyKey: `plan-product-${request.planId}` },
          )
        ).id;
      const price = await stripe.prices.create(
        {
          product: productId,
          currency: 'usd',
          unit_amount: cents,
          recurring: RECURRING[request.interval],
          metadata: { plan_id: request.planId },
        },
        { idempotencyKey: `plan-price-${request.planId}-${request.interval}-${cents}` },
      );
      return { productId, priceId: price.id };
    },

    async startSubscription(request) {
      const stripe = await client();
      const metadata = { subscription_id: request.subscriptionId };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          client_reference_id: request.subscriptionId,
          customer_email: request.customerEmail,
          line_items: [{ price: request.priceId, quantity: 1 }],
          metadata,
          // Every invoice of the membership carries our id, so each renewal finds its member.
          subscription_data: { metadata },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `subscription-checkout-${request.subscriptionId}-${request.priceId}-${request.replacesSessionId ?? 'first'}` },
      );
      if (!session.url) throw new Error(`Stripe gave checkout session ${session.id} no URL`);
      return { sessionId: session.id, url: session.url };
    },

    async pauseCollection(id, resumesOn) {
      const stripe = await client();
      await stripe.subscriptions.update(id, {
        pause_collection: { behavior: 'void', ...(resumesOn ? { resumes_at: startOf(resumesOn) } : {}) },
      });
    },

    async resumeCollection(id) {
      const stripe = await client();
      await stripe.subscriptions.update(id, { pause_collection: '' });
    },

    async cancelAtPeriodEnd(id) {
      const stripe = await client();
      await stripe.subscriptions.update(id, { cancel_at_period_end: true });
    },

    async withdrawCancellation(id) {
      const stripe = await client();
      await stripe.subscriptions.update(id, { cancel_at_period_end: false });
    },

    async cancelNow(id) {
      const stripe = await client();
      try {
        await stripe.subscriptions.cancel(id);
      } catch (error) {
        // Cancelled at Stripe already (by its own retry rules, or a request whose answer was lost).
        if (isMissingAtStripe(error)) return;
        throw error;
      }
    },

    async retryInvoice(invoiceId, attempt) {
      const stripe = await client();
      // Paid meanwhile (the member used the link) or voided in Stripe's dashboard: nothing is owed,
      // and Stripe would refuse to take it again.
      const settled = async () => ['paid', 'void'].includes((await stripe.invoices.retrieve(invoiceId)).status ?? '');
      if (await settled()) return 'paid';
      try {
        const invoice = await stripe.invoices.pay(invoiceId, {}, { idempotencyKey: `invoice-retry-${invoiceId}-${attempt}` });
        return invoice.status === 'paid' ? 'paid' : 'failed';
      } catch (error) {
        if (isStripeError(error, 'StripeCardError')) return 'failed';
        // Not payable as things stand (the customer has no card left, say): a failed attempt too,
        // counted, or dunning would ask again every pass and never end. Unless it was paid or
        // voided just now.
        if (isStripeError(error, 'StripeInvalidRequestError')) return (await settled()) ? 'paid' : 'failed';
        throw error;
      }
    },
  };
}

/** How far a signature's time may be from ours, either way: the SDK's default tolerance (5 minutes). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** When a Stripe-Signature header says it was signed, in seconds: its last `t=`, the one the SDK checks the signature with. */
function signedAt(header: string): number {
  const times = header.split(',').filter((part) => part.startsWith('t='));
  return times.length > 0 ? Number.parseInt(times.at(-1)!.slice(2), 10) : Number.NaN;
}

export function createStripePayments(settings: StripeSettings): PaymentProvider {
  const client = lazyClient(settings);

  /** The order a refunded charge belongs to: its own metadata, else its payment's. */
  async function orderOfCharge(charge: Stripe.Charge): Promise<string | null> {
    if (charge.metadata.order_id) return ourId(charge.metadata.order_id);
    const paymentIntentId = idOf(charge.payment_intent);
    if (!paymentIntentId) return null;
    const stripe = await client();
    return ourId((await stripe.paymentIntents.retrieve(paymentIntentId)).metadata.order_id);
  }

  return {
    name: 'stripe',
    subscriptions: billingOf(client),

    async startPayment(request) {
      const stripe = await client();
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: 'payment',
        client_reference_id: request.orderId,
        customer_email: request.customerEmail,
        line_items: lineItems(request),
        metadata: { order_id: request.orderId },
        payment_intent_data: { metadata: { order_id: request.orderId } },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      };
      // A submission tried again after its prices changed ("Prices changed", fixed by going on with
      // the same cart) asks for other amounts under the same order id: Stripe refuses a key it saw
      // with other parameters, so the key names what is charged too.
      const charged = createHash('sha256').update(JSON.stringify(params.line_items)).digest('hex').slice(0, 16);
      const session = await stripe.checkout.sessions.create(params, { idempotencyKey: `checkout-session-${request.orderId}-${charged}` });
      if (!session.url) throw new Error(`Stripe gave checkout session ${session.id} no URL`);
      return { sessionId: session.id, url: session.url };
    },

    async readNotification(rawBody, signature) {
      const stripe = await client();
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature ?? '', settings.webhookSecret);
      } catch (error) {
        throw new InvalidNotificationError(error instanceof Error ? error.message : 'Invalid signature');
      }
      // The SDK refuses signatures older than its tolerance only; one dated ahead of it would stay
      // good for as long as it is dated ahead, replayable all that time.
      if (signedAt(signature ?? '') > Date.now() / 1000 + SIGNATURE_TOLERANCE_SECONDS) {
        throw new InvalidNotificationError('Timestamp in the future');
      }
      const base = { eventId: event.id, type: event.type };
      // Updates arrive in any order (one made before our own cancellation can come after it): the
      // subscription as it stands now decides, not as it was when the event was made.
      const billing =
        event.type === 'customer.subscription.updated'
          ? endingOf(event.data.object, await currentSubscription(stripe, event.data.object))
          : billingEventOf(event);
      if (billing?.kind === 'invoice_paid' && !billing.paymentIntentId) {
        // Stripe leaves an invoice's payments out of its events unless asked: read them, so the
        // cycle's order records the payment an admin may later refund.
        const payments = await stripe.invoicePayments.list({ invoice: billing.invoiceId, status: 'paid', limit: 1 });
        billing.paymentIntentId = idOf(payments.data[0]?.payment.payment_intent);
      }
      if (billing) return { ...base, effect: 'membership', orderId: null, billing };
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const session = event.data.object;
          const orderId = orderIdOf(session);
          if (!orderId) return { ...base, effect: 'none', orderId: null };
          // A bank debit completes the session before the money arrives: paid comes later.
          if (session.payment_status === 'unpaid') return { ...base, effect: 'none', orderId };
          return { ...base, effect: 'paid', orderId, paymentPageId: session.id, paymentIntentId: idOf(session.payment_intent) };
        }
        case 'checkout.session.async_payment_failed':
        case 'checkout.session.expired': {
          const session = event.data.object;
          const orderId = orderIdOf(session);
          // A membership's Checkout changes no order: its expiry is a billing notice (above), and a
          // first payment that fails is the member's to retry on the same page.
          if (!orderId || session.mode === 'subscription') return { ...base, effect: 'none', orderId: null };
          const effect = event.type === 'checkout.session.expired' ? 'expired' : 'payment_failed';
          return { ...base, effect, orderId, paymentPageId: session.id };
        }
        case 'charge.refunded': {
          const charge = event.data.object;
          const paymentIntentId = idOf(charge.payment_intent);
          // Only a full refund refunds the order; a partial one is the admin's business at Stripe.
          if (!charge.refunded || !paymentIntentId) return { ...base, effect: 'none', orderId: null };
          return { ...base, effect: 'refunded', orderId: await orderOfCharge(charge), paymentIntentId };
        }
        default:
          return { ...base, effect: 'none', orderId: null };
      }
    },

    async refund(order) {
      if (!order.paymentIntentId) throw new Error(`Order ${order.id} has no Stripe payment to refund`);
      const stripe = await client();
      await stripe.refunds.create({ payment_intent: order.paymentIntentId }, { idempotencyKey: `refund-${order.id}` });
    },

    async closePayment(sessionId) {
      // A payment made a moment before is refunded when its notice comes (refundCancelledOrder).
      await expireSession(await client(), sessionId);
    },
  };
}
