import type { Db } from '../../src/server/db/database';
import type { SubscriptionBilling } from '../../src/server/payments/provider';
import type { Clock } from '../../src/server/subscriptions/dates';
import { renewDueSubscriptions, type RenewalServices } from '../../src/server/subscriptions/renewal';
import type { TestApp } from './app';

const quiet = { warn: () => undefined, error: () => undefined };

/** One pass of the renewal engine on a test app's database, on the test's clock. */
export function renewalPass(
  t: TestApp,
  clock: Clock,
  options: { billing?: SubscriptionBilling | null; log?: RenewalServices['log'] } = {},
): () => ReturnType<typeof renewDueSubscriptions> {
  return () =>
    renewDueSubscriptions({
      db: t.db,
      mail: t.config,
      clock,
      log: options.log ?? quiet,
      billing: options.billing ?? null,
      dunning: t.config,
    });
}

/** A membership's recorded cycles, oldest first: each one's day, what became of it, and its order. */
export const subscriptionCycles = (db: Db, subscriptionId: string) =>
  db
    .selectFrom('subscription_cycles')
    .select(['cycle_start', 'outcome', 'order_id'])
    .where('subscription_id', '=', subscriptionId)
    .orderBy('cycle_start')
    .execute();
