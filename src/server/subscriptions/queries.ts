import { sql, type ExpressionBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database';
import type { DB, SubscriptionsTable } from '../db/schema';

/** A membership as every list of them shows it: its plan's price, size and colours, and its schedule (when the next shirt ships). */
export const MEMBERSHIP_COLUMNS = [
  'subscriptions.id',
  'subscriptions.status',
  'subscriptions.size',
  'subscriptions.colour_choice',
  'subscriptions.price',
  'subscriptions.billing_interval',
  'subscriptions.next_cycle_on',
  'subscriptions.skip_next',
  'subscriptions.paused_until',
  'subscriptions.cancel_at',
  'subscriptions.created_at',
] as const;

/** A membership's chosen categories by name (in the shop's order), for a select over subscriptions. */
export const chosenCategoryNames = <TB extends keyof DB>(eb: ExpressionBuilder<DB, TB | 'subscriptions'>) =>
  eb
    .selectFrom('categories')
    .select(sql<string[]>`coalesce(array_agg(categories.name order by categories.sort_order), '{}')`.as('names'))
    .where(sql<boolean>`categories.id = any(subscriptions.category_ids)`)
    .as('category_names');

type Subscription = Selectable<SubscriptionsTable>;
type SubscriptionQuery = SelectQueryBuilder<DB, 'subscriptions', Subscription>;

/**
 * Claims the first subscription `pick` selects: locked until the step's transaction ends, passing
 * over rows another process holds and those that failed earlier in this pass (`skip`).
 */
export async function claimSubscription(
  db: Db,
  skip: readonly string[],
  onClaim: (subscriptionId: string) => void,
  pick: (query: SubscriptionQuery) => SubscriptionQuery,
): Promise<Subscription | undefined> {
  const claimed = await pick(db.selectFrom('subscriptions').selectAll())
    .$if(skip.length > 0, (query) => query.where('id', 'not in', skip))
    .forUpdate()
    .skipLocked()
    .limit(1)
    .executeTakeFirst();
  if (claimed) onClaim(claimed.id);
  return claimed;
}
