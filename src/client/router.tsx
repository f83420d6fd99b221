import { createRouter } from '@tanstack/react-router';
import { ErrorPage } from './components/ErrorPage';
import { routeTree } from './routeTree.gen';
import { queryClient, trpc } from './trpc';

export const router = createRouter({
  routeTree,
  context: { queryClient, trpc },
  defaultPreload: 'intent',
  // TanStack Query owns freshness; the router always asks it (ensureQueryData answers from cache).
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  // A page that fails to render keeps the store's header and footer around the error.
  defaultErrorComponent: ErrorPage,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
