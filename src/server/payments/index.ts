import type { Config } from '../config';
import { manualPayments } from './manual';
import type { PaymentProvider } from './provider';
import { createStripePayments } from './stripe';

/** Stripe when its keys are configured, otherwise payment by hand. */
export function createPaymentProvider(config: Pick<Config, 'stripe'>): PaymentProvider {
  return config.stripe ? createStripePayments(config.stripe) : manualPayments;
}
