import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// A confirmation link keeps the SHA-256 of the secret its sign-up gave the browser (an HttpOnly
// cookie), so confirming in that browser can be told from confirming anywhere else. Links mailed
// before have none: whoever confirms with one chooses the account's password.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE auth_tokens ADD COLUMN browser_secret_hash bytea`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE auth_tokens DROP COLUMN browser_secret_hash`.execute(db);
}
