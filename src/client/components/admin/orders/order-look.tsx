import type { OrderStatus, PaymentStatus } from '../../../../shared/constants';
import { StatusBadge, type BadgeTone } from '../ui/StatusBadge';

// How order and payment statuses look in the list and the detail modal.

const ORDER_TONES: Record<OrderStatus, BadgeTone> = {
  pending: 'amber',
  processing: 'blue',
  shipped: 'purple',
  delivered: 'green',
  cancelled: 'stone',
};
const PAYMENT_TONES: Record<PaymentStatus, BadgeTone> = {
  paid: 'green',
  pending: 'amber',
  failed: 'red',
  refunded: 'stone',
};

export const OrderStatusBadge = ({ status }: { status: OrderStatus }) => (
  <StatusBadge tone={ORDER_TONES[status]} testId="order-status">
    {status}
  </StatusBadge>
);

export const PaymentStatusBadge = ({ status }: { status: PaymentStatus }) => (
  <StatusBadge tone={PAYMENT_TONES[status]} testId="payment-status">
    {status}
  </StatusBadge>
);

export const capitalize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** "Jane Rider" or, without a name, the email. */
export const customerName = (order: { customer_first_name: string; customer_last_name: string; customer_email: string }) =>
  [order.customer_first_name, order.customer_last_name].filter(Boolean).join(' ') || order.customer_email;
