import { TRPCError } from '@trpc/server';
import { sql, type Selectable, type Updateable } from 'kysely';
import type { z } from 'zod';
import {
  ALREADY_MEMBER,
  CHOOSE_A_CATEGORY,
  JOIN_PAID,
  PLAN_CHANGED,
  PLAN_UNAVAILABLE,
  SUBSCRIPTION_NOT_FOUND,
  noShirtsInSize,
  tooManyCategories,
  UNKNOWN_CATEGORY,
  type cancelInput,
  type changeChoicesInput,
  type joinInput,
  type pauseInput,
} from '../../shared/schemas/subscriptions';
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import type { SubscriptionsTable } from '../db/schema';
import type { MembershipChange } from '../email/templates/subscriptions';
import { ensureCustomerRow, shippingAddressOf } from '../orders/recipient';
import { fieldError } from '../trpc/errors';
import type { SubscriptionBilling } from '../payments/provider';
import { planPriceId } from './billing';
import { clearedUnpaid } from './dunning';
import { addCycles, addDays, dayOfMonth, today } from './dates';
import { notifyMember } from './notify';
import { anyShirtFor, type ShirtChoices } from './curation';
import { nextOpenCycle } from './cycles';
import { recordCycle, runCycle, type RenewalServices } from './renewal';

// What a member does with their membership: join a plan (its first cycle is made at once), change
// size, colours or categories, skip, pause, resume, cancel at the end of the paid period, and keep it after
// all before that day. Each change is checked and made with the member's row locked, and sends a
// short email.

type Subscription = Selectable<SubscriptionsTable>;
type Member = { id: string; email: string };

/** The categories a member of a plan receives: none chosen (all) when the plan has no limit. */
async function checkedCategories(db: Db, limit: number, ids: readonly string[]): Promise<string[]> {
  if (limit === 0) return [];
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw fieldError('BAD_REQUEST', 'categoryIds', CHOOSE_A_CATEGORY);
  if (unique.length > limit) throw fieldError('BAD_REQUEST', 'categoryIds', tooManyCategories(limit));
  // Held until the membership is stored: a category delete waits, then takes it out of the choices.
  const found = await db.selectFrom('categories').select('id').where('id', 'in', unique).where('is_active', '=', true).forShare().execute();
  if (found.length !== unique.length) throw fieldError('BAD_REQUEST', 'categoryIds', UNKNOWN_CATEGORY);
  return unique;
}

async function assertShirtsFor(db: Db, choices: ShirtChoices): Promise<void> {
  if (!(await anyShirtFor(db, choices))) throw fieldError('BAD_REQUEST', 'size', noShirtsInSize(choices.size, choices.colour_choice));
}

/** Those of `ids` that are no longer active categories of the store. */
async function inactiveCategories(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const active = await db.selectFrom('categories').select('id').where('id', 'in', ids).where('is_active', '=', true).execute();
  const activeIds = new Set(active.map((row) => row.id));
  return ids.filter((id) => !activeIds.has(id));
}

/** The member's choices, checked: the plan (active), its category limit, the size and address. */
async function checkedJoin(db: Db, input: z.output<typeof joinInput>) {
  const plan = await db
    .selectFrom('subscription_plans')
    .selectAll()
    .where('slug', '=', input.planSlug)
    .where('is_active', '=', true)
    // Held until the membership is stored: a delete under way finishes first (the plan is then
    // unavailable), and one after it finds the member and refuses.
    .forShare()
    .executeTakeFirst();
  if (!plan) throw new TRPCError({ code: 'NOT_FOUND', message: PLAN_UNAVAILABLE });
  const shown = input.expectedTerms;
  if (shown && (shown.price !== plan.price || shown.billingInterval !== plan.billing_interval)) {
    throw new TRPCError({ code: 'CONFLICT', message: PLAN_CHANGED });
  }
  const categoryIds = await checkedCategories(db, plan.category_limit, input.categoryIds);
  await assertShirtsFor(db, { size: input.size, colour_choice: input.colourChoice, category_ids: categoryIds });
  return {
    plan,
    choices: {
      size: input.size,
      colour_choice: input.colourChoice,
      category_ids: categoryIds,
      shipping_address: JSON.stringify(shippingAddressOf(input.shipping)),
    },
  };
}

