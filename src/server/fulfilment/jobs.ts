import { sql } from 'kysely';
import type { FulfilmentState, ShippingAddress } from '../../shared/constants';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { enqueueEmail } from '../email/queue';
import { backoffDelayMs, type ProcessorLog } from '../email/processor';
import { fulfilmentAttentionEmail } from '../email/templates/orders';
import { recordOrderEvent } from '../orders/transitions';
import { startPeriodicTask, type PeriodicTask } from '../periodic';
import { isoAddress } from './address';
import { PrintfulError } from './printful';
import { fileLinkSecret, signedFileUrl } from './print-files';
import type { FulfilmentItem, FulfilmentOrderRequest, ProviderOrder, RemoteFulfilment } from './provider';

// Sending paid orders to the print-on-demand provider (docs/adr/0035). A job (fulfilment_jobs, one
// per order) is queued by a trigger in the transaction that makes the order paid; this processor
// claims due jobs one at a time with a lease (FOR UPDATE SKIP LOCKED, as the email processor does),
// and no transaction stays open while the provider is asked. Never twice: before making an order
// the provider is asked for one with our order number, so a create that timed out after the
// provider made it, a retry, a second process or a process killed mid-send finds it instead.

export type FulfilmentSettings = Pick<Config, 'storeName' | 'storeEmail' | 'publicUrl' | 'emailMaxRetries'>;

export interface FulfilmentRunResult {
  sent: number;
  confirmed: number;
  waiting: number;
  held: number;
  failed: number;
}

/** How long a claim holds a job: longer than a request with its 429 waits may take. */
const DEFAULT_LEASE_MS = 2 * 60 * 1000;
/** How soon a draft whose costs Printful is still working out is looked at again. */
const DEFAULT_COSTS_WAIT_MS = 15_000;

const nowPlusMs = (ms: number) => sql<string>`now() + ${Math.round(ms)}::integer * interval '1 millisecond'`;

/** Where each state may be reached from: a state never moves back (a late notice changes nothing). */
export const FULFILMENT_ADVANCES_FROM: Record<FulfilmentState, readonly FulfilmentState[]> = {
  queued: [],
  draft: ['queued', 'needs_attention'],
  in_production: ['queued', 'draft', 'needs_attention'],
  shipped: ['queued', 'draft', 'in_production', 'needs_attention'],
  needs_attention: ['queued', 'draft', 'in_production', 'needs_attention'],
  cancelled: ['queued', 'draft', 'in_production', 'needs_attention'],
};

/** Moves the order's fulfilment state forward (only from the states that lead there); whether it moved. */
export async function advanceFulfilment(
  db: Db,
  orderId: string,
  to: FulfilmentState,
  values: { reason?: string | null; providerOrder?: ProviderOrder } = {},
): Promise<boolean> {
  const { providerOrder } = values;
  const moved = await db
    .updateTable('orders')
    .set({
      fulfilment_state: to,
      fulfilment_reason: to === 'needs_attention' ? (values.reason ?? null) : null,
      ...(providerOrder
        ? {
            provider_order_id: providerOrder.id,
            provider_order_url: providerOrder.dashboardUrl,
            fulfilment_cost: sql<string | null>`coalesce(${providerOrder.totalCost}::numeric, fulfilment_cost)`,
          }
        : {}),
      updated_at: sql<string>`now()`,
    })
    .where('id', '=', orderId)
    .where('fulfilment_state', 'in', FULFILMENT_ADVANCES_FROM[to])
    .returning('id')
    .executeTakeFirst();
  return moved !== undefined;
}

/** The order needs the admin: its state, the reason, a timeline entry and an email to the store, once per reason. */
export async function needsAttention(db: Db, settings: FulfilmentSettings, orderId: string, reason: string): Promise<void> {
  const current = await db
    .selectFrom('orders')
    .select(['order_number', 'fulfilment_state', 'fulfilment_reason'])
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (current.fulfilment_state === 'needs_attention' && current.fulfilment_reason === reason) return;
  if (!(await advanceFulfilment(db, orderId, 'needs_attention', { reason }))) return;
  await recordOrderEvent(db, orderId, 'printer_needs_attention');
  await enqueueEmail(db, fulfilmentAttentionEmail(settings, current.order_number, reason), settings.emailMaxRetries);
}

interface ClaimedJob {
  order_id: string;
  step: 'send' | 'confirm';
  attempts: number;
}

async function claimNextJob(db: Db, leaseMs: number): Promise<ClaimedJob | undefined> {
  return db
    .updateTable('fulfilment_jobs')
    .set({ locked_until: nowPlusMs(leaseMs) })
    .where('order_id', 'in', (eb) =>
      eb
        .selectFrom('fulfilment_jobs')
        .select('order_id')
        .where('status', '=', 'pending')
        .where('run_after', '<=', sql<string>`now()`)
        .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', sql<string>`now()`)]))
        .orderBy('run_after')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['order_id', 'step', 'attempts'])
    .executeTakeFirst();
}

