import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// The emails an account's own signed-in sessions make the store send to its address (a new
// confirmation link; orders, joins and membership changes before the address is confirmed) count
// in an hour of their own, apart from those anyone can ask for (0014), so that strangers using up
// that budget never refuse the account's owner.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN own_emails_since timestamptz, ADD COLUMN own_emails_sent integer NOT NULL DEFAULT 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN own_emails_since, DROP COLUMN own_emails_sent`.execute(db);
}
