import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Every write to what the storefront catalog shows (products, categories and the images' display
// copies) announces itself on the store's event channel, whoever makes it: an admin procedure, the
// seed, the display-copy pass or a script. Each app process drops its cached catalog reads on it
// (src/server/catalog-cache.ts). Statement-level, and NOTIFY folds equal payloads within a
// transaction, so a bulk write sends one event at commit and a rolled-back one sends none.

const TABLES = ['products', 'categories', 'image_variants'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION announce_catalog_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('threadline_events', '{"type":"catalog_changed"}');
      RETURN NULL;
    END
    $$;
  `.execute(db);
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
  await sql`DROP FUNCTION announce_catalog_change()`.execute(db);
}
