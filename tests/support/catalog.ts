import type { Db } from '../../src/server/db/database';

/** The active categories in the store's order, as the header menu and the shop's filter buttons list them. */
export function activeCategories(db: Db) {
  return db.selectFrom('categories').select(['slug', 'name']).where('is_active', '=', true).orderBy('sort_order').execute();
}
