import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App';
import { createStoreRouter } from './router';
import { SERVER_STATE_ELEMENT_ID } from './server-state';
import { queryClient, trpc, trpcClient } from './trpc';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const router = createStoreRouter({ queryClient, trpc, origin: window.location.origin });
const serverState = document.getElementById(SERVER_STATE_ELEMENT_ID);

if (serverState?.textContent) {
  // The server rendered this page: start from its query results, load the same route (its loaders
  // find their data in the cache, so nothing is fetched again), then take over the server's HTML.
  const state = JSON.parse(serverState.textContent) as DehydratedState;
  // A kept page is as current as the catalog whenever it is sent (it goes at every change), however
  // long ago it was rendered: its answers count as read now, and are not read again at once.
  const now = Date.now();
  for (const query of state.queries) query.state.dataUpdatedAt = now;
  hydrate(queryClient, state);
  // Tells the router the page came from the server, so it renders the tree as the server did
  // (no Suspense boundary around the root) and hydration matches.
  router.ssr = { manifest: undefined };
  // Evaluating the modules is one task; the route's loading gets its own (after a timeout), and in
  // a transition React hydrates in slices of a few milliseconds, between which the browser handles
  // input and paints, instead of in one long task while the page already looks ready.
  void new Promise((resolve) => setTimeout(resolve))
    .then(() => router.load())
    .then(() =>
      startTransition(() => {
        hydrateRoot(container, <App router={router} queryClient={queryClient} trpcClient={trpcClient} />);
      }),
    );
} else {
  createRoot(container).render(<App router={router} queryClient={queryClient} trpcClient={trpcClient} />);
}
