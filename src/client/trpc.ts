import { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { MAX_BATCH_CALLS } from '../shared/constants';
import { dataOf } from './error-data';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { createTRPCContext, createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
// The one place the client names the server: a type-only import, erased from the bundle.
import type { AppRouter } from '../server/trpc/router';

/** Inputs and outputs of every procedure, e.g. RouterOutputs['admin']['orders']['get']. */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/**
 * Storefront reads fail into empty states (docs/PRODUCT.md § Messages): in the browser one retry covers a blip
 * without a long wait. A refusal (4xx) would only be refused again.
 */
const retryOnceUnlessRefused = (failures: number, error: unknown) => failures < 1 && (dataOf(error)?.httpStatus ?? 500) >= 500;

/**
 * The query cache's settings. A page rendered on the server does not retry: React Query waits a
 * second first, which a request with a bad slug could make every render wait.
 */
export function createQueryClient(renders: 'in-browser' | 'on-server' = 'in-browser'): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: renders === 'on-server' ? false : retryOnceUnlessRefused },
    },
  });
}

export const queryClient = createQueryClient();

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url: '/trpc' }),
      false: httpBatchLink({ url: '/trpc', maxItems: MAX_BATCH_CALLS }),
    }),
  ],
});

/** A tRPC client of this app's router: the browser's above, or the server's in-process one when it renders a page. */
export type TrpcClient = typeof trpcClient;

/** Hooks for components: `const trpc = useTRPC()` inside the TRPCProvider. */
export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** Query options for a client and cache: the browser's below, or those of a page the server renders. */
export const createTrpcOptions = (client: TrpcClient, cache: QueryClient) =>
  createTRPCOptionsProxy<AppRouter>({ client, queryClient: cache });

/** The same query options outside React (route loaders get it through the router context). */
export const trpc = createTrpcOptions(trpcClient, queryClient);
export type Trpc = typeof trpc;
