import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, useEffect } from 'react';
import { hydratedReplayEarlyTaps } from './early-taps';
import type { StoreRouter } from './router';
import { TRPCProvider, type TrpcClient } from './trpc';

/** The whole client around its router: the same tree in the browser and when the server renders a page. */
export function App({ router, queryClient, trpcClient }: { router: StoreRouter; queryClient: QueryClient; trpcClient: TrpcClient }) {
  // <html data-hydrated> once the page answers clicks: a server-rendered button is visible before
  // then, and a tap on it before is held by the page's inline script and replayed now.
  useEffect(hydratedReplayEarlyTaps, []);
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <RouterProvider router={router} />
        </TRPCProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
