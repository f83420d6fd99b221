import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Display copies of stored images: one row per original whose copies all exist, with
// the original's pixel size (width and height attributes, no layout shift) and the widths made.
// Every width exists in every display format (AVIF and WebP), under names derived from the
// original's key, so the row is all a page needs to write srcset.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE image_variants (
      -- The original as rows point at it: /storage/<bucket>/<key>. The primary key is the lookup index.
      image_url text PRIMARY KEY CHECK (image_url LIKE '/storage/%'),
      width integer NOT NULL CHECK (width > 0),
      height integer NOT NULL CHECK (height > 0),
      display_widths integer[] NOT NULL CHECK (cardinality(display_widths) > 0 AND 0 < ALL (display_widths)),
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE image_variants`.execute(db);
}
