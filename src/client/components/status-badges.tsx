import type { ContactStatus, OrderStatus, PaymentStatus, SubscriptionStatus } from '../../shared/constants';
import { formatCalendarDay } from '../../shared/dates';
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

/** A member's statuses, and a card join's while its first payment is on its way (shown to that member only). */
type MembershipStatus = SubscriptionStatus | 'incomplete';

export const SUBSCRIPTION_STATUS_LABELS: Record<MembershipStatus, string> = {
  incomplete: 'Awaiting payment',
  active: 'Active',
  paused: 'Paused',
  past_due: 'Past due',
  cancelled: 'Cancelled',
};
const SUBSCRIPTION_TONES: Record<MembershipStatus, BadgeTone> = {
  incomplete: 'amber',
  active: 'green',
  paused: 'amber',
  past_due: 'red',
  cancelled: 'stone',
};

/** A membership's state; one ending with its paid period reads "Cancels on Mar 31, 2027" until it ends. */
export const SubscriptionStatusBadge = ({
  status,
  cancelAt,
  testId,
}: {
  status: MembershipStatus;
  cancelAt: string | null;
  testId?: string;
}) =>
  status !== 'cancelled' && cancelAt !== null ? (
    <Badge tone="amber" asWritten testId={testId}>
      Cancels on {formatCalendarDay(cancelAt)}
    </Badge>
  ) : (
    // As written: "Past due", not "Past Due".
    <Badge tone={SUBSCRIPTION_TONES[status]} asWritten testId={testId}>
      {SUBSCRIPTION_STATUS_LABELS[status]}
    </Badge>
  );
