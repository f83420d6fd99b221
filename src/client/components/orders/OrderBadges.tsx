import type { OrderStatus, PaymentStatus } from '../../../shared/constants';
import { OrderStatusBadge, PaymentStatusBadge } from '../status-badges';

/** An order's status and its payment's, side by side as the customer's pages show them; the caller lays them out. */
export function OrderBadges({ order }: { order: { status: OrderStatus; payment_status: PaymentStatus } }) {
  return (
    <>
      <OrderStatusBadge status={order.status} />
      <PaymentStatusBadge status={order.payment_status} named />
    </>
  );
}
