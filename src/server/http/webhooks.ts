import type { FastifyPluginCallback } from 'fastify';
import type { Counter } from 'prom-client';
import type { Db } from '../db/database';
import { applyPaymentNotification, refundCancelledOrder } from '../orders/notifications';
import type { MailSettings } from '../orders/transitions';
import type { Clock } from '../subscriptions/dates';
import { applyFulfilmentNotice } from '../fulfilment/notices';
import { InvalidFulfilmentNoticeError, type FulfilmentProvider } from '../fulfilment/provider';
import { InvalidNotificationError, type PaymentProvider } from '../payments/provider';

// POST /webhooks/stripe: the payment provider's notifications. The signature is checked on the raw
// body, so this route (alone) keeps the body as bytes. A bad signature is refused with 400 and
// changes nothing; anything verified is acknowledged with 200, also when it was seen before or
// names an order this store does not have, so the provider stops resending it.

export interface WebhookRouteOptions {
  db: Db;
  mail: MailSettings;
  payments: PaymentProvider;
  fulfilment: FulfilmentProvider;
  /** Dates of memberships that a notice changes. */
  clock: Clock;
  /** Counts each delivery by outcome (the metrics' webhook figures). */
  deliveries: Pick<Counter<'provider' | 'outcome'>, 'inc'>;
}

export const webhookRoutes: FastifyPluginCallback<WebhookRouteOptions> = (
  app,
  { db, mail, payments, fulfilment, clock, deliveries },
  done,
) => {
  // In this plugin only: every body stays as the bytes that were signed.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));

  app.post('/webhooks/stripe', async (req, reply) => {
    if (payments.name !== 'stripe') return reply.code(404).send({ error: 'Not found' });
    const signature = req.headers['stripe-signature'];
    const counted = (outcome: 'accepted' | 'refused' | 'failed') => deliveries.inc({ provider: payments.name, outcome });
    let notification;
    try {
      notification = await payments.readNotification(req.body as Buffer, typeof signature === 'string' ? signature : undefined);
    } catch (error) {
      if (error instanceof InvalidNotificationError) {
        counted('refused');
        return reply.code(400).send({ error: 'Invalid signature' });
      }
      counted('failed');
      throw error;
    }
    try {
      const outcome = await applyPaymentNotification({ db, mail, clock, log: req.log }, payments, notification);
      if (outcome === 'paid_after_cancel' && notification.orderId)
        await refundCancelledOrder({ db, mail, log: req.log }, payments, notification.orderId);
      counted('accepted');
      return { received: true, outcome };
    } catch (error) {
      // Answered 500: the provider sends it again later.
      counted('failed');
      throw error;
    }
  });
  // POST /webhooks/printful: the print-on-demand provider's notices, signed with the webhook secret
  // (x-pf-webhook-signature, the hex HMAC-SHA256 of the raw body). Anything unsigned or wrongly
  // signed is refused with 401 and logged; anything verified is answered 200, also when repeated.
  app.post('/webhooks/printful', async (req, reply) => {
    const remote = fulfilment.remote;
    if (!remote) return reply.code(404).send({ error: 'Not found' });
    const signature = req.headers['x-pf-webhook-signature'];
    const counted = (outcome: 'accepted' | 'refused' | 'failed') => deliveries.inc({ provider: fulfilment.name, outcome });
    let notice;
    try {
      notice = remote.readNotice(req.body as Buffer, typeof signature === 'string' ? signature : undefined);
    } catch (error) {
      if (error instanceof InvalidFulfilmentNoticeError) {
        counted('refused');
        req.log.warn({ ip: req.ip, signed: typeof signature === 'string' }, 'Printful webhook refused: bad signature');
        return reply.code(401).send({ error: 'Invalid signature' });
      }
      throw error;
    }
    try {
      const outcome = await applyFulfilmentNotice(db, mail, notice);
      counted('accepted');
      return { received: true, outcome };
    } catch (error) {
      counted('failed');
      throw error;
    }
  });
  done();
};