type StepOutcome =
  | { kind: 'sent' | 'confirmed' }
  /** Nothing wrong: look again later (costs still being worked out). */
  | { kind: 'waiting'; note: string }
  /** Waits for the admin: a review before printing, or a reason they must fix. */
  | { kind: 'held'; reason: string | null }
  /** Nothing to do any more (cancelled, refunded, or taken further already). */
  | { kind: 'done' }
  | { kind: 'failed'; error: string };

export interface FulfilmentRunOptions {
  batchSize?: number;
  leaseMs?: number;
  costsWaitMs?: number;
  signal?: AbortSignal;
}

/** Runs up to `batchSize` due jobs, one claim at a time. */
export async function processFulfilmentJobs(
  db: Db,
  remote: RemoteFulfilment,
  settings: FulfilmentSettings,
  options: FulfilmentRunOptions = {},
): Promise<FulfilmentRunResult> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const result: FulfilmentRunResult = { sent: 0, confirmed: 0, waiting: 0, held: 0, failed: 0 };
  for (let count = 0; count < (options.batchSize ?? 10) && !options.signal?.aborted; count++) {
    const job = await claimNextJob(db, leaseMs);
    if (!job) break;
    let outcome: StepOutcome;
    try {
      outcome = job.step === 'send' ? await sendStep(db, remote, settings, job.order_id) : await confirmStep(db, remote, job.order_id);
    } catch (error) {
      if (error instanceof PrintfulError && !error.retryable) {
        // Printful refused the order itself (a bad address, say): the admin must look at it.
        outcome = { kind: 'held', reason: error.message };
      } else {
        outcome = { kind: 'failed', error: error instanceof Error ? error.message : String(error) };
      }
    }
    await recordOutcome(db, settings, job, outcome, options.costsWaitMs ?? DEFAULT_COSTS_WAIT_MS);
    if (outcome.kind === 'sent') result.sent++;
    else if (outcome.kind === 'confirmed') result.confirmed++;
    else if (outcome.kind === 'waiting') result.waiting++;
    else if (outcome.kind === 'held') result.held++;
    else if (outcome.kind === 'failed') result.failed++;
  }
  return result;
}

async function recordOutcome(db: Db, settings: FulfilmentSettings, job: ClaimedJob, outcome: StepOutcome, costsWaitMs: number) {
  await db.transaction().execute(async (trx) => {
    const base = { locked_until: null, updated_at: sql<string>`now()` };
    const update = trx.updateTable('fulfilment_jobs').where('order_id', '=', job.order_id);
    switch (outcome.kind) {
      case 'sent': {
        const { fulfilment_mode: mode } = await trx.selectFrom('store_settings').select('fulfilment_mode').executeTakeFirstOrThrow();
        // Automatic: confirmed next (once costs are known); with review, the admin's Confirm for printing does it.
        await update
          .set({
            ...base,
            step: 'confirm',
            status: mode === 'automatic' ? 'pending' : 'held',
            attempts: 0,
            last_error: null,
            run_after: sql<string>`now()`,
          })
          .execute();
        return;
      }
      case 'confirmed':
      case 'done':
        await update.set({ ...base, status: 'done', last_error: null }).execute();
        return;
      case 'waiting':
        await update.set({ ...base, run_after: nowPlusMs(costsWaitMs), last_error: outcome.note }).execute();
        return;
      case 'held':
        await update.set({ ...base, status: 'held', last_error: outcome.reason }).execute();
        if (outcome.reason) await needsAttention(trx, settings, job.order_id, outcome.reason);
        return;
      case 'failed':
        await update
          .set({ ...base, attempts: job.attempts + 1, run_after: nowPlusMs(backoffDelayMs(job.attempts + 1)), last_error: outcome.error })
          .execute();
        return;
    }
  });
}

async function sendStep(db: Db, remote: RemoteFulfilment, settings: FulfilmentSettings, orderId: string): Promise<StepOutcome> {
  const order = await db
    .selectFrom('orders')
    .leftJoin('customers', 'customers.id', 'orders.customer_id')
    .select([
      'orders.order_number',
      'orders.status',
      'orders.payment_status',
      'orders.provider_order_id',
      'orders.shipping_address',
      sql<string | null>`coalesce(customers.email, orders.guest_email)`.as('email'),
    ])
    .where('orders.id', '=', orderId)
    .executeTakeFirstOrThrow();
  if (order.status === 'cancelled' || order.payment_status !== 'paid') return { kind: 'done' };

  let providerOrder = order.provider_order_id ? await remote.getOrder(order.provider_order_id) : await remote.findOrder(order.order_number);
  if (!providerOrder) {
    const request = await orderRequest(db, settings, orderId, order);
    if (!request.ok) return { kind: 'held', reason: request.reason };
    providerOrder = await remote.createDraft(request.value);
  }
  const made = providerOrder;
  await db.transaction().execute(async (trx) => {
    if (await advanceFulfilment(trx, orderId, 'draft', { providerOrder: made })) await recordOrderEvent(trx, orderId, 'sent_to_printer');
  });
  return { kind: 'sent' };
}

