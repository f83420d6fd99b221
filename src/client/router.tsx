import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { ErrorPage } from './components/ErrorPage';
import type { RouterContext } from './router-context';
import { routeTree } from './routeTree.gen';

/** The store's router: one in the browser, and one per page the server renders (with a memory history). */
export function createStoreRouter(context: RouterContext, server?: { history: RouterHistory; nonce: string }) {
  return createRouter({
    routeTree,
    context,
    // On the server: the page's address, and the response's CSP nonce for the router's inline script (scroll restoration).
    ...(server ? { history: server.history, ssr: { nonce: server.nonce } } : {}),
    defaultPreload: 'intent',
    // TanStack Query owns freshness; the router always asks it (ensureQueryData answers from cache).
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    // A page that fails to render keeps the store's header and footer around the error.
    defaultErrorComponent: ErrorPage,
  });
}

export type StoreRouter = ReturnType<typeof createStoreRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: StoreRouter;
  }
}