/** The payment page of the member's membership of a plan that waits for its first payment. */
async function waitingPageOf(db: Db, member: Member, planSlug: string): Promise<string | null> {
  const row = await db
    .selectFrom('subscriptions')
    .innerJoin('subscription_plans', 'subscription_plans.id', 'subscriptions.plan_id')
    .select('subscriptions.checkout_session_id')
    .where('subscriptions.customer_id', '=', member.id)
    .where('subscription_plans.slug', '=', planSlug)
    .where('subscriptions.status', '=', 'incomplete')
    .executeTakeFirst();
  return row?.checkout_session_id ?? null;
}

export interface JoinResult {
  id: string;
  /** By card: Stripe Checkout, where the member pays the first cycle. */
  redirectUrl: string | null;
}

/**
 * Joins a plan. Paid by hand: the membership starts now with its first cycle's order. By card: it
 * waits (incomplete) while the member pays in Stripe Checkout; trying again reuses that row.
 */
export async function joinPlan(
  services: RenewalServices,
  member: Member,
  input: z.output<typeof joinInput>,
  publicUrl: string,
): Promise<JoinResult> {
  const { billing } = services;
  if (!billing) return joinPayingByHand(services, member, input);

  // Paid on the page this membership waits on, its notice not come yet (late, or lost): no second
  // page to pay on again. Stripe is asked before the join's transaction, which must not wait on it.
  const waitingPage = await waitingPageOf(services.db, member, input.planSlug);
  const waitingPageState = waitingPage ? await billing.checkoutState(waitingPage) : null;
  if (waitingPageState === 'paid') throw new TRPCError({ code: 'CONFLICT', message: JOIN_PAID });

  // No transaction waits on Stripe: the row is stored first, the Price and Checkout come after.
  const { subscription, plan, openPage, replacesSessionId, previous } = await services.db.transaction().execute(async (trx) => {
    const { plan, choices } = await checkedJoin(trx, input);
    await ensureCustomerRow(trx, member);
    // Joins of one member to one plan (a double click) wait here for each other: the first stores
    // the waiting row, the rest reuse it. Locking rows would not do: there is none to lock yet.
    await sql`select pg_advisory_xact_lock(hashtextextended(${`join:${member.id}:${plan.id}`}, 0))`.execute(trx);
    const live = await trx
      .selectFrom('subscriptions')
      .select([
        'id',
        'status',
        'price',
        'billing_interval',
        'checkout_url',
        'checkout_session_id',
        'size',
        'colour_choice',
        'category_ids',
        'shipping_address',
        'anchor_day',
        'next_cycle_on',
      ])
      .where('customer_id', '=', member.id)
      .where('plan_id', '=', plan.id)
      .where('status', '<>', 'cancelled')
      .forUpdate()
      .executeTakeFirst();
    if (live && live.status !== 'incomplete') throw new TRPCError({ code: 'CONFLICT', message: ALREADY_MEMBER });
    const day = today(services.clock);
    const terms = {
      ...choices,
      price: plan.price,
      billing_interval: plan.billing_interval,
      anchor_day: dayOfMonth(day),
      next_cycle_on: day,
    };
    // Back from a payment page that is still open, on the same terms: that page again. A page made
    // for other terms is not offered again, even if this join fails before making the next one.
    const sameTerms = live?.price === plan.price && live.billing_interval === plan.billing_interval;
    const subscription = live
      ? await trx
          .updateTable('subscriptions')
          .set({ ...terms, ...(sameTerms ? {} : { checkout_url: null }), updated_at: new Date() })
          .where('id', '=', live.id)
          .returningAll()
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto('subscriptions')
          .values({ ...terms, customer_id: member.id, plan_id: plan.id, status: 'incomplete', payment_provider: 'stripe' })
          .returningAll()
          .executeTakeFirstOrThrow();
    const openPage = sameTerms ? (live.checkout_url ?? null) : null;
    return { subscription, plan, openPage, replacesSessionId: live?.checkout_session_id ?? null, previous: live };
  });
  if (replacesSessionId && previous) {
    // The page paid on was made for the terms the row had before this join: they stand.
    const refusePaid = async () => {
      const { size, colour_choice, category_ids, shipping_address, price, billing_interval, anchor_day, next_cycle_on, checkout_url } =
        previous;
      await services.db
        .updateTable('subscriptions')
        .set({
          size,
          colour_choice,
          category_ids,
          shipping_address: JSON.stringify(shipping_address),
          price,
          billing_interval,
          anchor_day,
          next_cycle_on,
          checkout_url,
          updated_at: new Date(),
        })
        .where('id', '=', subscription.id)
        .where('status', '=', 'incomplete')
        .execute();
      throw new TRPCError({ code: 'CONFLICT', message: JOIN_PAID });
    };
    // A page another join stored meanwhile (a second tab) is asked about too.
    const state = replacesSessionId === waitingPage ? waitingPageState : await billing.checkoutState(replacesSessionId);
    if (state === 'paid') return refusePaid();
    // Unless Stripe has closed it meanwhile (its notice may be late, or lost): then a new one.
    if (openPage && state === 'open') return { id: subscription.id, redirectUrl: openPage };
    // Any other page is closed first. Paid on later (it stays in the member's browser history), it
    // would start a Stripe subscription at terms this membership no longer has. Paid on as it was
    // being closed, it made the membership: a second page would charge the member twice.
    if (state === 'open' && (await billing.closeCheckout(replacesSessionId)) === 'paid') return refusePaid();
  }
  const priceId = await planPriceId(services.db, billing, plan);
  const checkout = await billing.startSubscription({
    subscriptionId: subscription.id,
    replacesSessionId,
    customerEmail: member.email,
    priceId,
    successUrl: `${publicUrl}/subscription?joined=${plan.slug}`,
    cancelUrl: `${publicUrl}/subscriptions/join/${plan.slug}`,
  });
  await services.db
    .updateTable('subscriptions')
    .set({ checkout_session_id: checkout.sessionId, checkout_url: checkout.url, updated_at: new Date() })
    .where('id', '=', subscription.id)
    .where('status', '=', 'incomplete')
    .execute();
  return { id: subscription.id, redirectUrl: checkout.url };
}

