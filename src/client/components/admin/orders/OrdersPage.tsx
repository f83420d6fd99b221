import { useQuery } from '@tanstack/react-query';
import { Download, ShoppingCart } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useMutation } from '../../../mutations';
import { formatMoney } from '../../../../shared/money';
import { EMPTY_PRINT_QUEUE } from '../../../../shared/schemas/admin-orders';
import { ORDER_FILTERS, type OrderFilter } from '../../../../shared/constants';
import { formatDate } from '../../../../shared/dates';
import { useTRPC } from '../../../trpc';
import { OrderStatusBadge, PaymentStatusBadge } from '../../status-badges';
import { Button } from '../../ui/Button';
import { cardClass } from '../../ui/Card';
import { SearchField } from '../../ui/SearchField';
import { EmptyState, LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';
import { EnumSelect } from '../parts/EnumSelect';
import { ListPagination } from '../parts/paged-list';
import { PageHeader } from '../parts/PageHeader';
import { cell, OpenableRows } from '../parts/table';
import { OrderDetailModal } from './OrderDetailModal';
import { capitalize, customerEmail, customerName, givenName, PROVIDER_LABELS } from './order-look';
import { downloadPrintQueue } from './print-queue';

// The Orders screen (docs/PRODUCT.md § Screens and Reads and writes): a status filter, the server-paged table newest first, the
// detail modal of the clicked order, and Export Print Queue (a CSV download).

interface OrdersPageProps {
  status: OrderFilter;
  /** Part of an order number, a customer's name or email. */
  search: string | undefined;
  page: number;
  onStatusChange: (status: OrderFilter) => void;
  onSearch: (text: string) => void;
  onPageChange: (page: number) => void;
}

export function OrdersPage({ status, search, page, onStatusChange, onSearch, onPageChange }: OrdersPageProps) {
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.orders.list.queryOptions({ status, search, page }, { placeholderData: (previous) => previous }));
  const [openId, setOpenId] = useState<string | null>(null);

  // docs/PRODUCT.md § Messages: most admin list read errors are silent; keep a trace for whoever looks.
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

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <EnumSelect
          label="Status"
          className="w-full sm:w-64"
          values={ORDER_FILTERS}
          value={status}
          optionLabel={(value) => (value === 'all' ? 'All Orders' : value === 'needs_attention' ? 'Needs attention' : capitalize(value))}
          onChange={onStatusChange}
        />
        <SearchField
          label="Search orders"
          value={search ?? ''}
          onSearch={onSearch}
          placeholder="Order number, customer name or email..."
          className="w-full sm:w-80"
        />
      </div>

      <section aria-label="Orders" aria-busy={list.isFetching} className={`${cardClass} overflow-hidden`}>
        {list.isPending ? (
          <LoadingState label="Loading orders..." />
        ) : orders.length === 0 ? (
          <EmptyState title="No orders found" hint={search ? 'Try another search or filter.' : undefined} icon={ShoppingCart} />
        ) : (
          <>
            {/* Phones get one card per order; wider screens the table. */}
            <OpenableRows
              rows={orders}
              testId="order"
              columns={['Order', 'Customer', 'Date', 'Status', 'Payment', { label: 'Total', className: 'text-right' }]}
              onOpen={setOpenId}
              card={(order) => (
                <>
                  <span className="flex items-center justify-between gap-3">
                    <span className="font-semibold text-stone-900">{order.order_number}</span>
                    <span className="font-semibold text-stone-900 tabular-nums">{formatMoney(order.total)}</span>
                  </span>
                  <span className="mt-0.5 block truncate text-sm text-stone-700">
                    {givenName(order) && `${givenName(order)} · `}
                    <span className="text-stone-600">{customerEmail(order)}</span>
                  </span>
                  <span className="mt-2 flex flex-wrap items-center gap-2 text-xs text-stone-600">
                    {formatDate(order.created_at)}
                    <OrderStatusBadge status={order.status} />
                    <PaymentStatusBadge status={order.payment_status} />
                  </span>
                </>
              )}
              opener={(order) => order.order_number}
              openerCellClass="whitespace-nowrap"
              cells={(order) => (
                <>
                  <td className={cell}>
                    <span className="block font-medium whitespace-nowrap text-stone-900">{customerName(order)}</span>
                    {givenName(order) && <span className="block text-xs text-stone-600">{order.customer_email}</span>}
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
                </>
              )}
            />
          </>
        )}
      </section>

      <ListPagination list={list.data} itemLabel="orders" onChange={onPageChange} />

      {openId && <OrderDetailModal orderId={openId} onClose={() => setOpenId(null)} />}
    </div>
  );
}
