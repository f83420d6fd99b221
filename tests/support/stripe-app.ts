import { sharedTestApp } from './app';
import { signedEvent, startFakeStripe } from './fake-stripe';
import { sharedBeforeAll } from './hooks';

const WEBHOOK_SECRET = 'whsec_test_threadline';

/**
 * For a test file that pays by card: the local Stripe (started once), a test app configured to use
 * it, `event` to sign a webhook event as Stripe does, and `deliver` to post one to the app.
 */
export function sharedStripeApp() {
  const stripe = sharedBeforeAll(startFakeStripe, (server) => server.close());
  const t = sharedTestApp(() => ({
    STRIPE_SECRET_KEY: 'sk_test_threadline',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
  }));
  const event = (type: string, object: object, eventId?: string, signedAt?: number) =>
    signedEvent(WEBHOOK_SECRET, type, object, eventId, signedAt);
  const deliver = async (signed: { body: string; signature: string }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
      payload: signed.body,
    });
    return { status: res.statusCode, body: res.json<{ outcome?: string; error?: string }>() };
  };
  return { stripe, t, event, deliver };
}
