import { createFileRoute } from '@tanstack/react-router';
import { OrderPage } from '../../../components/orders/OrderPage';
import { PAYMENT_RETURNS, type PaymentReturn } from '../../../../shared/constants';
import { flag, oneOf, searchParams } from '../../../search-params';

// `placed`: the order was just placed here (the thank-you heading); `payment`: back from the
// card payment page, done or given up.
const validateSearch = searchParams<{ placed?: boolean; payment?: PaymentReturn }>()((raw) => ({
  placed: flag(raw.placed),
  payment: oneOf(PAYMENT_RETURNS, raw.payment),
}));

export const Route = createFileRoute('/_account/orders/$orderNumber')({
  validateSearch,
  component: OrderPage,
});
