import { useMemo } from 'react';

/** What every paged admin list keeps in its URL: the page (left out on the first) and a search. */
interface ListSearch {
  page?: number;
  search?: string;
}

type NavigateSearch<T> = (options: { search: (prev: T) => T; replace?: boolean; resetScroll?: boolean }) => Promise<void>;

/**
 * Moving through a server-paged list by its URL, given the list route's navigate: a new search or
 * filter starts again on page 1 (the search replaces the history entry, so typing does not fill
 * the back button; a filter keeps the scroll where its buttons are), and page 1 is left out.
 */
export function useListNavigation<T extends ListSearch>(navigate: NavigateSearch<T>) {
  return useMemo(
    () => ({
      onSearch: (value: string) =>
        void navigate({ search: (prev) => ({ ...prev, search: value || undefined, page: undefined }), replace: true }),
      filterBy: (filters: Partial<T>) =>
        void navigate({ search: (prev) => ({ ...prev, ...filters, page: undefined }), resetScroll: false }),
      toPage: (page: number) => void navigate({ search: (prev) => ({ ...prev, page: page === 1 ? undefined : page }) }),
    }),
    [navigate],
  );
}
