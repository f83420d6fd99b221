import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, PGLITE_EXTENSIONS, type DatabaseHandle, type Db } from '../../src/server/db/database';
import type { DB } from '../../src/server/db/schema';

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new
 * PostgreSQL database (dropped on close) when TEST_DATABASE_URL is set.
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (serverUrl && template) {
    const name = `threadline_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ databaseUrl: url.toString() });
    return {
      ...handle,
      url: url.toString(),
      async close() {
        await handle.close();
        await withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      },
    };
  }
  const dump = fs.readFileSync(inject('pgliteTemplatePath'));
  const pglite = await PGlite.create({ loadDataDir: new Blob([dump]), extensions: PGLITE_EXTENSIONS });
  return openDatabase({ pglite });
}

/** A connection to the server's own database (TEST_DATABASE_URL), for what a test database cannot do to itself. */
export async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Deletes every row of the tables, one after another: name those whose rows point at others first. */
export async function emptyTables(db: Db, ...tables: (keyof DB)[]): Promise<void> {
  for (const table of tables) await db.deleteFrom(table).execute();
}

/** What another admin's edit writes into a description: `changeElsewhere`. */
export const CHANGED_ELSEWHERE = 'Changed elsewhere';

/**
 * Another admin's edit of a row a page has open (a plan, a category, an artwork): its description
 * becomes CHANGED_ELSEWHERE and its updated_at moves on, as any save does.
 */
export async function changeElsewhere(
  db: Db,
  table: 'subscription_plans' | 'categories' | 'artwork_library',
  where: { column: 'slug' | 'name'; value: string },
): Promise<void> {
  await sql`UPDATE ${sql.table(table)} SET description = ${CHANGED_ELSEWHERE}, updated_at = now() WHERE ${sql.ref(where.column)} = ${where.value}`.execute(
    db,
  );
}
