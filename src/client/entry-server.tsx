import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { App } from './App';
import { dataOf } from './error-data';
import { createStoreRouter } from './router';
import type { RouterContext } from './router-context';
import { renderHead } from './seo/render-head';
import { storeConfig, type StoreConfig } from './store-config';
import { createQueryClient, createTrpcOptions, type TrpcClient } from './trpc';

// The server's side of server rendering (docs/adr/0010-server-rendering.md): built by Vite as a
// module of its own (`vite build --ssr`), loaded by src/server/http/client.ts, which gives it a
// tRPC client calling the router in-process as the visitor.

export type RenderResult = RenderedPage | { redirect: string; status: number };

export interface RenderedPage {
  /** 200; 404 for an unknown page, product or category; 503 when a read failed on the server. */
  status: number;
  /** Elements for <head>: title, description, canonical URL, Open Graph and JSON-LD. */
  head: string;
  /** The page's markup, for #root. */
  html: string;
  /** The query cache the page was rendered from, as JSON safe inside a script element. */
  state: string;
}

export interface RenderSettings {
  /** The store's public origin, for absolute URLs in the head. */
  origin: string;
  /** The response's CSP nonce for scripts. */
  nonce: string;
  /** The settings the browser reads from index.html (store-config.ts), which the server has no page to read from. */
  storeConfig: StoreConfig;
}

let matcher: ReturnType<typeof createStoreRouter> | undefined;

/**
 * Whether the store has a page at this path, for the pages the browser renders (their status):
 * the route tree is matched without loading anything, so the router's context goes unread. The
 * match is fuzzy, as for not-found pages: a layout matched with the rest of the path left over
 * (under "**") is no page.
 */
export function hasPage(pathname: string): boolean {
  matcher ??= createStoreRouter({} as RouterContext);
  const [, params, route] = matcher.getMatchedRoutes(pathname);
  return route !== undefined && !('**' in params);
}

/**
 * Whether a read failed on the server's side (the database out of reach, say): the page shows its
 * empty states (docs/PRODUCT.md § Messages), and its status tells crawlers to come back rather than take them for it.
 */
function failedRead(queryClient: QueryClient): boolean {
  return queryClient
    .getQueryCache()
    .getAll()
    .some((query) => {
      if (query.state.status !== 'error') return false;
      const httpStatus = dataOf(query.state.error)?.httpStatus;
      return httpStatus === undefined || httpStatus >= 500;
    });
}

export async function renderPage(
  url: string,
  { origin, nonce, storeConfig: settings }: RenderSettings,
  trpcClient: TrpcClient,
): Promise<RenderResult> {
  Object.assign(storeConfig, settings);
  const queryClient = createQueryClient('on-server');
  const router = createStoreRouter(
    { queryClient, trpc: createTrpcOptions(trpcClient, queryClient), origin },
    { history: createMemoryHistory({ initialEntries: [url] }), nonce },
  );
  await router.load();
  // The server's outcome of the load (typed, if underscored): a redirect for an address the router
  // writes differently (a search param dropped or defaulted), else the status of what it renders.
  const outcome = router._serverResult;
  if (outcome?.type === 'redirect') {
    return { redirect: outcome.redirect.headers.get('Location') ?? '/', status: outcome.redirect.status };
  }
  // Loaders start some reads without waiting (the browser shows their loading states); a page sent
  // from the server has them all.
  await Promise.allSettled(
    queryClient
      .getQueryCache()
      .findAll({ fetchStatus: 'fetching' })
      .flatMap((query) => (query.promise ? [query.promise] : [])),
  );
  // Taken before rendering: what the client starts from must be what the server rendered from,
  // not also the reads a component started while rendering.
  const state = JSON.stringify(dehydrate(queryClient)).replace(/</g, '\\u003c');
  const rendered = renderToString(<App router={router} queryClient={queryClient} trpcClient={trpcClient} />);
  // React writes the resources it hoists (preload() calls, images it fetches early) ahead of the
  // markup: they belong in <head>, and in #root they would not match what the client hydrates.
  const hoisted = /^(?:<link [^>]*>)*/.exec(rendered)?.[0] ?? '';
  const html = rendered.slice(hoisted.length);
  return {
    status: outcome?.status === 404 ? 404 : failedRead(queryClient) ? 503 : (outcome?.status ?? 200),
    head: renderHead(router.state.matches, origin) + hoisted,
    html,
    state,
  };
}
