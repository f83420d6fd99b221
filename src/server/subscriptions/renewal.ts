import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { DB, SubscriptionsTable } from '../db/schema';
import type { ProcessorLog } from '../email/processor';
import { enqueueEmail } from '../email/queue';
import { cycleOrderWithoutShirtEmail } from '../email/templates/subscriptions';
import { snapshotPrintFiles } from '../fulfilment/print-files';
import { recordOrderEvent, sendOrderConfirmation, type MailSettings } from '../orders/transitions';
import type { SubscriptionBilling } from '../payments/provider';
import { startPeriodicTask, type PeriodicTask } from '../periodic';
import { pickCycleShirt } from './curation';
import { addCycles, today, type Clock } from './dates';
import { endMembership, reactivateNextPaidUp, remindNextUnpaidOrder, retryNextUnpaidInvoice } from './dunning';
import { claimSubscription } from './queries';

// The renewal engine: every due subscription goes through its cycle once. Each cycle is one
// transaction that claims the subscription with FOR UPDATE SKIP LOCKED, so processes running the
// engine side by side never take the same one, and a process killed half-way leaves the cycle
// as it was (it is done by the next pass). A cycle makes exactly one order, guarded by the
// (subscription, cycle start) key of subscription_cycles.
//
// Card subscriptions renew when Stripe says an invoice was paid; the engine renews the ones paid by
// hand. The same pass chases what is unpaid (dunning.ts) in the same one-row-at-a-time way.

export type DunningSettings = Pick<Config, 'subscriptionPaymentRetries' | 'subscriptionRetryDays'>;

export interface RenewalServices {
  db: Db;
  mail: MailSettings;
  clock: Clock;
  log: Pick<RenewalLog, 'warn' | 'error'>;
  /** Card memberships' billing (Stripe); null when every member pays by hand. */
  billing: SubscriptionBilling | null;
  dunning: DunningSettings;
}

interface RenewalLog extends ProcessorLog {
  warn(obj: unknown, msg?: string): void;
}

type Subscription = Selectable<SubscriptionsTable>;

/**
 * Where a pass left things: cycles ordered or skipped, memberships that resumed or ended, unpaid
 * cycle orders reminded of, members put on hold or back to active once paid, card invoices tried
 * again, card memberships ended unpaid, and steps that failed.
 */
export interface RenewalResult {
  ordered: number;
  skipped: number;
  resumed: number;
  ended: number;
  reminded: number;
  reactivated: number;
  retried: number;
  endedUnpaid: number;
  failed: number;
}

export type Step = Exclude<keyof RenewalResult, 'failed'>;

/**
 * Claims one subscription's next piece of work (row locked, skipping locked ones) and does it; null
 * when none is left. Given the store's database, not a transaction: `inOneTransaction` makes one.
 */
export type ClaimStep = (
  services: RenewalServices,
  skip: readonly string[],
  onClaim: (subscriptionId: string) => void,
) => Promise<Step | null>;

/** A step done in one transaction: a failure undoes all of it. */
const inOneTransaction =
  (step: ClaimStep): ClaimStep =>
  (services, skip, onClaim) =>
    services.db.transaction().execute((trx) => step({ ...services, db: trx }, skip, onClaim));

// Retrying an invoice calls Stripe, which no transaction waits on (dunning.ts).
const STEPS: readonly ClaimStep[] = [
  inOneTransaction(renewNextDue),
  inOneTransaction(remindNextUnpaidOrder),
  inOneTransaction(reactivateNextPaidUp),
  retryNextUnpaidInvoice,
];

const FIRST_RETRY_MS = 60_000;
const LONGEST_WAIT_MS = 60 * 60_000;

/**
 * Subscriptions whose step failed, each left alone for a while before it is tried again: a minute
 * after the first failure, twice as long after each further one in a row, an hour at most. A step
 * that keeps failing (a Stripe that is down, data the step cannot handle) is then logged, and its
 * call made, once an hour instead of on every pass. One per engine, kept across its passes.
 */
export class FailedStepBackoff {
  private readonly failures = new Map<string, { inARow: number; retryAt: number }>();

  /** The subscriptions to leave alone at `now`. One not failing for a long while is forgotten. */
  waiting(now: Date): string[] {
    const waiting: string[] = [];
    for (const [id, { retryAt }] of this.failures) {
      if (retryAt > now.getTime()) waiting.push(id);
      else if (retryAt + LONGEST_WAIT_MS < now.getTime()) this.failures.delete(id);
    }
    return waiting;
  }

  /** Records a failure; returns when the subscription is tried again. */
  failed(id: string, now: Date): Date {
    const inARow = (this.failures.get(id)?.inARow ?? 0) + 1;
    const retryAt = now.getTime() + Math.min(FIRST_RETRY_MS * 2 ** (inARow - 1), LONGEST_WAIT_MS);
    this.failures.set(id, { inARow, retryAt });
    return new Date(retryAt);
  }

  succeeded(id: string): void {
    this.failures.delete(id);
  }
}

