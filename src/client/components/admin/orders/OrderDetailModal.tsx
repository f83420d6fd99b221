import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BadgeCheck, Save, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation } from '../../../mutations';
import { FALLBACK_PRODUCT_IMAGE, ORDER_STATUSES, PRINT_STATUSES } from '../../../../shared/constants';
import { formatMoney } from '../../../../shared/money';
import { discountLine } from '../../../../shared/schemas/discounts';
import {
  printStatusUpdateError,
  statusUpdateError,
  trackingNumberForm,
  trackingUpdateError,
  type TrackingNumberFormInput,
  type TrackingNumberFormOutput,
} from '../../../../shared/schemas/admin-orders';
import { formatDateTime } from '../../../../shared/dates';
import { toastError, UNEXPECTED_ERROR } from '../../../errors';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { ORDER_EVENT_LABELS } from '../../orders/order-events';
import { OrderStatusBadge, PaymentStatusBadge } from '../../status-badges';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { TextField } from '../../ui/fields';
import { Form } from '../../ui/Form';
import { EnumSelect } from '../parts/EnumSelect';
import { DetailSection, Fact } from '../parts/Fact';
import { RecordModal } from '../parts/RecordModal';
import { addressLine, capitalize, customerName, givenName, PROVIDER_LABELS } from './order-look';

// One order (docs/PRODUCT.md § Screens, States and Messages): its items with print status selects, the order status
// select, the tracking number, the payment (mark paid, refund) and its history. Each change is
// saved at once; the screen shows what the server answered, so a failed change leaves the old
// value in place with the spec's error message.

type OrderDetail = RouterOutputs['admin']['orders']['get'];

