import { createRootRouteWithContext, Outlet, useRouterState } from '@tanstack/react-router';
import { ErrorPage } from '../components/ErrorPage';
import { Footer } from '../components/layout/Footer';
import { Header } from '../components/layout/Header';
import { Toaster } from '../components/ui/Toast';
import { NotFoundPage } from '../components/NotFoundPage';
import { shippingPolicyOptions } from '../cart/shipping-policy';
import { prefetchQuietly } from '../prefetch';
import type { RouterContext } from '../router-context';
import { pageHead } from '../seo/page-head';
import { LiveSession } from '../session/live';

export const Route = createRootRouteWithContext<RouterContext>()({
  // The header needs the active categories on every page, and the shipping promise shows on the
  // home, product, cart and help pages. Who is signed in is not read here: pages rendered on the
  // server are the same for every visitor (docs/adr/0026-storefront-pages-kept-with-the-catalog.md),
  // so the header reads it in the browser once the page is up.
  loader: ({ context: { queryClient, trpc } }) =>
    Promise.all([
      prefetchQuietly(queryClient, trpc.catalog.categories.queryOptions()),
      prefetchQuietly(queryClient, shippingPolicyOptions(trpc)),
    ]),
  // The store's title and description for a page whose route gives none, and for an unknown
  // address (the router marks the root match that shows its not-found page, typed if underscored).
  head: ({ match }) => (match._notFound ? pageHead({ title: 'Page Not Found', noIndex: true }) : pageHead({})),
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

function RootLayout() {
  // The back office keeps the store's header (Admin badge, Sign Out) but not the shoppers' footer.
  const inBackOffice = useRouterState({ select: (state) => state.location.pathname.startsWith('/admin') });
  return (
    <div className="flex min-h-dvh flex-col">
      <LiveSession />
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-stone-900 px-4 py-2 text-sm font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <Header />
      <main id="main-content" className="flex-1" tabIndex={-1}>
        <Outlet />
      </main>
      {!inBackOffice && <Footer />}
      <Toaster />
    </div>
  );
}