/** The most steps of one kind a pass takes; the rest wait for the next pass. */
const MAX_STEPS_PER_KIND = 500;

/**
 * One pass: every subscription due by the clock's today, including cycles missed while the store
 * was down, then what is unpaid. A step that fails is rolled back, logged and left for a later
 * pass (after `backoff`'s wait, or the next one without it); the others go on. Once `signal` is
 * aborted (shutdown) the pass ends after the step in hand.
 */
export async function renewDueSubscriptions(
  services: RenewalServices,
  { signal, backoff }: { signal?: AbortSignal; backoff?: FailedStepBackoff } = {},
): Promise<RenewalResult> {
  const result: RenewalResult = {
    ordered: 0,
    skipped: 0,
    resumed: 0,
    ended: 0,
    reminded: 0,
    reactivated: 0,
    retried: 0,
    endedUnpaid: 0,
    failed: 0,
  };
  const waiting = backoff?.waiting(services.clock.now()) ?? [];
  for (const claimStep of STEPS) {
    const failed: string[] = [];
    for (let steps = 0; steps < MAX_STEPS_PER_KIND; steps++) {
      if (signal?.aborted) return result;
      let claimed: string | undefined;
      try {
        const step = await claimStep(services, [...waiting, ...failed], (id) => {
          claimed = id;
        });
        if (!step) break;
        if (claimed) backoff?.succeeded(claimed);
        result[step]++;
      } catch (error) {
        if (!claimed) throw error;
        const retryAt = backoff?.failed(claimed, services.clock.now());
        services.log.error({ err: error, subscriptionId: claimed, retryAt }, 'subscription step failed; it is tried again later');
        failed.push(claimed);
        result.failed++;
      }
    }
  }
  return result;
}

/** The memberships the engine has a step for on `day` (the metrics count them too). */
export const dueForRenewal = (eb: ExpressionBuilder<DB, 'subscriptions'>, day: string) =>
  eb.or([
    // Card members' cycles follow their paid invoices; their pauses end here all the same, and
    // so does a skipped cycle, which Stripe does not bill (no invoice moves them past it).
    eb.and([eb('payment_provider', '=', 'manual'), eb('status', '=', 'active'), eb('next_cycle_on', '<=', day)]),
    eb.and([eb('status', '=', 'active'), eb('skip_next', '=', true), eb('next_cycle_on', '<=', day)]),
    eb.and([eb('status', '=', 'paused'), eb('paused_until', '<=', day)]),
    // Cancelled for the period's end, then put on hold for an unpaid cycle before that day.
    eb.and([eb('status', '=', 'past_due'), eb('cancel_at', '<=', day)]),
  ]);

async function renewNextDue(services: RenewalServices, skip: readonly string[], onClaim: (id: string) => void): Promise<Step | null> {
  const { db } = services;
  const day = today(services.clock);
  const due = await claimSubscription(db, skip, onClaim, (query) =>
    query
      .where((eb) => dueForRenewal(eb, day))
      .orderBy('next_cycle_on')
      .orderBy('id'),
  );
  if (!due) return null;
  if (due.status === 'past_due') {
    // The member heard when they cancelled; the unpaid cycle is forgotten with the membership.
    await endMembership(db, due.id, day, services.clock.now());
    return 'ended';
  }
  if (due.status === 'paused') {
    // A pause for some cycles ends on its day; the cycle of that day, if due, is the next step.
    await db
      .updateTable('subscriptions')
      .set({ status: 'active', paused_until: null, updated_at: new Date() })
      .where('id', '=', due.id)
      .execute();
    return 'resumed';
  }
  return runCycle(services, due);
}

export async function runCycle(services: RenewalServices, subscription: Subscription): Promise<Step> {
  const { db } = services;
  const cycleStart = subscription.next_cycle_on;
  if (subscription.cancel_at !== null && cycleStart >= subscription.cancel_at) {
    await db
      .updateTable('subscriptions')
      .set({ status: 'cancelled', cancelled_at: services.clock.now(), updated_at: new Date() })
      .where('id', '=', subscription.id)
      .execute();
    return 'ended';
  }

  const outcome = subscription.skip_next ? 'skipped' : 'ordered';
  if (outcome === 'skipped') await recordCycle(db, subscription.id, cycleStart, 'skipped');
  else
    await orderCycle(services, subscription, cycleStart, { paid: false, idempotencyKey: `subscription:${subscription.id}:${cycleStart}` });
  await db
    .updateTable('subscriptions')
    .set({
      next_cycle_on: addCycles(cycleStart, subscription.billing_interval, 1, subscription.anchor_day),
      skip_next: false,
      updated_at: new Date(),
    })
    .where('id', '=', subscription.id)
    .execute();
  return outcome;
}

/**
 * Records a cycle once; false when it was recorded before (the cycle is done), unless it was
 * recorded as skipped and `overSkipped` (paid after all) makes it ordered.
 */
