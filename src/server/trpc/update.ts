import type { AnyColumn, Selectable, Selection, UpdateObject } from 'kysely';
import type { Db } from '../db/database';
import type { DB } from '../db/schema';
import { assertFound } from './errors';

/** The tables whose rows have a text (uuid) id and an updated_at stamp. */
type StampedTable = { [T in keyof DB]: Selectable<DB[T]> extends { id: string; updated_at: string } ? T : never }[keyof DB];

/**
 * Changes the row `id` of `table`, stamps its updated_at and returns its `columns`; NOT_FOUND
 * "{what} not found" when there is no such row. The query is typed over every stamped table (a
 * generic table name has no column types in Kysely), hence the second bound on the columns.
 */
export async function updateById<T extends StampedTable, Column extends AnyColumn<DB, T> & AnyColumn<DB, StampedTable>>(
  db: Db,
  table: T,
  id: string,
  values: UpdateObject<DB, T>,
  columns: readonly Column[],
  what: string,
): Promise<Selection<DB, T, Column>> {
  const row = await db
    .updateTable<StampedTable>(table)
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
  // Kysely types the row with each column's type in any stamped table; it comes from `table` alone.
  return assertFound(row, what) as Selection<DB, T, Column>;
}
