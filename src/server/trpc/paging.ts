import type { SelectQueryBuilder } from 'kysely';

/**
 * The page of a server-paged list to show: the one asked for, or the last when it is past the end
 * (a filter changed, rows went away meanwhile), never an empty page after the last; with its offset.
 */
export function pageWindow(total: number, requested: number, pageSize: number) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requested, pageCount);
  return { page, pageCount, offset: (page - 1) * pageSize };
}

/** One page of a server-paged list and what its pager shows. */
export interface ListPage<Row> {
  items: Row[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

/**
 * Reads the page pageWindow picks of a list of `total` rows. `rows` selects and orders them; its
 * order must break ties (by id), or rows could repeat or go missing from page to page.
 */
export async function readPage<DB, TB extends keyof DB, Row>(
  total: number,
  requested: number,
  pageSize: number,
  rows: () => SelectQueryBuilder<DB, TB, Row>,
): Promise<ListPage<Row>> {
  const { page, pageCount, offset } = pageWindow(total, requested, pageSize);
  const items = await rows().limit(pageSize).offset(offset).execute();
  return { items, total, page, pageCount, pageSize };
}
