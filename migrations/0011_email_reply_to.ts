import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// An email may name where replies go: the store's notice of a contact message names its sender,
// so the admin who presses Reply answers them, not the store's own address.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE email_queue ADD COLUMN reply_to text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE email_queue DROP COLUMN reply_to`.execute(db);
}