function joinPayingByHand(services: RenewalServices, member: Member, input: z.output<typeof joinInput>): Promise<JoinResult> {
  return services.db.transaction().execute(async (trx) => {
    const { plan, choices } = await checkedJoin(trx, input);
    const day = today(services.clock);
    await ensureCustomerRow(trx, member);
    let subscription: Subscription;
    try {
      subscription = await trx
        .insertInto('subscriptions')
        .values({
          ...choices,
          customer_id: member.id,
          plan_id: plan.id,
          price: plan.price,
          billing_interval: plan.billing_interval,
          anchor_day: dayOfMonth(day),
          next_cycle_on: day,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error)) throw new TRPCError({ code: 'CONFLICT', message: ALREADY_MEMBER });
      throw error;
    }
    await notifyMember(trx, services.mail, subscription.id, { kind: 'joined', firstShipment: day });
    // The first cycle starts today: its order (to be paid by hand) is made now.
    await runCycle({ ...services, db: trx }, subscription);
    return { id: subscription.id, redirectUrl: null };
  });
}

/** Locks the member's own subscription for a change; anyone else's is not found. */
async function lockOwn(db: Db, member: Member, id: string): Promise<Subscription> {
  const subscription = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', '=', id)
    .where('customer_id', '=', member.id)
    .where('status', '<>', 'incomplete')
    .forUpdate()
    .executeTakeFirst();
  if (!subscription) throw new TRPCError({ code: 'NOT_FOUND', message: SUBSCRIPTION_NOT_FOUND });
  return subscription;
}

const refuse = (message: string) => new TRPCError({ code: 'CONFLICT', message });

export type ChangeServices = Pick<RenewalServices, 'db' | 'mail' | 'clock' | 'billing'>;

/** What a member's change asks of Stripe, for a card membership. */
type StripeChange =
  | { kind: 'pause'; resumesOn: string | null }
  | { kind: 'resume' }
  | { kind: 'cancelAtPeriodEnd' }
  | { kind: 'withdrawCancellation' }
  | { kind: 'cancelNow' };

interface Change {
  set: Updateable<SubscriptionsTable>;
  email: MembershipChange;
  atStripe?: StripeChange;
  /** A cycle recorded as skipped with the change (its day), so no later step makes it. */
  skippedCycle?: string | null;
}

type PlannedChange = Change & { subscription: Subscription };

/** Stripe's part of a planned change: none for a membership paid by hand. */
const stripePart = ({ subscription, atStripe }: PlannedChange) =>
  subscription.payment_provider === 'stripe' ? JSON.stringify(atStripe ?? null) : 'null';

