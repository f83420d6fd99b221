import type { ContactStatus, OrderStatus, PaymentStatus } from '../../shared/constants';
import { Badge, type BadgeTone } from './ui/Badge';

// How the store's statuses look wherever they are shown (admin lists and details, customer pages).

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
const CONTACT_TONES: Record<ContactStatus, BadgeTone> = { new: 'orange', read: 'blue', resolved: 'green' };

export const OrderStatusBadge = ({ status }: { status: OrderStatus }) => (
  <Badge tone={ORDER_TONES[status]} testId="order-status">
    {status}
  </Badge>
);

/** `named` says "Payment pending" rather than "pending", for pages where it stands beside the order's status. */
export const PaymentStatusBadge = ({ status, named = false }: { status: PaymentStatus; named?: boolean }) => (
  <Badge tone={PAYMENT_TONES[status]} testId="payment-status">
    {named ? `Payment ${status}` : status}
  </Badge>
);

const CONTACT_LABELS: Record<ContactStatus, string> = { new: 'New', read: 'Read', resolved: 'Resolved' };

export const ContactStatusBadge = ({ status, testId }: { status: ContactStatus; testId?: string }) => (
  <Badge tone={CONTACT_TONES[status]} testId={testId}>
    {CONTACT_LABELS[status]}
  </Badge>
);