export async function recordCycle(
  db: Db,
  subscriptionId: string,
  cycleStart: string,
  outcome: 'ordered' | 'skipped',
  { overSkipped = false }: { overSkipped?: boolean } = {},
): Promise<boolean> {
  const cycle = await db
    .insertInto('subscription_cycles')
    .values({ subscription_id: subscriptionId, cycle_start: cycleStart, outcome })
    .onConflict((oc) => {
      const columns = oc.columns(['subscription_id', 'cycle_start']);
      return overSkipped ? columns.doUpdateSet({ outcome }).where('subscription_cycles.outcome', '=', 'skipped') : columns.doNothing();
    })
    .returning('cycle_start')
    .executeTakeFirst();
  return cycle !== undefined;
}

export interface CyclePayment {
  /** Paid already (a card invoice) or to be paid by hand. */
  paid: boolean;
  /** One order per cycle payment: the cycle (by hand) or the invoice (card). */
  idempotencyKey: string;
  paymentIntentId?: string | null;
}

/** Makes a cycle's order, once per cycle: nothing when the cycle was recorded before. */
type OrderServices = Pick<RenewalServices, 'db' | 'mail' | 'log'>;

export async function orderCycle(
  services: OrderServices,
  subscription: Subscription,
  cycleStart: string,
  payment: CyclePayment,
): Promise<void> {
  const { db } = services;
  // Paid, the cycle ships even when it was recorded as skipped: Stripe still charges an invoice it
  // made before collection was paused for the skip.
  if (!(await recordCycle(db, subscription.id, cycleStart, 'ordered', { overSkipped: payment.paid }))) return;
  const orderId = await placeCycleOrder(services, subscription, cycleStart, payment);
  await db
    .updateTable('subscription_cycles')
    .set({ order_id: orderId })
    .where('subscription_id', '=', subscription.id)
    .where('cycle_start', '=', cycleStart)
    .execute();
}

/** The cycle's order: the member's price (shipping included), one curated shirt in their size and colours. */
async function placeCycleOrder(
  { db, mail, log }: OrderServices,
  subscription: Subscription,
  cycleStart: string,
  payment: CyclePayment,
): Promise<string> {
  const plan = await db.selectFrom('subscription_plans').select('name').where('id', '=', subscription.plan_id).executeTakeFirstOrThrow();
  const shirt = await pickCycleShirt(db, subscription);
  const order = await db
    .insertInto('orders')
    .values({
      customer_id: subscription.customer_id,
      subscription_id: subscription.id,
      payment_provider: subscription.payment_provider,
      idempotency_key: payment.idempotencyKey,
      subtotal: subscription.price,
      shipping_cost: '0.00',
      tax: '0.00',
      total: subscription.price,
      shipping_address: JSON.stringify(subscription.shipping_address),
      notes: `${plan.name}: shipment of ${cycleStart}`,
      ...(payment.paid ? { payment_status: 'paid' as const, paid_at: new Date(), payment_intent_id: payment.paymentIntentId ?? null } : {}),
    })
    .returning(['id', 'order_number'])
    .executeTakeFirstOrThrow();
  if (shirt) {
    await db
      .insertInto('order_items')
      .values({
        order_id: order.id,
        product_id: shirt.id,
        product_name: shirt.name,
        product_image: shirt.image_url,
        size: subscription.size,
        variant_id: shirt.variant_id,
        variant_sku: shirt.variant_sku,
        colour_name: shirt.colour_name,
        colour_hex: shirt.colour_hex,
        quantity: 1,
        unit_price: subscription.price,
        total_price: subscription.price,
      })
      .execute();
    await snapshotPrintFiles(db, order.id);
  } else {
    // Paid for all the same: the store is told, and decides (a shirt sent by hand, or a refund).
    log.warn({ subscriptionId: subscription.id, orderId: order.id }, "no shirt left in the member's size and colours");
    const notice = {
      orderNumber: order.order_number,
      planName: plan.name,
      size: subscription.size,
      colourChoice: subscription.colour_choice,
      paid: payment.paid,
    };
    await enqueueEmail(db, cycleOrderWithoutShirtEmail(mail, notice), mail.emailMaxRetries);
  }
  await recordOrderEvent(db, order.id, 'placed');
  if (payment.paid) await recordOrderEvent(db, order.id, 'paid');
  await sendOrderConfirmation(db, mail, order.id, payment.paid);
  return order.id;
}

/** Runs the engine every SUBSCRIPTION_RENEW_INTERVAL_MS beside the email processor. */
export function startSubscriptionRenewals(
  services: Omit<RenewalServices, 'log'> & { log: RenewalLog },
  intervalMs: number,
): PeriodicTask<RenewalResult> {
  const backoff = new FailedStepBackoff();
  return startPeriodicTask({
    intervalMs,
    run: (signal) => renewDueSubscriptions(services, { signal, backoff }),
    onResult: (result) => {
      if (Object.values(result).some((count) => count > 0)) services.log.info(result, 'subscriptions renewed');
    },
    onError: (error) => services.log.error({ err: error }, 'subscription renewal failed'),
  });
}
