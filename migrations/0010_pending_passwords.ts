import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// A sign-up for an address whose account is not confirmed yet is mailed a confirmation link that
// carries the password chosen in that sign-up (its hash): whoever confirms the address through it
// owns the account with that password, not with the one of whoever made the account first.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE auth_tokens ADD COLUMN password_hash text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE auth_tokens DROP COLUMN password_hash`.execute(db);
}
