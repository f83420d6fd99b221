import type { EnsureQueryDataOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { dataOf } from './error-data';

/**
 * Loads a query into the cache for a route loader, and gives its data. A failure is swallowed on
 * purpose (undefined): storefront pages show empty states instead of an error page when a read
 * fails (docs/PRODUCT.md § Messages). An input the server refuses (a slug no product could have) finds nothing: null.
 */
export async function prefetchQuietly<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  queryClient: QueryClient,
  options: EnsureQueryDataOptions<TQueryFnData, TError, TData, TQueryKey>,
): Promise<TData | null | undefined> {
  try {
    return await queryClient.ensureQueryData(options);
  } catch (error) {
    if (dataOf(error)?.code === 'BAD_REQUEST') return null;
    // The component's own query reports the failure as an empty state.
    return undefined;
  }
}
