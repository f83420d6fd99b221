import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../db/schema';

/** A membership's chosen categories by name (in the shop's order), for a select over subscriptions. */
export const chosenCategoryNames = <TB extends keyof DB>(eb: ExpressionBuilder<DB, TB | 'subscriptions'>) =>
  eb
    .selectFrom('categories')
    .select(sql<string[]>`coalesce(array_agg(categories.name order by categories.sort_order), '{}')`.as('names'))
    .where(sql<boolean>`categories.id = any(subscriptions.category_ids)`)
    .as('category_names');
