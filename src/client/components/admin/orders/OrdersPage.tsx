import { useMutation, useQuery } from '@tanstack/react-query';
import { Download, ShoppingCart } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatMoney } from '../../../../shared/money';
import { EMPTY_PRINT_QUEUE, ORDER_FILTERS, type OrderFilter } from '../../../../shared/schemas/admin-orders';
import { formatDate } from '../../../../shared/dates';
import { useTRPC } from '../../../trpc';
import { OrderStatusBadge, PaymentStatusBadge } from '../../status-badges';
import { Button } from '../../ui/Button';
import { cardClass } from '../../ui/Card';
import { Pagination } from '../../ui/Pagination';
import { EmptyState, LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';
import { EnumSelect } from '../parts/EnumSelect';
import { PageHeader } from '../parts/PageHeader';
import { ClickableRow, TableHead } from '../parts/table';
import { OrderDetailModal } from './OrderDetailModal';
import { capitalize, customerName, PROVIDER_LABELS } from './order-look';
import { downloadPrintQueue } from './print-queue';

// The Orders screen (SPEC §2, §7): a status filter, the server-paged table newest first, the
// detail modal of the clicked order, and Export Print Queue (a CSV download).

interface OrdersPageProps {
  status: OrderFilter;
  page: number;
  onStatusChange: (status: OrderFilter) => void;
  onPageChange: (page: number) => void;
}

const headCell = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-stone-600 uppercase';
const cell = 'px-4 py-3 text-sm';

export function OrdersPage({ status, page, onStatusChange, onPageChange }: OrdersPageProps) {
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.orders.list.queryOptions({ status, page }, { placeholderData: (previous) => previous }));
  const [openId, setOpenId] = useState<string | null>(null);

  // SPEC §8: most admin list read errors are silent; keep a trace for whoever looks.
  useEffect(() => {
    if (list.error) console.warn('Failed to load orders', list.error);
  }, [list.error]);

  const exportQueue = useMutation({
    mutationFn: downloadPrintQueue,
    onSuccess: (outcome) => {
      if (outcome === 'empty') toast.error(EMPTY_PRINT_QUEUE);
    },
    onError: (error) => toast.error(error.message),
  });

  const orders = list.data?.orders ?? [];

  return (
    <div>
      <PageHeader
        title="Orders"
        subtitle="Manage customer orders and the print queue"
        actions={
          <Button variant="secondary" icon={Download} busy={exportQueue.isPending} onClick={() => exportQueue.mutate()}>
            Export Print Queue
          </Button>
        }
      />

      <EnumSelect
        label="Status"
        className="mb-4 w-full sm:w-64"
        values={ORDER_FILTERS}
        value={status}
        optionLabel={(value) => (value === 'all' ? 'All Orders' : capitalize(value))}
        onChange={onStatusChange}
      />

      <section aria-label="Orders" aria-busy={list.isFetching} className={`${cardClass} overflow-hidden`}>
        {list.isPending ? (
          <LoadingState label="Loading orders..." />
        ) : orders.length === 0 ? (
          <EmptyState title="No orders found" icon={ShoppingCart} />
        ) : (
          <>
            {/* Phones get one card per order; wider screens the table. */}
            <ul className="divide-y divide-stone-100 sm:hidden">
              {orders.map((order) => (
                <li key={order.id}>
                  <button
                    type="button"
                    data-testid="order-card"
                    className="block w-full px-4 py-3.5 text-left hover:bg-stone-50"
                    onClick={() => setOpenId(order.id)}
                  >
                    <span className="flex items-center justify-between gap-3">
                      <span className="font-semibold text-stone-900">{order.order_number}</span>
                      <span className="font-semibold text-stone-900 tabular-nums">{formatMoney(order.total)}</span>
                    </span>
                    <span className="mt-0.5 block truncate text-sm text-stone-700">
                      {customerName(order)} · <span className="text-stone-600">{order.customer_email}</span>
                    </span>
                    <span className="mt-2 flex flex-wrap items-center gap-2 text-xs text-stone-600">
                      {formatDate(order.created_at)}
                      <OrderStatusBadge status={order.status} />
                      <PaymentStatusBadge status={order.payment_status} />
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            <div className="hidden overflow-x-auto sm:block">
              <table className="min-w-full divide-y divide-stone-200">
                <TableHead
                  className="bg-stone-50"
                  cellClass={headCell}
                  columns={['Order', 'Customer', 'Date', 'Status', 'Payment', { label: 'Total', className: 'text-right' }]}
                />
                <tbody className="divide-y divide-stone-100">
                  {orders.map((order) => (
                    <ClickableRow key={order.id} testId="order-row" onClick={() => setOpenId(order.id)}>
                      <td className={`${cell} whitespace-nowrap`}>
                        {/* The keyboard's way in; a click anywhere on the row does the same. */}
                        <button
                          type="button"
                          className="font-semibold text-stone-900 underline-offset-4 hover:underline"
                          onClick={() => setOpenId(order.id)}
                        >
                          {order.order_number}
                        </button>
                      </td>
                      <td className={cell}>
                        <span className="block font-medium whitespace-nowrap text-stone-900">{customerName(order)}</span>
                        <span className="block text-xs text-stone-600">{order.customer_email}</span>
                      </td>
                      <td className={`${cell} whitespace-nowrap text-stone-700`}>{formatDate(order.created_at)}</td>
                      <td className={cell}>
                        <OrderStatusBadge status={order.status} />
                      </td>
                      <td className={cell}>
                        <PaymentStatusBadge status={order.payment_status} />
                        <span className="mt-1 block text-xs text-stone-500">{PROVIDER_LABELS[order.payment_provider]}</span>
                      </td>
                      <td className={`${cell} text-right font-semibold whitespace-nowrap text-stone-900 tabular-nums`}>
                        {formatMoney(order.total)}
                      </td>
                    </ClickableRow>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>

      {list.data && list.data.total > 0 && (
        <div className="mt-4">
          <Pagination list={list.data} itemLabel="orders" onChange={onPageChange} />
        </div>
      )}

      {openId && <OrderDetailModal orderId={openId} onClose={() => setOpenId(null)} />}
    </div>
  );
}
