import { keepPreviousData } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight } from 'lucide-react';

// Page numbers under a server-paged list: "Showing 26–50 of 120 products", Previous, numbers, Next.
//
//   <Pagination list={data} itemLabel="products" onChange={(page) => navigate({ search: (prev) => ({ ...prev, page }) })} />

/** Where a server-paged list stands, as every paged procedure answers. */
export interface PageInfo {
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
}

/** Query options for a paged list: the previous page stays on screen while the next one loads, so the list does not flash. */
export const KEEP_PREVIOUS_PAGE = { placeholderData: keepPreviousData };

interface PaginationProps {
  list: PageInfo;
  /** Plural noun for the summary, e.g. "products". */
  itemLabel: string;
  onChange: (page: number) => void;
}

const pageButton =
  'inline-flex h-9 min-w-9 items-center justify-center rounded-lg border px-2.5 text-sm font-semibold transition disabled:cursor-not-allowed disabled:opacity-50';
const idle = 'border-stone-300 bg-white text-stone-700 hover:bg-stone-50';
const current = 'border-stone-900 bg-stone-900 text-white';

/** The page numbers to show: first, last, and two either side of the current one, with gaps as null. */
function visiblePages(page: number, pageCount: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let n = 1; n <= pageCount; n++) {
    if (n === 1 || n === pageCount || Math.abs(n - page) <= 2) pages.push(n);
    else if (pages.at(-1) !== null) pages.push(null);
  }
  return pages;
}

export function Pagination({ list: { page, pageCount, pageSize, total }, itemLabel, onChange }: PaginationProps) {
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <div className="flex flex-col items-center justify-between gap-3 sm:flex-row">
      <p className="text-sm text-stone-600" data-testid="pagination-summary">
        Showing {first}–{last} of {total} {itemLabel}
      </p>
      {pageCount > 1 && (
        <nav aria-label="Pages" className="flex flex-wrap items-center gap-1">
          <button
            type="button"
            className={`${pageButton} ${idle}`}
            disabled={page <= 1}
            onClick={() => onChange(page - 1)}
            aria-label="Previous page"
          >
            <ChevronLeft className="size-4" aria-hidden="true" />
          </button>
          {visiblePages(page, pageCount).map((n, index) =>
            n === null ? (
              <span key={`gap-${index}`} className="px-1 text-stone-500" aria-hidden="true">
                …
              </span>
            ) : (
              <button
                key={n}
                type="button"
                className={`${pageButton} ${n === page ? current : idle}`}
                aria-current={n === page ? 'page' : undefined}
                aria-label={`Page ${n}`}
                onClick={() => onChange(n)}
              >
                {n}
              </button>
            ),
          )}
          <button
            type="button"
            className={`${pageButton} ${idle}`}
            disabled={page >= pageCount}
            onClick={() => onChange(page + 1)}
            aria-label="Next page"
          >
            <ChevronRight className="size-4" aria-hidden="true" />
          </button>
        </nav>
      )}
    </div>
  );
}
