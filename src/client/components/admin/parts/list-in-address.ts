import type { SearchSchemaInput } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { RouterContext } from '../../../router-context';

// A server-paged admin list whose search, filters and page live in the address, so a view
// survives a reload and can be shared (Products, Artwork, Subscribers, Customers, Contact).
// The route takes its options from listInAddress; the pages of the first four read the list's
// input and move through the list with useListInAddress (Contact moves by hand: its filters keep
// the scroll where they are).
//
//   export const Route = createFileRoute('/admin/products/')({
//     ...listInAddress(productsSearchSchema, listInputOf, ({ queryClient, trpc }, input) => {
//       void queryClient.prefetchQuery(trpc.admin.products.list.queryOptions(input));
//     }),
//     component: ProductsPage,
//   });
//
//   const { input, searchField, filterBy, toPage } = useListInAddress(getRouteApi('/admin/products/'), listInputOf);
//   <SearchField label="Search" {...searchField} />

/**
 * The route options: the address read by `validateSearch`, and a loader that prefetches the list
 * input `listInputOf` makes of it. `prefetch` should not await: the page shows its loading state
 * instead of holding the navigation.
 */
export function listInAddress<Raw extends SearchSchemaInput, Search, Input>(
  validateSearch: (raw: Raw) => Search,
  listInputOf: (search: Search) => Input,
  prefetch: (context: RouterContext, input: Input) => void,
) {
  return {
    validateSearch,
    loaderDeps: ({ search }: { search: Search }) => listInputOf(search),
    loader: ({ context, deps }: { context: RouterContext; deps: Input }) => prefetch(context, deps),
  };
}

/** What every paged admin list keeps in its URL: the page (left out on the first) and a search. */
interface ListSearch {
  page?: number;
  search?: string;
}

type NavigateSearch<T> = (options: { search: (prev: T) => T; replace?: boolean; resetScroll?: boolean }) => Promise<void>;

/**
 * The list input of the page's address, and moving through the list by its URL: a new search or
 * filter starts again on page 1 (the search replaces the history entry, so typing does not fill
 * the back button; a filter keeps the scroll where its buttons are), and page 1 is left out.
 * `searchField` binds the page's SearchField to the search in the address.
 */
export function useListInAddress<Search extends ListSearch, Input>(
  route: { useSearch: () => NoInfer<Search>; useNavigate: () => NavigateSearch<NoInfer<Search>> },
  listInputOf: (search: Search) => Input,
) {
  const search = route.useSearch();
  const input = listInputOf(search);
  const navigate = route.useNavigate();
  const navigation = useMemo(
    () => ({
      onSearch: (value: string) =>
        void navigate({ search: (prev) => ({ ...prev, search: value || undefined, page: undefined }), replace: true }),
      filterBy: (filters: Partial<Search>) =>
        void navigate({ search: (prev) => ({ ...prev, ...filters, page: undefined }), resetScroll: false }),
      toPage: (page: number) => void navigate({ search: (prev) => ({ ...prev, page: page === 1 ? undefined : page }) }),
    }),
    [navigate],
  );
  const { onSearch, filterBy, toPage } = navigation;
  return { input, searchField: { value: search.search ?? '', onSearch }, filterBy, toPage };
}
