import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Emailed links no longer carry a password (0010 undone): a sign-up for an address whose account
// is not confirmed yet now gets a link to choose the password, so whoever holds the inbox picks it.
// The links mailed before would still set someone's password, so they go: used, they say the link
// is invalid, and signing up again sends the new kind.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM auth_tokens WHERE password_hash IS NOT NULL`.execute(db);
  await sql`ALTER TABLE auth_tokens DROP COLUMN password_hash`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE auth_tokens ADD COLUMN password_hash text`.execute(db);
}
