/**
 * The page of a server-paged list to show: the one asked for, or the last when it is past the end
 * (a filter changed, rows went away meanwhile), never an empty page after the last; with its offset.
 */
export function pageWindow(total: number, requested: number, pageSize: number) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requested, pageCount);
  return { page, pageCount, offset: (page - 1) * pageSize };
}
