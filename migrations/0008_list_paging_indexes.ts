import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// The admin Customers, Artwork Library and Contact lists are paged on the server, newest first
// with the id as tie-break: each ordering gets an index that ends in the id, so a page
// is read in index order without sorting the table. They replace the created_at-only indexes,
// which they cover. Unconfirmed users (a filter button) are few: a partial index finds them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX users_newest_idx ON users (created_at DESC, id);
    CREATE INDEX users_unconfirmed_newest_idx ON users (created_at DESC, id) WHERE email_confirmed_at IS NULL;
    DROP INDEX users_created_at_idx;

    CREATE INDEX artwork_library_newest_id_idx ON artwork_library (created_at DESC, id);
    DROP INDEX artwork_library_newest_idx;

    CREATE INDEX contact_submissions_newest_id_idx ON contact_submissions (created_at DESC, id);
    CREATE INDEX contact_submissions_status_newest_id_idx ON contact_submissions (status, created_at DESC, id);
    DROP INDEX contact_submissions_newest_idx;
    DROP INDEX contact_submissions_status_newest_idx;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX users_created_at_idx ON users (created_at DESC);
    DROP INDEX users_newest_idx;
    DROP INDEX users_unconfirmed_newest_idx;

    CREATE INDEX artwork_library_newest_idx ON artwork_library (created_at DESC);
    DROP INDEX artwork_library_newest_id_idx;

    CREATE INDEX contact_submissions_newest_idx ON contact_submissions (created_at DESC);
    CREATE INDEX contact_submissions_status_newest_idx ON contact_submissions (status, created_at DESC);
    DROP INDEX contact_submissions_newest_id_idx;
    DROP INDEX contact_submissions_status_newest_id_idx;
  `.execute(db);
}