async function makeAtStripe(billing: SubscriptionBilling | null, { subscription, atStripe }: PlannedChange): Promise<void> {
  if (!atStripe || subscription.payment_provider !== 'stripe') return;
  const providerId = subscription.stripe_subscription_id;
  if (!billing || !providerId) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: CARD_BILLING_UNAVAILABLE });
  if (atStripe.kind === 'pause') await billing.pauseCollection(providerId, atStripe.resumesOn);
  else if (atStripe.kind === 'resume') await billing.resumeCollection(providerId);
  else if (atStripe.kind === 'cancelAtPeriodEnd') await billing.cancelAtPeriodEnd(providerId);
  else if (atStripe.kind === 'withdrawCancellation') await billing.withdrawCancellation(providerId);
  else await billing.cancelNow(providerId);
}

/** Tries of a card member's change whose membership keeps moving at Stripe before it is refused. */
const STRIPE_CHANGE_TRIES = 3;

/**
 * Runs one change of a member's own subscription and mails what changed. A card membership's
 * change is made at Stripe first, with no transaction open: on the embedded database a
 * transaction holds the only connection, so a slow Stripe would hold every request of the store.
 * A refusal there changes nothing here. The change is then checked again on the locked row: a
 * second click is refused as it would be in one transaction, and when a Stripe notice meanwhile
 * means Stripe should be told something else (a failed payment made a cancellation end at once,
 * say), Stripe is told that before anything is stored.
 */
