import { createFileRoute } from '@tanstack/react-router';
import { ReturnFromPayment } from '../components/orders/ReturnFromPayment';
import { oneOf, searchParams, text } from '../search-params';
import { PAYMENT_RETURNS, type PaymentReturn } from '../../shared/constants';

// Where the card payment page sends the buyer back (both when paid and when given up): a
// customer's order, or a guest's, whose key this tab kept when it went to pay.
const validateSearch = searchParams<{ order?: string; payment?: PaymentReturn }>()((raw) => ({
  order: text(raw.order),
  payment: oneOf(PAYMENT_RETURNS, raw.payment),
}));

export const Route = createFileRoute('/checkout_/complete')({
  validateSearch,
  component: ReturnFromPayment,
});
