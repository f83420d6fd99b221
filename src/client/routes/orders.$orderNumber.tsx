import { createFileRoute } from '@tanstack/react-router';
import { OrderRoute } from '../components/orders/OrderPage';
import { PAYMENT_RETURNS, type PaymentReturn } from '../../shared/constants';
import { flag, oneOf, searchParams, text } from '../search-params';
import { requireSignedIn } from '../session/redirect';

// `placed`: the order was just placed here (the thank-you heading); `payment`: back from the
// card payment page, done or given up; `key`: a guest order's key, which opens it without an
// account (docs/adr/0027-guest-checkout.md). Without a key the order is one of the signed-in customer's.
const validateSearch = searchParams<{ placed?: boolean; payment?: PaymentReturn; key?: string }>()((raw) => ({
  placed: flag(raw.placed),
  payment: oneOf(PAYMENT_RETURNS, raw.payment),
  key: text(raw.key, 200),
}));

export const Route = createFileRoute('/orders/$orderNumber')({
  validateSearch,
  beforeLoad: async ({ context, location, search }) => {
    if (!search.key) await requireSignedIn({ context, location });
  },
  component: OrderRoute,
});
