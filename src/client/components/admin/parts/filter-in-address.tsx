import { useNavigate, useSearch, type SearchMiddleware, type SearchSchemaInput } from '@tanstack/react-router';
import type { RouterContext } from '../../../router-context';
import { oneOf } from '../../../search-params';

// The route options of an admin list with one filter in the address (?status=new), so a filtered
// view survives a reload: 'all' is the default and stays out of the address, a stale value falls
// back to it, and the loader prefetches the list without awaiting it (the page shows its loading
// state instead of holding the navigation). The route's own `component` (split from the route
// definitions, which load with the store's first page) reads the filter with useFilterInAddress.
//
//   export const Route = createFileRoute('/admin/email-logs')({
//     ...filterInAddress('status', EMAIL_FILTERS, ({ queryClient, trpc }, deps) =>
//       queryClient.prefetchQuery(trpc.admin.emails.list.queryOptions(deps)),
//     ),
//     component: function EmailLogsRoute() {
//       const [status, onStatusChange] = useFilterInAddress<EmailFilter>('status');
//       return <EmailLogsPage status={status} onStatusChange={onStatusChange} />;
//     },
//   });

export function filterInAddress<const Key extends string, const Filter extends string>(
  key: Key,
  filters: readonly ['all', ...Filter[]],
  prefetch: (context: RouterContext, deps: Record<Key, 'all' | Filter>) => Promise<unknown>,
) {
  type Search = Record<Key, 'all' | Filter>;
  // Links may leave the filter out (SearchSchemaInput): it reads as 'all'.
  const validateSearch = (input: Partial<Record<Key, unknown>> & SearchSchemaInput) =>
    ({ [key]: oneOf(filters, input[key]) ?? 'all' }) as Search;
  const leaveOutAll: SearchMiddleware<Search> = ({ search, next }) => {
    const result = next(search);
    if (result[key] !== 'all') return result;
    const { [key]: _all, ...rest } = result;
    return rest as Search;
  };
  return {
    validateSearch,
    search: { middlewares: [leaveOutAll] },
    loaderDeps: ({ search }: { search: Search }) => ({ [key]: search[key] }) as Search,
    loader: ({ context, deps }: { context: RouterContext; deps: Search }) => {
      void prefetch(context, deps);
    },
  };
}

/** The filter a filterInAddress route's page shows, and the setter that puts another in the address. */
export function useFilterInAddress<Filter extends string>(key: string): [Filter, (next: Filter) => void] {
  // Typed by hand: the route tree's search types include this route's own. validateSearch has
  // run, so the value is one of the filters.
  const search: Record<string, unknown> = useSearch({ strict: false });
  const navigate = useNavigate();
  return [search[key] as Filter, (next) => void navigate({ to: '.', search: { [key]: next }, resetScroll: false })];
}
