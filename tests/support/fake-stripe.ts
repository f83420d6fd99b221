import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

// A local stand-in for the part of Stripe's API the store calls (Checkout Sessions and their expiry, Payment
// Intents, Refunds; for memberships Products, Prices, Subscriptions and Invoices), started by a
// test on 127.0.0.1, with Stripe's idempotency rules: a repeated
// idempotency key answers the first response, and the same key with other parameters is refused.
// Webhook payloads are signed with the SDK's own test helper, so the store checks real signatures.

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
}

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment' | 'subscription';
  /** The recurring Price of a membership's Checkout. */
  price: string | null;
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  amount_total: number;
  customer_email: string | null;
  line_items: { name: string; unitAmount: number; quantity: number }[];
}

/** Stripe's form encoding (line_items[0][price_data][unit_amount]=2499) back into nested values. */
function decodeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter(Boolean);
    let node = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

export interface FakeStripe {
  url: string;
  requests: RecordedRequest[];
  sessions: Map<string, FakeSession>;
  /** Prices made, by id: what the store asked for. */
  prices: Map<string, { product: string; unit_amount: number; interval: string; interval_count: number }>;
  /** Subscriptions cancelled through the API. */
  cancelled: Set<string>;
  /**
   * Subscriptions set to end at their period's end, by id: the last day, as the API (30 days on)
   * or, when a test sets it, Stripe's dashboard set it. GET /v1/subscriptions/:id answers with it.
   */
  cancelAt: Map<string, string>;
  /** Subscriptions Stripe no longer has (its test data deleted, say): GET /v1/subscriptions/:id answers 404. */
  removed: Set<string>;
  /**
   * What paying an invoice again answers: paid, declined (Stripe's card error, 402), or refused
   * because the customer has no card left (an invalid request, 400).
   */
  invoicePayments: 'paid' | 'declined' | 'no_payment_method';
  /** The PaymentIntent that paid an invoice, by invoice id, as GET /v1/invoice_payments lists it. */
  paidInvoices: Map<string, string>;
  /** An invoice's status as GET /v1/invoices/:id answers it: open unless set, or paid through the API. */
  invoiceStatus: Map<string, 'open' | 'paid' | 'void'>;
  /** Makes the next session creation fail with Stripe's error shape (400). */
  failNextSession(): void;
  /** Runs on a session just before an expiry of it is answered: a payment made in that moment, say. */
  beforeExpiry: ((session: FakeSession) => void) | null;
  /** Keeps the next request unanswered until `release`, as a slow Stripe would; `arrived` settles when it comes in. */
  holdNextRequest(): { arrived: Promise<void>; release: () => void };
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const prices: FakeStripe['prices'] = new Map();
  const cancelled = new Set<string>();
  const cancelAt = new Map<string, string>();
  const removed = new Set<string>();
  const paidInvoices = new Map<string, string>();
  const invoiceStatus: FakeStripe['invoiceStatus'] = new Map();
  let invoicePayments: FakeStripe['invoicePayments'] = 'paid';
  let beforeExpiry: FakeStripe['beforeExpiry'] = null;
  const idempotent = new Map<string, { params: string; response: unknown }>();
  let failNext = false;
  let held: { arrive: () => void; released: Promise<void> } | null = null;

