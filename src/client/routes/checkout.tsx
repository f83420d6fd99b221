import { createFileRoute, Navigate, redirect } from '@tanstack/react-router';
import { cart } from '../cart/cart';
import { useCartView } from '../cart/use-cart-view';
import { CheckoutPage } from '../components/checkout/CheckoutPage';
import { prefetchQuietly } from '../prefetch';
import { currentUser } from '../session/redirect';
import { useMe } from '../session/session';

// The login page sends the user back to `redirect` after signing in.
const LOGIN_SEARCH = { redirect: '/checkout' };

export const Route = createFileRoute('/checkout')({
  // An empty cart goes to /cart first: signing in would only lead there anyway (docs/PRODUCT.md § Screens and Roles).
  beforeLoad: async ({ context }) => {
    if (cart.getLines().length === 0) throw redirect({ to: '/cart', replace: true });
    const me = await currentUser(context);
    if (!me) throw redirect({ to: '/login', search: LOGIN_SEARCH, replace: true });
  },
  loader: ({ context: { queryClient, trpc } }) => prefetchQuietly(queryClient, trpc.account.profile.queryOptions()),
  component: CheckoutRoute,
});

function CheckoutRoute() {
  const me = useMe().data;
  const view = useCartView();
  // Signed out or emptied in another tab while this page is open (an order placed empties it too,
  // and the page then leaves for the order itself).
  if (me === null) return <Navigate to="/login" search={LOGIN_SEARCH} replace />;
  if (view.lines.length === 0) return <Navigate to="/cart" replace />;
  return <CheckoutPage email={me?.email ?? ''} view={view} />;
}
