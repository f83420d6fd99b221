import { sql } from 'kysely';
import type { Db } from './database';

// The store's tables as the database itself lists them, so that what goes over every table
// (backups, the erasure's final check) covers a table added later without anyone listing it.

/** Kysely's own bookkeeping of migrations: part of the schema, not of the store's data. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * Every table of the store, each after the tables its foreign keys point at, so rows can be
 * written back in this order. A cycle of foreign keys (none today) cannot be ordered and throws.
 */
export async function storeTables(db: Db): Promise<string[]> {
  const [tables, references] = await Promise.all([
    sql<{ name: string }>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`.execute(db),
    sql<{ child: string; parent: string }>`
      select child.relname as child, parent.relname as parent
      from pg_constraint fk
      join pg_class child on child.oid = fk.conrelid
      join pg_class parent on parent.oid = fk.confrelid
      join pg_namespace n on n.oid = child.relnamespace
      where fk.contype = 'f' and n.nspname = 'public' and fk.conrelid <> fk.confrelid`.execute(db),
  ]);
  const names = tables.rows.map((row) => row.name).filter((name) => !MIGRATOR_TABLES.has(name));
  const parentsOf = new Map(names.map((name) => [name, new Set<string>()]));
  for (const { child, parent } of references.rows) parentsOf.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names.filter((name) => !placed.has(name) && [...parentsOf.get(name)!].every((parent) => placed.has(parent)));
    if (ready.length === 0)
      throw new Error(`The foreign keys of these tables form a cycle: ${names.filter((n) => !placed.has(n)).join(', ')}`);
    for (const name of ready) {
      ordered.push(name);
      placed.add(name);
    }
  }
  return ordered;
}

/**
 * The tables with a row whose text (every column, JSON and arrays included, as PostgreSQL writes
 * the row out) contains `needle`, compared without case.
 */
export async function tablesMentioning(db: Db, needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of await storeTables(db)) {
    const { rows } = await sql<{ found: boolean }>`
      select exists (select 1 from ${sql.table(table)} t where strpos(lower(t::text), ${needle.toLowerCase()}) > 0) as found`.execute(db);
    if (rows[0]?.found) found.push(table);
  }
  return found;
}
