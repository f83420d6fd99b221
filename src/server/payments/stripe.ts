import Stripe from 'stripe';
import { InvalidNotificationError, type PaymentProvider, type PaymentRequest } from './provider';

// Stripe Checkout through the official SDK. Every call carries an idempotency key made from the
// order id, so a retried submission or refund is one operation at Stripe. Webhooks are verified
// on the raw body with the endpoint's signing secret.

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (a local test server); unset is Stripe itself. */
  apiUrl: string | undefined;
}

function clientFor(settings: StripeSettings): Stripe {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  return new Stripe(settings.secretKey, {
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
  return [
    ...request.lines.map((line) => item(`${line.name} (${line.size})`, line.unitCents, line.quantity)),
    ...(request.shippingCents > 0 ? [item('Shipping', request.shippingCents)] : []),
    ...(request.taxCents > 0 ? [item('Tax', request.taxCents)] : []),
  ];
}

export function createStripePayments(settings: StripeSettings): PaymentProvider {
  const stripe = clientFor(settings);

  /** The order a refunded charge belongs to: its own metadata, else its payment's. */
  async function orderOfCharge(charge: Stripe.Charge): Promise<string | null> {
    if (charge.metadata.order_id) return charge.metadata.order_id;
    const paymentIntentId = idOf(charge.payment_intent);
    if (!paymentIntentId) return null;
    return (await stripe.paymentIntents.retrieve(paymentIntentId)).metadata.order_id ?? null;
  }

  return {
    name: 'stripe',

    async startPayment(request) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: request.orderId,
          customer_email: request.customerEmail,
          line_items: lineItems(request),
          metadata: { order_id: request.orderId },
          payment_intent_data: { metadata: { order_id: request.orderId } },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `checkout-session-${request.orderId}` },
      );
      if (!session.url) throw new Error(`Stripe gave checkout session ${session.id} no URL`);
      return { sessionId: session.id, url: session.url };
    },

    async readNotification(rawBody, signature) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature ?? '', settings.webhookSecret);
      } catch (error) {
        throw new InvalidNotificationError(error instanceof Error ? error.message : 'Invalid signature');
      }
      const base = { eventId: event.id, type: event.type };
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const session = event.data.object;
          const orderId = session.client_reference_id ?? session.metadata?.order_id ?? null;
          if (!orderId) return { ...base, effect: 'none', orderId: null };
          // A bank debit completes the session before the money arrives: paid comes later.
          if (session.payment_status === 'unpaid') return { ...base, effect: 'none', orderId };
          return { ...base, effect: 'paid', orderId, paymentIntentId: idOf(session.payment_intent) };
        }
        case 'checkout.session.async_payment_failed':
        case 'checkout.session.expired': {
          const session = event.data.object;
          const orderId = session.client_reference_id ?? session.metadata?.order_id ?? null;
          if (!orderId) return { ...base, effect: 'none', orderId: null };
          return { ...base, effect: event.type === 'checkout.session.expired' ? 'expired' : 'payment_failed', orderId };
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
      await stripe.refunds.create({ payment_intent: order.paymentIntentId }, { idempotencyKey: `refund-${order.id}` });
    },
  };
}
