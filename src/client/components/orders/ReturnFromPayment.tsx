import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Navigate } from '@tanstack/react-router';
import { useTRPC } from '../../trpc';
import { LoadingState } from '../ui/states';
import { OrderNotFound } from './OrderPage';

const route = getRouteApi('/_account/checkout/complete');

/** Back from the card payment page: on to the order itself, which says whether the payment went through. */
export function ReturnFromPayment() {
  const { order, payment } = route.useSearch();
  const trpc = useTRPC();
  const number = useQuery(trpc.orders.numberOf.queryOptions({ id: order ?? '' }, { enabled: Boolean(order), retry: false }));
  if (order && number.isPending) return <LoadingState label="Opening your order..." />;
  if (number.data) return <Navigate to="/orders/$orderNumber" params={{ orderNumber: number.data }} search={{ payment }} replace />;
  return <OrderNotFound>This link does not lead to one of your orders.</OrderNotFound>;
}
