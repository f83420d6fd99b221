import { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { MAX_BATCH_CALLS } from '../shared/constants';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { createTRPCContext, createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
// The one place the client names the server: a type-only import, erased from the bundle.
import type { AppRouter } from '../server/trpc/router';

/** Inputs and outputs of every procedure, e.g. RouterOutputs['admin']['orders']['get']. */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Storefront reads fail into empty states (SPEC §8); one retry covers a blip without a long wait.
      retry: 1,
    },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url: '/trpc' }),
      false: httpBatchLink({ url: '/trpc', maxItems: MAX_BATCH_CALLS }),
    }),
  ],
});

/** Hooks for components: `const trpc = useTRPC()` inside the TRPCProvider. */
export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** The same query options outside React (route loaders get it through the router context). */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
export type Trpc = typeof trpc;
