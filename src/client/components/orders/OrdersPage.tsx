import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ChevronRight, ShoppingBag } from 'lucide-react';
import { formatDate } from '../../../shared/dates';
import { formatMoney } from '../../../shared/money';
import { useTRPC, type RouterOutputs } from '../../trpc';
import { ProductImage } from '../catalog/ProductImage';
import { OrderBadges } from './OrderBadges';
import { EmptyState, LoadingState } from '../ui/states';
import { KEEP_PREVIOUS_PAGE, Pagination } from '../ui/Pagination';
import { useDocumentTitle } from '../ui/use-document-title';
import { BackLink } from '../ui/BackLink';

const route = getRouteApi('/_account/orders/');

type OrderSummaryRow = RouterOutputs['orders']['list']['orders'][number];

export function OrdersPage() {
  useDocumentTitle('My Orders');
  const trpc = useTRPC();
  const { page = 1 } = route.useSearch();
  const navigate = route.useNavigate();
  const list = useQuery(trpc.orders.list.queryOptions({ page }, KEEP_PREVIOUS_PAGE));
  const data = list.data;

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <BackLink to="/dashboard">My Account</BackLink>
      <h1 className="font-display mt-4 text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">My Orders</h1>
      <div className="mt-8">
        {!data ? (
          <LoadingState label="Loading your orders..." />
        ) : data.orders.length === 0 ? (
          <NoOrdersYet />
        ) : (
          <>
            <OrderList orders={data.orders} />
            <div className="mt-6">
              <Pagination
                list={data}
                itemLabel="orders"
                onChange={(next) => void navigate({ search: { page: next === 1 ? undefined : next } })}
              />
            </div>
          </>
        )}
      </div>
    </div>
  );
}

/** The spec's Recent Orders empty text, shared by My Account and My Orders. */
export function NoOrdersYet() {
  return (
    <EmptyState
      icon={ShoppingBag}
      title="No orders yet"
      hint="When you place an order, it will show up here."
      link={{ to: '/shop', label: 'Start Shopping', size: 'lg' }}
    />
  );
}

/** Orders as rows linking to each order: picture, number, date, statuses, items and total. */
export function OrderList({ orders }: { orders: OrderSummaryRow[] }) {
  return (
    <ul className="divide-y divide-stone-200 overflow-hidden rounded-2xl border border-stone-200 bg-white" data-testid="order-list">
      {orders.map((order) => (
        <li key={order.id}>
          <Link
            to="/orders/$orderNumber"
            params={{ orderNumber: order.order_number }}
            className="flex items-center gap-4 p-4 transition hover:bg-stone-50 sm:p-5"
            data-testid="order-row"
          >
            <div className="relative aspect-[4/5] w-14 shrink-0 overflow-hidden rounded-lg bg-stone-100 ring-1 ring-stone-900/5">
              <ProductImage image={order.thumbnail} alt="" sizes="56px" className="absolute inset-0 size-full object-cover" />
            </div>
            <div className="min-w-0 flex-1">
              <p className="font-semibold text-stone-950">
                Order <span data-testid="order-number">{order.order_number}</span>
              </p>
              <p className="mt-0.5 text-sm text-stone-600">
                {formatDate(order.created_at)} · {order.items.item_count === 1 ? '1 item' : `${order.items.item_count} items`} ·{' '}
                {formatMoney(order.total)}
              </p>
              <div className="mt-2 flex flex-wrap gap-1.5">
                <OrderBadges order={order} />
              </div>
            </div>
            <ChevronRight className="size-5 shrink-0 text-stone-400" aria-hidden="true" />
          </Link>
        </li>
      ))}
    </ul>
  );
}
