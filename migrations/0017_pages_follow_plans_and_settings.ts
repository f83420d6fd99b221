import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Storefront pages are kept whole with the catalog cache and emptied with it on every catalog
// change (src/server/catalog-cache.ts). Besides the catalog they show the active subscription
// plans (the club page) and what shipping costs (the store's settings), so a write to those tables
// now announces itself as a catalog change too, through the function 0006_catalog_changes made.

const TABLES = ['subscription_plans', 'store_settings'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql`
      CREATE TRIGGER ${sql.id(`${table}_catalog_changed`)}
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION announce_catalog_change()
    `.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await sql`DROP TRIGGER ${sql.id(`${table}_catalog_changed`)} ON ${sql.table(table)}`.execute(db);
}
