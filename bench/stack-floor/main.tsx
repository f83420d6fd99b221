import { hydrate, QueryClient, QueryClientProvider, useQuery, type DehydratedState } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, Link, Outlet, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';

// The smallest page the fixed client stack can hydrate: React, TanStack Router with one route and a
// link, and TanStack Query with a server-state cache and one query. bench/run.ts builds it to show
// how much of the storefront's initial JavaScript is the stack itself, before tRPC and our code.

const queryClient = new QueryClient();
hydrate(queryClient, JSON.parse(document.getElementById('server-state')?.textContent ?? '{}') as DehydratedState);

function Home() {
  const { data } = useQuery({ queryKey: ['greeting'], queryFn: async () => (await fetch('/greeting')).text() });
  return <p>{data}</p>;
}

const rootRoute = createRootRoute({
  component: () => (
    <main>
      <Link to="/">Home</Link>
      <Outlet />
    </main>
  ),
});
const router = createRouter({
  routeTree: rootRoute.addChildren([createRoute({ getParentRoute: () => rootRoute, path: '/', component: Home })]),
});

await router.load();
hydrateRoot(
  document.getElementById('root')!,
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