export function OrderDetailModal({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const order = useQuery(trpc.admin.orders.get.queryOptions({ id: orderId }));

  const applyChange = (updated: OrderDetail) => {
    queryClient.setQueryData(trpc.admin.orders.get.queryKey({ id: orderId }), updated);
    void queryClient.invalidateQueries({
      queryKey: trpc.admin.orders.list.queryKey(),
    });
  };
  const setStatus = useMutation(
    trpc.admin.orders.setStatus.mutationOptions({
      onSuccess: applyChange,
      onError: toastError(UNEXPECTED_ERROR, statusUpdateError),
    }),
  );
  const setPrintStatus = useMutation(
    trpc.admin.orders.setItemPrintStatus.mutationOptions({
      onSuccess: applyChange,
      onError: toastError(UNEXPECTED_ERROR, printStatusUpdateError),
    }),
  );

  const data = order.data;
  const title = data ? `Order ${data.order_number}` : 'Order';

  return (
    <RecordModal title={title} query={order} loadingLabel="Loading order..." notFoundLabel="Order not found" onClose={onClose}>
      {(data) => (
        <div className="space-y-6" data-testid="order-detail">
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
            <div className="min-w-0" data-testid="order-customer">
              <dt className="text-xs font-medium text-stone-500">Customer</dt>
              <dd className="mt-0.5 font-medium break-words text-stone-900">{customerName(data)}</dd>
              {givenName(data) && <dd className="break-words text-stone-600">{data.customer_email}</dd>}
            </div>
            <Fact label="Placed">{formatDateTime(data.created_at)}</Fact>
            <Fact label="Last updated" testId="order-updated-at">
              {formatDateTime(data.updated_at)}
            </Fact>
            <Fact label="Status" valueClass="mt-1">
              <OrderStatusBadge status={data.status} />
            </Fact>
            <Fact label="Payment" valueClass="mt-1 flex flex-wrap items-center gap-1.5">
              <PaymentStatusBadge status={data.payment_status} />
              <span className="text-xs text-stone-600" data-testid="payment-provider">
                {PROVIDER_LABELS[data.payment_provider]}
              </span>
            </Fact>
            <Fact label="Ship to">{addressLine(data.shipping_address)}</Fact>
          </dl>
          {data.notes && <p className="rounded-lg bg-stone-50 p-3 text-sm break-words whitespace-pre-wrap text-stone-700">{data.notes}</p>}

          <PaymentActions order={data} onChanged={applyChange} />

          <div className="grid gap-4 sm:grid-cols-2">
            <EnumSelect
              label="Order Status"
              values={ORDER_STATUSES}
              value={data.status}
              optionLabel={capitalize}
              disabled={setStatus.isPending}
              onChange={(status) => setStatus.mutate({ id: data.id, status })}
            />
            {/* Keyed by the saved value, so the form starts again from what the server holds. */}
            <TrackingNumberForm key={data.tracking_number ?? ''} orderId={data.id} saved={data.tracking_number} onSaved={applyChange} />
          </div>

          <DetailSection title="Items">
            <ul className="mt-2 divide-y divide-stone-100 rounded-lg border border-stone-200">
              {data.items.map((item) => (
                <li key={item.id} data-testid="order-item" className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center">
                  <div className="flex min-w-0 flex-1 items-center gap-3">
                    <img
                      src={item.product_image ?? FALLBACK_PRODUCT_IMAGE}
                      alt=""
                      className="size-14 shrink-0 rounded-md border border-stone-200 bg-stone-50 object-cover"
                      loading="lazy"
                    />
                    <div className="min-w-0 text-sm">
                      <p className="font-semibold break-words text-stone-900">{item.product_name}</p>
                      <p className="text-xs text-stone-600">
                        SKU {item.variant_sku ?? item.sku_number ?? 'N/A'} · {item.colour_name ? `Colour ${item.colour_name} · ` : ''}Size{' '}
                        {item.size} · Qty {item.quantity}
                      </p>
                      <p className="text-xs text-stone-600 tabular-nums">
                        {formatMoney(item.unit_price)} each ·{' '}
                        <span className="font-semibold text-stone-900">{formatMoney(item.total_price)}</span>
                      </p>
                    </div>
                  </div>
                  <EnumSelect
                    label={`Print status of ${item.product_name} (${item.size})`}
                    hideLabel
                    className="w-full sm:w-40"
                    values={PRINT_STATUSES}
                    value={item.print_status}
                    optionLabel={capitalize}
                    disabled={setPrintStatus.isPending && setPrintStatus.variables.itemId === item.id}
                    onChange={(printStatus) => setPrintStatus.mutate({ itemId: item.id, printStatus })}
                  />
                </li>
              ))}
            </ul>
          </DetailSection>

          <dl className="ml-auto w-full max-w-xs space-y-1 text-sm tabular-nums">
            <TotalLine label="Subtotal" amount={data.subtotal} />
            <TotalLine label="Tax" amount={data.tax} />
            <TotalLine label="Shipping" amount={data.shipping_cost} />
            {data.discount_code && <DiscountTotalLine code={data.discount_code} amount={data.discount} />}
            <TotalLine label="Total" amount={data.total} total />
          </dl>

          <OrderHistory order={data} />
        </div>
      )}
    </RecordModal>
  );
}

/** A line of the order's amounts; the total is set apart under a rule. */
function TotalLine({ label, amount, total = false }: { label: string; amount: string; total?: boolean }) {
  return (
    <div className={total ? 'flex justify-between border-t border-stone-200 pt-1 font-semibold text-stone-950' : 'flex justify-between'}>
      <dt className={total ? undefined : 'text-stone-600'}>{label}</dt>
      <dd>{formatMoney(amount)}</dd>
    </div>
  );
}

/** The applied code and what it took off: "Discount (LAUNCH20)" "−$9.99". */
function DiscountTotalLine({ code, amount }: { code: string; amount: string }) {
  const [label, value] = discountLine(code, amount);
  return (
    <div className="flex justify-between">
      <dt className="text-stone-600">{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function OrderHistory({ order }: { order: OrderDetail }) {
  return (
    <DetailSection title="History">
      <ol className="mt-2 space-y-1 text-sm" data-testid="order-history">
        {order.events.map((event, index) => (
          <li key={`${event.kind}-${index}`} className="flex justify-between gap-4">
            <span className="text-stone-800">{ORDER_EVENT_LABELS[event.kind]}</span>
            <span className="text-stone-500">{formatDateTime(event.created_at)}</span>
          </li>
        ))}
      </ol>
    </DetailSection>
  );
}

interface TrackingNumberFormProps {
  orderId: string;
  saved: string | null;
  onSaved: (order: OrderDetail) => void;
}

function TrackingNumberForm({ orderId, saved, onSaved }: TrackingNumberFormProps) {
  const trpc = useTRPC();
  const form = useForm<TrackingNumberFormInput, unknown, TrackingNumberFormOutput>({
    resolver: zodResolver(trackingNumberForm),
    defaultValues: { trackingNumber: saved ?? '' },
  });
  const save = useMutation(
    trpc.admin.orders.setTrackingNumber.mutationOptions({
      onSuccess: onSaved,
      onError: toastError(UNEXPECTED_ERROR, trackingUpdateError),
    }),
  );
  return (
    <Form
      form={form}
      className="flex items-start gap-2"
      onSubmit={(values) => save.mutate({ id: orderId, trackingNumber: values.trackingNumber ?? '' })}
    >
      <TextField name="trackingNumber" label="Tracking Number" className="min-w-0 flex-1" autoComplete="off" />
      <Button type="submit" icon={Save} busy={save.isPending} busyLabel="Saving..." className="mt-7">
        Save
      </Button>
    </Form>
  );
}

/**
 * Mark as paid (a hand-paid order waiting for its money) and Refund (any paid order), each after a
 * confirmation; the customer is emailed by the server.
 */
function PaymentActions({ order, onChanged }: { order: OrderDetail; onChanged: (order: OrderDetail) => void }) {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState<'paid' | 'refund' | null>(null);
  const showError = toastError(UNEXPECTED_ERROR);
  const options = {
    onSuccess: (updated: OrderDetail) => {
      setConfirming(null);
      onChanged(updated);
    },
    onError: (error: unknown) => {
      setConfirming(null);
      showError(error);
    },
  };
  const markPaid = useMutation(trpc.admin.orders.markPaid.mutationOptions(options));
  const refund = useMutation(trpc.admin.orders.refund.mutationOptions(options));
  const canMarkPaid = order.payment_provider === 'manual' && order.payment_status === 'pending' && order.status !== 'cancelled';
  const canRefund = order.payment_status === 'paid';
  if (!canMarkPaid && !canRefund) return null;
  // Either confirmation runs its mutation on this order; Cancel closes it.
  const confirmation = (mutation: { isPending: boolean; mutate: (input: { id: string }) => void }) => ({
    busy: mutation.isPending,
    onConfirm: () => mutation.mutate({ id: order.id }),
    onCancel: () => setConfirming(null),
  });
  return (
    <div className="flex flex-wrap gap-2">
      {canMarkPaid && (
        <Button icon={BadgeCheck} onClick={() => setConfirming('paid')}>
          Mark as Paid
        </Button>
      )}
      {canRefund && (
        <Button variant="secondary-danger" icon={Undo2} onClick={() => setConfirming('refund')}>
          Refund
        </Button>
      )}
      {confirming === 'paid' && (
        <ConfirmDialog
          tone="default"
          title="Mark this order paid?"
          message={`The payment of ${formatMoney(order.total)} arrived. The order goes to the print queue and the customer is emailed.`}
          confirmLabel="Mark as Paid"
          busyLabel="Updating..."
          {...confirmation(markPaid)}
        />
      )}
      {confirming === 'refund' && (
        <ConfirmDialog
          title="Refund this order?"
          message={
            order.payment_provider === 'stripe'
              ? `${formatMoney(order.total)} goes back to the customer's card through Stripe, and the customer is emailed.`
              : `Record that ${formatMoney(order.total)} was returned to the customer. The customer is emailed.`
          }
          confirmLabel="Refund"
          busyLabel="Refunding..."
          {...confirmation(refund)}
        />
      )}
    </div>
  );
}
