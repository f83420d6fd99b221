import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { TableSummary } from './manifest';

// The database's part of a backup: every table's rows (one JSON document a line), or pg_dump's
// SQL, and the summaries a restore checks them against. Tables and columns come from the
// database's own catalog (db/tables.ts), so a table added later is backed up without being named.

/** Rows are written out and hashed the same way by every PostgreSQL, the embedded one included. */
export async function fixTextForms(trx: Db): Promise<void> {
  await sql`
    SELECT set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, MDY', true),
      set_config('IntervalStyle', 'postgres', true), set_config('extra_float_digits', '1', true),
      set_config('bytea_output', 'hex', true)`.execute(trx);
}

/** The columns a row is written with, in table order; generated ones are made again on load. */
export async function tableColumns(db: Db, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT attname AS name FROM pg_attribute
    WHERE attrelid = ${`public.${table}`}::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
    ORDER BY attnum`.execute(db);
  return rows.map((row) => row.name);
}

/**
 * A table's row count and checksum: the sum of a 60-bit hash of every row as text, which does not
 * depend on the order rows are read in, so it needs no sort and the same rows give the same sum
 * wherever they are loaded. Call fixTextForms first in the transaction.
 */
export async function tableChecksum(db: Db, table: string): Promise<Pick<TableSummary, 'rows' | 'checksum'>> {
  const { rows } = await sql<{ rows: number; checksum: string }>`
    SELECT count(*)::int AS rows, coalesce(sum(('x' || left(md5(t::text), 15))::bit(60)::bigint), 0)::text AS checksum
    FROM ${sql.table(table)} t`.execute(db);
  return rows[0]!;
}

export async function tableSummaries(db: Db, tables: readonly string[]): Promise<Record<string, TableSummary>> {
  const summaries: Record<string, TableSummary> = {};
  for (const table of tables) summaries[table] = { ...(await tableChecksum(db, table)), columns: await tableColumns(db, table) };
  return summaries;
}

/** Every sequence of the store (order numbers) and where it stands. */
export async function sequenceValues(db: Db): Promise<Record<string, { value: string; called: boolean }>> {
  const { rows: names } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY c.relname`.execute(db);
  const values: Record<string, { value: string; called: boolean }> = {};
  for (const { name } of names) {
    const { rows } = await sql<{
      value: string;
      called: boolean;
    }>`SELECT last_value::text AS value, is_called AS called FROM ${sql.table(name)}`.execute(db);
    values[name] = rows[0]!;
  }
  return values;
}

export async function setSequences(db: Db, sequences: Record<string, { value: string; called: boolean }>): Promise<void> {
  for (const [name, { value, called }] of Object.entries(sequences)) {
    await sql`SELECT setval(${`public.${name}`}::regclass, ${value}::bigint, ${called})`.execute(db);
  }
}

const ROWS_PER_FETCH = 500;

/** A table's rows as JSON documents, read through a cursor (a table is never held whole). In a transaction. */
export async function* tableRows(trx: Db, table: string, columns: readonly string[]): AsyncGenerator<string> {
  const cursor = `dump_${table}`;
  await sql`DECLARE ${sql.id(cursor)} NO SCROLL CURSOR FOR SELECT to_json(r)::text AS line FROM (SELECT ${sql.join(
    columns.map((column) => sql.ref(column)),
  )} FROM ${sql.table(table)}) r`.execute(trx);
  for (;;) {
    const { rows } = await sql<{ line: string }>`FETCH ${sql.raw(String(ROWS_PER_FETCH))} FROM ${sql.id(cursor)}`.execute(trx);
    for (const row of rows) yield row.line;
    if (rows.length < ROWS_PER_FETCH) break;
  }
  await sql`CLOSE ${sql.id(cursor)}`.execute(trx);
}

/** Writes rows back (JSON documents of `columns`), a batch at a time; columns the table has and the rows lack take their defaults. */
export async function insertRows(trx: Db, table: string, columns: readonly string[], lines: AsyncIterable<string>): Promise<void> {
  const list = sql.join(columns.map((column) => sql.ref(column)));
  const insert = (batch: string[]) =>
    sql`INSERT INTO ${sql.table(table)} (${list}) OVERRIDING SYSTEM VALUE
      SELECT ${list} FROM json_populate_recordset(NULL::${sql.table(table)}, ${`[${batch.join(',')}]`}::json)`.execute(trx);
  let batch: string[] = [];
  for await (const line of lines) {
    if (!line) continue;
    batch.push(line);
    if (batch.length === ROWS_PER_FETCH) {
      await insert(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await insert(batch);
}

/**
 * Runs `load` with the tables' own triggers off: rows come back as they were, so nothing is
 * counted twice (order_stats) and no change is announced. Foreign keys still hold. In a transaction.
 */
export async function withTriggersOff(trx: Db, tables: readonly string[], load: () => Promise<void>): Promise<void> {
  for (const table of tables) await sql`ALTER TABLE ${sql.table(table)} DISABLE TRIGGER USER`.execute(trx);
  await load();
  for (const table of tables) await sql`ALTER TABLE ${sql.table(table)} ENABLE TRIGGER USER`.execute(trx);
}

/** The major version of the pg_dump on the PATH, or null when there is none. */
export function pgDumpMajorVersion(): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn('pg_dump', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      const match = /(\d+)(?:\.\d+)?/.exec(out);
      resolve(code === 0 && match ? Number(match[1]) : null);
    });
  });
}

export async function serverMajorVersion(db: Db): Promise<number> {
  const { rows } = await sql<{ version: number }>`SELECT current_setting('server_version_num')::int / 10000 AS version`.execute(db);
  return rows[0]!.version;
}

/**
 * pg_dump's INSERT statements for every table's rows, in the snapshot `snapshot` (exported by the
 * transaction that reads the checksums), written to `file`. The password goes by environment, not
 * on the command line, where other users of the machine could read it.
 */
export function pgDumpRows(databaseUrl: string, snapshot: string, file: string): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const args = [
    '--data-only',
    '--format=plain',
    '--column-inserts',
    '--rows-per-insert=500',
    '--no-owner',
    '--no-privileges',
    '--no-comments',
    '--schema=public',
    '--exclude-table=public.kysely_migration',
    '--exclude-table=public.kysely_migration_lock',
    `--snapshot=${snapshot}`,
    `--file=${file}`,
    `--dbname=${url.toString()}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('pg_dump', args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`pg_dump failed (exit ${code}): ${errors.trim()}`))));
  });
}
