import { TRPCError } from '@trpc/server';
import { sql, type AnyColumn, type Selectable, type Selection, type UpdateObject } from 'kysely';
import type { Db } from '../db/database';
import type { DB } from '../db/schema';
import { assertFound } from './errors';

/** The tables whose rows have a text (uuid) id and an updated_at stamp. */
type StampedTable = { [T in keyof DB]: Selectable<DB[T]> extends { id: string; updated_at: string } ? T : never }[keyof DB];

/**
 * Only the row as a form loaded it: `updatedAt` is its stamp then. A change made since (another
 * tab, another admin, a toggle) is not written over with what the form still holds: CONFLICT
 * `changedElsewhere` instead.
 */
export interface UnchangedSince {
  updatedAt: string;
  changedElsewhere: string;
}

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
  unchangedSince?: UnchangedSince,
): Promise<Selection<DB, T, Column>> {
  let update = db
    .updateTable<StampedTable>(table)
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id);
  // To the millisecond, as timestamps leave the database (src/server/db/database.ts).
  if (unchangedSince) update = update.where(sql<string>`date_trunc('milliseconds', updated_at)`, '=', unchangedSince.updatedAt);
  const row = await update.returning(columns).executeTakeFirst();
  if (!row && unchangedSince) {
    assertFound(await db.selectFrom<StampedTable>(table).select('id').where('id', '=', id).executeTakeFirst(), what);
    throw new TRPCError({ code: 'CONFLICT', message: unchangedSince.changedElsewhere });
  }
  // Kysely types the row with each column's type in any stamped table; it comes from `table` alone.
  return assertFound(row, what) as Selection<DB, T, Column>;
}
