import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Navigate, redirect } from '@tanstack/react-router';
import { cart } from '../cart/cart';
import { useCartView } from '../cart/use-cart-view';
import { CheckoutPage } from '../components/checkout/CheckoutPage';
import { LoadingState } from '../components/ui/states';
import { prefetchQuietly } from '../prefetch';
import { currentUser } from '../session/redirect';
import { useMe } from '../session/session';
import { useTRPC } from '../trpc';

// The login page sends the user back to `redirect` after signing in (and a sign-up's confirmation link too).
const LOGIN_SEARCH = { redirect: '/checkout' };

export const Route = createFileRoute('/checkout')({
  // An empty cart goes to /cart first: there is nothing to check out (docs/PRODUCT.md § Screens and Roles).
  // A signed-out visitor checks out as a guest, unless the shop has turned that off.
  beforeLoad: async ({ context }) => {
    if (cart.getLines().length === 0) throw redirect({ to: '/cart', replace: true });
    if (await currentUser(context)) return;
    const guestsAllowed = await context.queryClient.fetchQuery(context.trpc.checkout.guestsAllowed.queryOptions()).catch(() => true);
    if (!guestsAllowed) throw redirect({ to: '/login', search: LOGIN_SEARCH, replace: true });
  },
  loader: async ({ context }) => {
    if (await currentUser(context)) await prefetchQuietly(context.queryClient, context.trpc.account.profile.queryOptions());
  },
  component: CheckoutRoute,
});

function CheckoutRoute() {
  const trpc = useTRPC();
  const me = useMe();
  const guestsAllowed = useQuery({ ...trpc.checkout.guestsAllowed.queryOptions(), enabled: me.data === null });
  const view = useCartView();
  // Emptied in another tab while this page is open (an order placed empties it too, and the page
  // then leaves for the order itself).
  if (view.lines.length === 0) return <Navigate to="/cart" replace />;
  if (me.data) return <CheckoutPage account={{ email: me.data.email }} view={view} />;
  if (me.data === undefined || guestsAllowed.isPending) return <LoadingState label="Loading checkout..." />;
  // Signed out in another tab, with guest checkout turned off.
  if (guestsAllowed.data === false) return <Navigate to="/login" search={LOGIN_SEARCH} replace />;
  return <CheckoutPage account={null} view={view} />;
}