async function changeOwn(
  { db, mail, billing }: ChangeServices,
  member: Member,
  id: string,
  change: (trx: Db, subscription: Subscription) => Promise<Change>,
) {
  const plan = (trx: Db, subscription: Subscription) => change(trx, subscription).then((planned) => ({ ...planned, subscription }));
  let planned = await db.transaction().execute(async (trx) => plan(trx, await lockOwn(trx, member, id)));
  for (let tries = 1; ; tries++) {
    await makeAtStripe(billing, planned);
    const madeAtStripe = planned;
    const outcome = await db.transaction().execute(async (trx) => {
      const now = await plan(trx, await lockOwn(trx, member, id));
      if (stripePart(now) !== stripePart(madeAtStripe)) return { replanned: now };
      const updated = await trx
        .updateTable('subscriptions')
        .set({ ...now.set, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (now.skippedCycle) await recordCycle(trx, id, now.skippedCycle, 'skipped');
      await notifyMember(trx, mail, updated.id, now.email);
      return { updated };
    });
    if ('updated' in outcome) return outcome.updated;
    if (tries === STRIPE_CHANGE_TRIES) throw refuse(SUBSCRIPTION_CHANGED_MEANWHILE);
    planned = outcome.replanned;
  }
}

const CARD_BILLING_UNAVAILABLE = 'Card payments are not available right now. Please try again later or contact us.';
const SUBSCRIPTION_CHANGED_MEANWHILE = 'Your subscription changed while this was being saved. Please reload the page and try again.';

const live = (subscription: Subscription) => subscription.status !== 'cancelled' && subscription.cancel_at === null;

export const changeChoices = (services: ChangeServices, member: Member, input: z.output<typeof changeChoicesInput>) =>
  changeOwn(services, member, input.id, async (trx, subscription) => {
    if (!live(subscription)) throw refuse('This subscription has ended');
    const plan = await trx
      .selectFrom('subscription_plans')
      .select('category_limit')
      .where('id', '=', subscription.plan_id)
      .executeTakeFirstOrThrow();
    // A category of theirs that has left the store since is dropped, not refused: the member cannot untick what is not listed.
    const gone = new Set(await inactiveCategories(trx, subscription.category_ids));
    const categoryIds = await checkedCategories(
      trx,
      plan.category_limit,
      input.categoryIds.filter((categoryId) => !gone.has(categoryId)),
    );
    const choices = { size: input.size, colour_choice: input.colourChoice, category_ids: categoryIds };
    await assertShirtsFor(trx, choices);
    return {
      set: choices,
      email: { kind: 'changed' },
    };
  });

export const skipNext = (services: ChangeServices, member: Member, id: string) =>
  changeOwn(services, member, id, (_trx, subscription) => {
    if (subscription.status !== 'active' || !live(subscription)) throw refuse('Only an active subscription can skip a shipment');
    if (subscription.skip_next) throw refuse('The next shipment is already skipped');
    const nextShipment = addCycles(subscription.next_cycle_on, subscription.billing_interval, 1, subscription.anchor_day);
    return Promise.resolve({
      set: { skip_next: true },
      email: { kind: 'skipped', skipped: subscription.next_cycle_on, nextShipment },
      // Stripe voids the invoice of the skipped cycle and charges again from the one after.
      atStripe: { kind: 'pause', resumesOn: addDays(subscription.next_cycle_on, 1) },
    });
  });

export const pause = (services: ChangeServices, member: Member, input: z.output<typeof pauseInput>) =>
  changeOwn(services, member, input.id, (_trx, subscription) => {
    if (subscription.status !== 'active' || !live(subscription)) throw refuse('Only an active subscription can be paused');
    const step = (from: string, cycles: number) => addCycles(from, subscription.billing_interval, cycles, subscription.anchor_day);
    // A shipment skipped already stays skipped, recorded so that resuming early does not bring it
    // back; the pause's shipments are the ones after it.
    const skippedCycle = subscription.skip_next ? subscription.next_cycle_on : null;
    const firstPaused = skippedCycle ? step(skippedCycle, 1) : subscription.next_cycle_on;
    // Paused for n cycles: the n shipments from the first paused one are not made; it resumes on the cycle after them.
    const resumesOn = input.cycles === null ? null : step(firstPaused, input.cycles);
    return Promise.resolve({
      set: { status: 'paused' as const, paused_until: resumesOn, next_cycle_on: resumesOn ?? firstPaused, skip_next: false },
      email: { kind: 'paused', resumesOn },
      atStripe: { kind: 'pause', resumesOn },
      skippedCycle,
    });
  });

/**
 * Resumed by the member: the next cycle is the first day of theirs that has not passed, earlier
 * than the pause's planned end when they come back early, never one they missed.
 */
export const resume = (services: ChangeServices, member: Member, id: string) =>
  changeOwn(services, member, id, async (trx, subscription) => {
    if (subscription.status !== 'paused') throw refuse('Only a paused subscription can be resumed');
    // A cycle already gone through (today's, say) is not made again.
    const day = today(services.clock);
    const next = await nextOpenCycle(trx, subscription, day);
    // A shipment skipped before the pause and still ahead stays skipped: Stripe charges from the one after it.
    const skippedAhead = await trx
      .selectFrom('subscription_cycles')
      .select('cycle_start')
      .where('subscription_id', '=', subscription.id)
      .where('outcome', '=', 'skipped')
      .where('cycle_start', '>=', day)
      .orderBy('cycle_start', 'desc')
      .executeTakeFirst();
    return {
      set: { status: 'active' as const, paused_until: null, next_cycle_on: next },
      email: { kind: 'resumed', nextShipment: next },
      atStripe: skippedAhead ? { kind: 'pause', resumesOn: addDays(skippedAhead.cycle_start, 1) } : { kind: 'resume' },
    };
  });

/** Ends the membership when the paid period ends: the start of the next cycle. */
export const cancelAtPeriodEnd = (services: ChangeServices, member: Member, input: z.output<typeof cancelInput>) =>
  changeOwn(services, member, input.id, (_trx, subscription) => {
    if (!live(subscription)) throw refuse('This subscription is already cancelled');
    const reason = input.reason === '' ? null : input.reason;
    if (subscription.status === 'paused' || subscription.status === 'past_due') {
      // Nothing is paid ahead while paused or on hold for an unpaid cycle: it ends now (the engine
      // only ends active memberships on their day).
      const day = today(services.clock);
      return Promise.resolve({
        set: {
          status: 'cancelled' as const,
          cancel_at: day,
          cancel_reason: reason,
          cancelled_at: services.clock.now().toISOString(),
          paused_until: null,
          ...clearedUnpaid,
        },
        email: { kind: 'cancelling', cancelsOn: day },
        atStripe: { kind: 'cancelNow' },
      });
    }
    return Promise.resolve({
      set: { cancel_at: subscription.next_cycle_on, cancel_reason: reason },
      email: { kind: 'cancelling', cancelsOn: subscription.next_cycle_on },
      atStripe: { kind: 'cancelAtPeriodEnd' },
    });
  });

/**
 * Takes back a cancellation at the end of the paid period before that day: the membership renews
 * on its next cycle as if never cancelled. On the day it ends (the engine may not have come by
 * yet) it is over.
 */
export const keepMembership = (services: ChangeServices, member: Member, id: string) =>
  changeOwn(services, member, id, (_trx, subscription) => {
    const { status, cancel_at: cancelAt } = subscription;
    if (status === 'cancelled' || (cancelAt !== null && cancelAt <= today(services.clock))) {
      throw refuse('This subscription has ended');
    }
    if (cancelAt === null) throw refuse('This subscription is not set to end');
    return Promise.resolve({
      set: { cancel_at: null, cancel_reason: null },
      email: { kind: 'kept' },
      atStripe: { kind: 'withdrawCancellation' },
    });
  });