  const create = (kind: string, body: Record<string, unknown>): unknown => {
    if (kind === 'product') return { id: id('prod'), object: 'product', name: body.name };
    if (kind === 'price') {
      const recurring = body.recurring as { interval: string; interval_count: string };
      const price = {
        product: body.product as string,
        unit_amount: Number(body.unit_amount),
        interval: recurring.interval,
        interval_count: Number(recurring.interval_count),
      };
      const priceId = id('price');
      prices.set(priceId, price);
      return { id: priceId, object: 'price', ...price };
    }
    if (kind === 'checkout_session') {
      const lineItems = Object.values(
        (body.line_items ?? {}) as Record<
          string,
          { quantity: string; price?: string; price_data?: { unit_amount: string; product_data: { name: string } } }
        >,
      ).map((item) =>
        item.price_data
          ? { name: item.price_data.product_data.name, unitAmount: Number(item.price_data.unit_amount), quantity: Number(item.quantity) }
          : { name: item.price ?? '', unitAmount: prices.get(item.price ?? '')?.unit_amount ?? 0, quantity: Number(item.quantity) },
      );
      const mode = body.mode === 'subscription' ? 'subscription' : 'payment';
      const session: FakeSession = {
        id: id('cs'),
        object: 'checkout.session',
        mode,
        price: mode === 'subscription' ? (lineItems[0]?.name ?? null) : null,
        url: '',
        status: 'open',
        payment_status: 'unpaid',
        client_reference_id: (body.client_reference_id as string | undefined) ?? null,
        metadata: (body.metadata ?? {}) as Record<string, string>,
        payment_intent: null,
        customer_email: (body.customer_email as string | undefined) ?? null,
        line_items: lineItems,
        amount_total: lineItems.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0),
      };
      session.url = `https://checkout.stripe.test/c/pay/${session.id}`;
      sessions.set(session.id, session);
      return session;
    }
    return { id: id('re'), object: 'refund', status: 'succeeded', payment_intent: body.payment_intent };
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const hold = held;
      held = null;
      if (!hold) return answer();
      hold.arrive();
      void hold.released.then(answer);
    });
    const answer = () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const idempotencyKey = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
      const body = decodeForm(raw);
      requests.push({ method: req.method ?? '', path, idempotencyKey, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(payload));
      };
      const creates: Record<string, string> = {
        '/v1/checkout/sessions': 'checkout_session',
        '/v1/refunds': 'refund',
        '/v1/products': 'product',
        '/v1/prices': 'price',
      };
      const kind = req.method === 'POST' ? (creates[path] ?? null) : null;
      if (kind === 'checkout_session' && failNext) {
        failNext = false;
        return send(400, { error: { type: 'invalid_request_error', message: 'The card network is down (fake)' } });
      }
      if (kind) {
        const seen = idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
        if (seen && seen.params !== raw) {
          return send(400, {
            error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters' },
          });
        }
        const response = seen?.response ?? create(kind, body);
        if (idempotencyKey) idempotent.set(idempotencyKey, { params: raw, response });
        return send(200, response);
      }
      const checkoutSession = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
      const known = checkoutSession ? sessions.get(checkoutSession[1]!) : undefined;
      if (checkoutSession && !known) {
        return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout.session' } });
      }
      if (known && req.method === 'GET' && !checkoutSession?.[2]) return send(200, known);
      if (known && req.method === 'POST' && checkoutSession?.[2]) {
        beforeExpiry?.(known);
        if (known.status !== 'open') {
          return send(400, {
            error: {
              type: 'invalid_request_error',
              message: `Only Checkout Sessions with a status of open can be expired (it is ${known.status})`,
            },
          });
        }
        known.status = 'expired';
        return send(200, known);
      }
      const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && intent) {
        const session = [...sessions.values()].find((s) => s.payment_intent === intent[1]);
        return send(200, { id: intent[1], object: 'payment_intent', metadata: session?.metadata ?? {} });
      }
      const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
      if (subscription) {
        const subscriptionId = subscription[1]!;
        const current = () => {
          const endsOn = cancelAt.get(subscriptionId);
          return {
            id: subscriptionId,
            object: 'subscription',
            status: cancelled.has(subscriptionId) ? 'canceled' : 'active',
            cancel_at_period_end: endsOn !== undefined,
            cancel_at: endsOn === undefined ? null : unix(endsOn),
          };
        };
        const missing = { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } };
        if (removed.has(subscriptionId)) return send(404, missing);
        if (req.method === 'GET') return send(200, current());
        if (cancelled.has(subscriptionId)) return send(404, missing);
        if (req.method === 'DELETE') cancelled.add(subscriptionId);
        if (body.cancel_at_period_end === 'true')
          cancelAt.set(subscriptionId, new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
        if (body.cancel_at_period_end === 'false') cancelAt.delete(subscriptionId);
        return send(200, { ...current(), ...body });
      }
      if (req.method === 'GET' && path === '/v1/invoice_payments') {
        const query = new URL(req.url ?? '', 'http://stripe.test').searchParams;
        const invoice = query.get('invoice') ?? '';
        const paymentIntent = query.get('status') === 'paid' ? paidInvoices.get(invoice) : undefined;
        const data = paymentIntent
          ? [{ object: 'invoice_payment', invoice, status: 'paid', payment: { type: 'payment_intent', payment_intent: paymentIntent } }]
          : [];
        return send(200, { object: 'list', data, has_more: false, url: '/v1/invoice_payments' });
      }
      const invoice = /^\/v1\/invoices\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && invoice)
        return send(200, { id: invoice[1], object: 'invoice', status: invoiceStatus.get(invoice[1]!) ?? 'open' });
      const pay = /^\/v1\/invoices\/([^/]+)\/pay$/.exec(path);
      if (req.method === 'POST' && pay) {
        if ((invoiceStatus.get(pay[1]!) ?? 'open') !== 'open') {
          return send(400, { error: { type: 'invalid_request_error', message: 'Invoice is already paid or void' } });
        }
        if (invoicePayments === 'declined') {
          return send(402, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } });
        }
        if (invoicePayments === 'no_payment_method') {
          const message = 'This customer has no attached payment source or default payment method.';
          return send(400, { error: { type: 'invalid_request_error', message } });
        }
        invoiceStatus.set(pay[1]!, 'paid');
        return send(200, { id: pay[1], object: 'invoice', status: 'paid' });
      }
      send(404, { error: { type: 'invalid_request_error', message: `No such route: ${req.method} ${path}` } });
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    prices,
    cancelled,
    cancelAt,
    removed,
    paidInvoices,
    invoiceStatus,
    // Accessors, so a test's setting reaches the server through sharedBeforeAll's copy.
    get invoicePayments() {
      return invoicePayments;
    },
    set invoicePayments(outcome) {
      invoicePayments = outcome;
    },
    get beforeExpiry() {
      return beforeExpiry;
    },
    set beforeExpiry(hook) {
      beforeExpiry = hook;
    },
    failNextSession: () => {
      failNext = true;
    },
    holdNextRequest: () => {
      let arrive = () => {};
      let release = () => {};
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      held = { arrive, released: new Promise<void>((resolve) => (release = resolve)) };
      return { arrived, release };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const signer = new Stripe('sk_test_signer');

/** A webhook delivery as Stripe sends it: the JSON body and its Stripe-Signature header, signed now or at `signedAt` (seconds). */
export function signedEvent(
  secret: string,
  type: string,
  object: object,
  eventId = id('evt'),
  signedAt?: number,
): { body: string; signature: string; id: string } {
  const body = JSON.stringify({
    id: eventId,
    object: 'event',
    type,
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  return {
    body,
    signature: signer.webhooks.generateTestHeaderString({
      payload: body,
      secret,
      ...(signedAt === undefined ? {} : { timestamp: signedAt }),
    }),
    id: eventId,
  };
}

/** The session as Stripe reports it once the buyer paid (a card: paid at once). */
export function paidSession(session: FakeSession, paymentIntent = id('pi')): FakeSession {
  session.status = 'complete';
  session.payment_status = 'paid';
  session.payment_intent = paymentIntent;
  return { ...session };
}

/** A fully refunded charge of a payment intent. */
export function refundedCharge(paymentIntent: string, amount: number) {
  return { id: id('ch'), object: 'charge', payment_intent: paymentIntent, amount, amount_refunded: amount, refunded: true, metadata: {} };
}

/** The session of a membership's Checkout once the first invoice is paid, with Stripe's customer and subscription. */
export function completedSubscriptionSession(session: FakeSession, subscription = id('sub')) {
  session.status = 'complete';
  session.payment_status = 'paid';
  return { ...session, subscription, customer: id('cus') };
}

const unix = (day: string) => Math.floor(Date.parse(`${day}T10:00:00Z`) / 1000);

/**
 * A membership's invoice as the invoice.* events carry it: our id in the subscription's metadata.
 * With `payments: false` it has no payments list, as Stripe sends it unless asked to include one.
 */
export function membershipInvoice(options: {
  subscriptionId: string;
  stripeSubscription: string;
  periodStart: string;
  periodEnd: string;
  invoiceId?: string;
  paid?: boolean;
  attemptCount?: number;
  payments?: false;
}) {
  const invoiceId = options.invoiceId ?? id('in');
  return {
    id: invoiceId,
    object: 'invoice',
    status: options.paid === false ? 'open' : 'paid',
    attempt_count: options.attemptCount ?? 1,
    hosted_invoice_url: `https://invoice.stripe.test/i/${invoiceId}`,
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: options.stripeSubscription, metadata: { subscription_id: options.subscriptionId } },
    },
    lines: {
      object: 'list',
      data: [{ id: id('il'), object: 'line_item', period: { start: unix(options.periodStart), end: unix(options.periodEnd) } }],
    },
    ...(options.payments === false
      ? {}
      : {
          payments: {
            object: 'list',
            data: options.paid === false ? [] : [{ status: 'paid', payment: { type: 'payment_intent', payment_intent: id('pi') } }],
          },
        }),
  };
}

/** A Stripe subscription in a customer.subscription.* event; `cancelsOn` when set to end at its period's end. */
export function stripeSubscription(stripeId: string, subscriptionId: string, status: 'active' | 'canceled', cancelsOn?: string) {
  return {
    id: stripeId,
    object: 'subscription',
    status,
    metadata: { subscription_id: subscriptionId },
    cancel_at_period_end: cancelsOn !== undefined,
    cancel_at: cancelsOn === undefined ? null : unix(cancelsOn),
  };
}
