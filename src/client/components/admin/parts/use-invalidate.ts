import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A function that re-reads these queries (an admin list and the storefront reads it feeds) and
 * settles when they are fresh: for a mutation's onSettled, or awaited before closing a form.
 *
 *   const refresh = useInvalidate(trpc.admin.plans.list.queryKey(), trpc.subscriptions.pathKey());
 */
export function useInvalidate(...queryKeys: QueryKey[]): () => Promise<unknown> {
  const queryClient = useQueryClient();
  return () => Promise.all(queryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
