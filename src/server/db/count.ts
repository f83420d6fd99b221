import { sql, type SelectQueryBuilder } from 'kysely';

/** How many rows the query's tables, joins and where clauses match (it must select nothing yet). */
export async function countRows<DB, TB extends keyof DB>(query: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  const row = await query
    .select(sql<number>`count(*)::int`.as('total'))
    // Kysely cannot work the selection's type out for any database type; this is what it selects.
    .$castTo<{ total: number }>()
    .executeTakeFirstOrThrow();
  return row.total;
}

/**
 * What a list's status tiles show: `total`, every row the query matches, and for each key the
 * rows whose status column holds that key's status.
 */
export function statusCounts<Key extends string>(statusOf: Record<Key, string>) {
  const perStatus = (Object.keys(statusOf) as Key[]).map((key) =>
    sql<number>`(count(*) filter (where status = ${statusOf[key]}))::int`.as(key),
  );
  return [sql<number>`count(*)::int`.as('total'), ...perStatus];
}
