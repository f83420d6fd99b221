import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Navigate } from '@tanstack/react-router';
import { guestOrders } from '../../cart/guest-orders';
import { useMe } from '../../session/session';
import { useTRPC } from '../../trpc';
import { LoadingState } from '../ui/states';
import { OrderNotFound } from './OrderPage';

const route = getRouteApi('/checkout_/complete');

/**
 * Back from the card payment page: on to the order itself, which says whether the payment went
 * through. A guest's order opens with the key this tab kept when it went to pay; a customer's by
 * its number on their account.
 */
export function ReturnFromPayment() {
  const { order, payment } = route.useSearch();
  const trpc = useTRPC();
  const me = useMe().data;
  const guest = order ? guestOrders.find(order) : undefined;
  const number = useQuery(
    trpc.orders.numberOf.queryOptions({ id: order ?? '' }, { enabled: Boolean(order) && !guest && Boolean(me), retry: false }),
  );
  if (guest) {
    return (
      <Navigate to="/orders/$orderNumber" params={{ orderNumber: guest.orderNumber }} search={{ payment, key: guest.accessKey }} replace />
    );
  }
  if (order && (me === undefined || (me && number.isPending))) return <LoadingState label="Opening your order..." />;
  if (number.data) return <Navigate to="/orders/$orderNumber" params={{ orderNumber: number.data }} search={{ payment }} replace />;
  return (
    <OrderNotFound>
      This link does not lead to one of your orders. If you checked out without an account, the link in your order confirmation email opens
      your order.
    </OrderNotFound>
  );
}
