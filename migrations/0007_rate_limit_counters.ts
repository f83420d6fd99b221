import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Rate-limit counters every app process on one PostgreSQL server shares: one row per
// action and client, counting requests until its window ends. Expired rows are pruned.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rate_limit_counters (
      key text PRIMARY KEY,
      count integer NOT NULL CHECK (count > 0),
      window_ends_at timestamptz NOT NULL
    );
    CREATE INDEX rate_limit_counters_window_ends_at ON rate_limit_counters (window_ends_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rate_limit_counters`.execute(db);
}