type Built<T> = { ok: true; value: T } | { ok: false; reason: string };

async function orderRequest(
  db: Db,
  settings: FulfilmentSettings,
  orderId: string,
  order: { order_number: string; shipping_address: ShippingAddress; email: string | null },
): Promise<Built<FulfilmentOrderRequest>> {
  const lines = await db
    .selectFrom('order_items')
    .leftJoin('product_variants', 'product_variants.id', 'order_items.variant_id')
    .select([
      'order_items.id',
      'order_items.product_name',
      'order_items.colour_name',
      'order_items.size',
      'order_items.quantity',
      'order_items.unit_price',
      'order_items.front_print_url',
      'order_items.back_print_url',
      'product_variants.printful_variant_id',
    ])
    .where('order_items.order_id', '=', orderId)
    .orderBy('order_items.created_at')
    .orderBy('order_items.id')
    .execute();
  const label = (line: (typeof lines)[number]) => `${line.product_name} (${[line.colour_name, line.size].filter(Boolean).join(', ')})`;
  // Never in part: one line Printful cannot print holds the whole order.
  const unmapped = lines.filter((line) => line.printful_variant_id === null);
  if (lines.length === 0) return { ok: false, reason: 'The order has no lines to print' };
  if (unmapped.length > 0) return { ok: false, reason: `Not mapped to a Printful variant: ${unmapped.map(label).join('; ')}` };
  const withoutArt = lines.filter((line) => !line.front_print_url && !line.back_print_url);
  if (withoutArt.length > 0) return { ok: false, reason: `No print file: ${withoutArt.map(label).join('; ')}` };
  const address = isoAddress(order.shipping_address);
  if (!address.ok) return { ok: false, reason: address.reason };

  const secret = await fileLinkSecret(db);
  const placements = (line: (typeof lines)[number]) =>
    (['front', 'back'] as const).flatMap((placement) => {
      const stored = placement === 'front' ? line.front_print_url : line.back_print_url;
      const fileUrl = stored && (signedFileUrl(settings.publicUrl, secret, stored) ?? stored);
      return fileUrl ? [{ placement, fileUrl }] : [];
    });
  const items: FulfilmentItem[] = lines.map((line) => ({
    externalId: line.id,
    catalogVariantId: line.printful_variant_id!,
    quantity: line.quantity,
    retailPrice: line.unit_price,
    name: label(line),
    placements: placements(line),
  }));
  const { fulfilment_shipping: shippingMethod } = await db
    .selectFrom('store_settings')
    .select('fulfilment_shipping')
    .executeTakeFirstOrThrow();
  const ship = order.shipping_address;
  return {
    ok: true,
    value: {
      externalId: order.order_number,
      recipient: {
        name: ship.name ?? '',
        address1: ship.street,
        city: ship.city,
        stateCode: address.stateCode,
        countryCode: address.countryCode,
        zip: ship.zip,
        email: order.email,
        phone: ship.phone ?? null,
      },
      items,
      shippingMethod,
      currency: 'USD',
    },
  };
}

async function confirmStep(db: Db, remote: RemoteFulfilment, orderId: string): Promise<StepOutcome> {
  const order = await db
    .selectFrom('orders')
    .select(['status', 'payment_status', 'provider_order_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  if (order.status === 'cancelled' || order.payment_status !== 'paid') return { kind: 'done' };
  if (!order.provider_order_id) return { kind: 'failed', error: 'No draft at Printful to confirm' };
  let providerOrder = await remote.getOrder(order.provider_order_id);
  if (providerOrder.status === 'draft') {
    // Printful works costs out after the draft is made: confirming before would charge an unknown sum.
    if (providerOrder.totalCost === null) return { kind: 'waiting', note: 'Waiting for Printful to work out the costs' };
    providerOrder = await remote.confirm(order.provider_order_id);
  }
  const confirmed = providerOrder;
  await db.transaction().execute(async (trx) => {
    if (await advanceFulfilment(trx, orderId, 'in_production', { providerOrder: confirmed }))
      await recordOrderEvent(trx, orderId, 'confirmed_for_printing');
  });
  return { kind: 'confirmed' };
}

export type FulfilmentProcessor = PeriodicTask<FulfilmentRunResult>;

/** Runs due jobs every `intervalMs` (the email processor's interval); runs never overlap, errors are logged. */
export function startFulfilmentProcessor(deps: {
  db: Db;
  remote: RemoteFulfilment;
  config: FulfilmentSettings & Pick<Config, 'emailPollIntervalMs'>;
  log: ProcessorLog;
}): FulfilmentProcessor {
  const { db, remote, config, log } = deps;
  return startPeriodicTask({
    intervalMs: config.emailPollIntervalMs,
    run: (signal) => processFulfilmentJobs(db, remote, config, { signal }),
    onResult: (result) => {
      if (Object.values(result).some((count) => count > 0)) log.info(result, 'fulfilment jobs processed');
    },
    onError: (error) => log.error({ err: error }, 'fulfilment jobs failed'),
  });
}
