import { useNavigate, useSearch, type SearchMiddleware, type SearchSchemaInput } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { RouterContext } from '../../../router-context';

// The route options of an admin list with one filter in the address (?status=new), so a filtered
// view survives a reload: 'all' is the default and stays out of the address, a stale value falls
// back to it, the loader prefetches the list without awaiting it (the page shows its loading
// state instead of holding the navigation), and the page gets the filter and its setter.
//
//   export const Route = createFileRoute('/admin/contact')(
//     filterInAddress('status', CONTACT_FILTERS, {
//       prefetch: ({ queryClient, trpc }, deps) => queryClient.prefetchQuery(trpc.admin.contact.list.queryOptions(deps)),
//       page: (status, onStatusChange) => <ContactPage status={status} onStatusChange={onStatusChange} />,
//     }),
//   );

export function filterInAddress<const Key extends string, const Filter extends string>(
  key: Key,
  filters: readonly ['all', ...Filter[]],
  {
    prefetch,
    page,
  }: {
    prefetch: (context: RouterContext, deps: Record<Key, 'all' | Filter>) => Promise<unknown>;
    page: (filter: 'all' | Filter, onFilterChange: (next: 'all' | Filter) => void) => ReactNode;
  },
) {
  type Search = Record<Key, 'all' | Filter>;
  const known = (value: unknown): value is Filter => (filters as readonly unknown[]).includes(value);
  // Links may leave the filter out (SearchSchemaInput): it reads as 'all'.
  const validateSearch = (input: Partial<Record<Key, unknown>> & SearchSchemaInput) => {
    const value = input[key];
    return { [key]: known(value) ? value : 'all' } as Search;
  };
  const leaveOutAll: SearchMiddleware<Search> = ({ search, next }) => {
    const result = next(search);
    if (result[key] !== 'all') return result;
    const { [key]: _all, ...rest } = result;
    return rest as Search;
  };
  function FilteredPage(): ReactNode {
    // Typed by hand: the route tree's search types include this route's own. validateSearch has
    // run, so the value is one of the filters.
    const search: Record<string, unknown> = useSearch({ strict: false });
    const navigate = useNavigate();
    const filter = search[key] as 'all' | Filter;
    return page(filter, (next) => void navigate({ to: '.', search: { [key]: next }, resetScroll: false }));
  }
  return {
    validateSearch,
    search: { middlewares: [leaveOutAll] },
    loaderDeps: ({ search }: { search: Search }) => ({ [key]: search[key] }) as Search,
    loader: ({ context, deps }: { context: RouterContext; deps: Search }) => {
      void prefetch(context, deps);
    },
    component: FilteredPage,
  };
}
