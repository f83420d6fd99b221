import { createRouter, parseSearchWith, type RouterHistory } from '@tanstack/react-router';
import { ErrorPage } from './components/ErrorPage';
import type { RouterContext } from './router-context';
import { routeTree } from './routeTree.gen';

/** Deeper than any search param of ours is nested (they are flat). */
const MAX_SEARCH_NESTING = 8;

function nestedDeeperThan(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  return depth === 0 || Object.values(value).some((child) => nestedDeeperThan(child, depth - 1));
}

/**
 * JSON in search params, as the router reads it by default, except values nested deeper than ours
 * are: those stay text. The router writes what it read back into the address, and a value nested
 * thousands deep (`?a=[[[[…]]]]`, a 10 KB URL) overflowed the stack there, failing the page.
 */
const parseSearch = parseSearchWith((text) => {
  const value: unknown = JSON.parse(text);
  if (nestedDeeperThan(value, MAX_SEARCH_NESTING)) throw new RangeError('Search param nested too deep');
  return value;
});

/** The store's router: one in the browser, and one per page the server renders (with a memory history). */
export function createStoreRouter(context: RouterContext, server?: { history: RouterHistory; nonce: string }) {
  return createRouter({
    routeTree,
    context,
    parseSearch,
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
