import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Each account counts the emails anyone can make the store send to its address (a sign-up with
// it, a reset request, a new confirmation link) within the hour that began with the first: the
// per-client limits do not see a sender that keeps changing address.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN account_emails_since timestamptz, ADD COLUMN account_emails_sent integer NOT NULL DEFAULT 0`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN account_emails_since, DROP COLUMN account_emails_sent`.execute(db);
}
