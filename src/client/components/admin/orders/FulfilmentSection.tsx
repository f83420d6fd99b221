import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Printer, RotateCcw, Send } from 'lucide-react';
import type { FulfilmentState } from '../../../../shared/constants';
import { centsToAmount, formatMoney, toCents } from '../../../../shared/money';
import { toastError, UNEXPECTED_ERROR } from '../../../errors';
import { useMutation } from '../../../mutations';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { Button } from '../../ui/Button';
import { DetailSection, Fact } from '../parts/Fact';

// Where a paid order stands at Printful (docs/adr/0035): its state with the provider's reason, a
// link to it in Printful's dashboard, the provider's cost and the margin, the packages with their
// tracking, and Send to Printful, Confirm for printing and Retry where they apply. Nothing shows in
// a shop that prints its own orders.

type OrderDetail = RouterOutputs['admin']['orders']['get'];

const STATE_LABELS: Record<FulfilmentState, string> = {
  queued: 'Queued',
  draft: 'Draft at Printful',
  in_production: 'In production',
  shipped: 'Shipped',
  needs_attention: 'Needs attention',
  cancelled: 'Cancelled at Printful',
};

export function fulfilmentStateLabel(order: Pick<OrderDetail, 'fulfilment_state' | 'fulfilment_reason' | 'payment_status'>): string {
  if (order.fulfilment_state === null) return order.payment_status === 'paid' ? 'Not sent to Printful' : 'Waiting for payment';
  const label = STATE_LABELS[order.fulfilment_state];
  return order.fulfilment_state === 'needs_attention' && order.fulfilment_reason ? `${label}: ${order.fulfilment_reason}` : label;
}

export function FulfilmentSection({ order }: { order: OrderDetail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.admin.fulfilment.settings.queryOptions());
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.admin.orders.get.queryKey({ id: order.id }) });
    void queryClient.invalidateQueries({ queryKey: trpc.admin.orders.list.queryKey() });
  };
  const options = { onSuccess: refresh, onError: toastError(UNEXPECTED_ERROR) };
  const send = useMutation(trpc.admin.fulfilment.send.mutationOptions(options));
  const confirm = useMutation(trpc.admin.fulfilment.confirm.mutationOptions(options));
  const retry = useMutation(trpc.admin.fulfilment.retry.mutationOptions(options));

  if (settings.data?.provider !== 'printful' && order.fulfilment_state === null) return null;
  const state = order.fulfilment_state;
  const canSend =
    order.payment_status === 'paid' &&
    order.status !== 'cancelled' &&
    order.provider_order_url === null &&
    (state === null || state === 'needs_attention');
  const canConfirm = state === 'draft' && order.fulfilmentJob?.step !== 'confirm';
  const failing =
    (state === 'queued' || state === 'draft') && Boolean(order.fulfilmentJob?.last_error) && order.fulfilmentJob?.status === 'pending';
  const canRetry = state === 'needs_attention' || failing;
  const margin = order.fulfilment_cost === null ? null : centsToAmount(toCents(order.total) - toCents(order.fulfilment_cost));

  return (
    <DetailSection title="Printing">
      <dl className="mt-2 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3" data-testid="order-fulfilment">
        <Fact label="Fulfilment" testId="fulfilment-state">
          <span className={state === 'needs_attention' ? 'font-semibold text-red-700' : 'font-medium text-stone-900'}>
            {fulfilmentStateLabel(order)}
          </span>
          {order.provider_order_url && (
            <a
              href={order.provider_order_url}
              target="_blank"
              rel="noreferrer"
              className="mt-1 flex items-center gap-1 text-xs text-stone-700 underline"
            >
              Open in Printful <ExternalLink aria-hidden className="size-3" />
            </a>
          )}
        </Fact>
        <Fact label="Printful cost">{order.fulfilment_cost === null ? 'Not known yet' : formatMoney(order.fulfilment_cost)}</Fact>
        <Fact label="Margin">{margin === null ? '—' : formatMoney(margin)}</Fact>
      </dl>
      {failing && <p className="mt-2 text-xs text-stone-600">Last try: {order.fulfilmentJob?.last_error}</p>}
      {order.shipments.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm" data-testid="order-packages">
          {order.shipments.map((shipment) => (
            <li key={shipment.id}>
              {shipment.carrier}{' '}
              <a href={shipment.tracking_url} target="_blank" rel="noreferrer" className="underline">
                {shipment.tracking_number}
              </a>
            </li>
          ))}
        </ul>
      )}
      {(canSend || canConfirm || canRetry) && (
        <div className="mt-3 flex flex-wrap gap-2">
          {canSend && (
            <Button icon={Send} busy={send.isPending} busyLabel="Sending..." onClick={() => send.mutate({ id: order.id })}>
              Send to Printful
            </Button>
          )}
          {canConfirm && (
            <Button icon={Printer} busy={confirm.isPending} busyLabel="Confirming..." onClick={() => confirm.mutate({ id: order.id })}>
              Confirm for printing
            </Button>
          )}
          {canRetry && !canSend && (
            <Button
              variant="secondary"
              icon={RotateCcw}
              busy={retry.isPending}
              busyLabel="Retrying..."
              onClick={() => retry.mutate({ id: order.id })}
            >
              Retry
            </Button>
          )}
        </div>
      )}
    </DetailSection>
  );
}
