import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Pause, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useMutation } from '../../../mutations';
import { formatCalendarDay, formatDate, formatDateTime } from '../../../../shared/dates';
import { toastError, UNEXPECTED_ERROR } from '../../../errors';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { PaymentStatusBadge, SubscriptionStatusBadge } from '../../status-badges';
import { chosenCategoriesText, nextShipmentText, setToEnd } from '../../subscription-schedule';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/Toast';
import { OrderDetailModal } from '../orders/OrderDetailModal';
import { customerName, PROVIDER_LABELS } from '../orders/order-look';
import { DetailSection, Fact } from '../parts/Fact';
import { RecordModal } from '../parts/RecordModal';
import {
  CancelMembershipDialog,
  cancellationTakesEffect,
  KeepMembershipButton,
  PauseMembershipDialog,
} from '../../subscriptions/MembershipDialogs';
import { planPrice, UNTIL_RESUMED } from './subscriber-look';

// One member of the club: who they are, their plan and choices, where shirts go, their
// cycles (each order opens in the order's own modal), and Pause and Cancel on the member's behalf,
// each confirmed first, or Keep for one set to end. The member is emailed by the server as if they
// had done it themselves.

type Member = RouterOutputs['admin']['subscribers']['get'];
type Dialog = 'pause' | 'cancel' | null;

export function SubscriberDetailModal({ subscriptionId, onClose }: { subscriptionId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const member = useQuery(trpc.admin.subscribers.get.queryOptions({ id: subscriptionId }));
  const [dialog, setDialog] = useState<Dialog>(null);
  const [openOrderId, setOpenOrderId] = useState<string | null>(null);

  const applyChange = (updated: Member, message: string) => {
    setDialog(null);
    toast.success(message);
    queryClient.setQueryData(trpc.admin.subscribers.get.queryKey({ id: subscriptionId }), updated);
    void queryClient.invalidateQueries({ queryKey: trpc.admin.subscribers.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.admin.dashboard.overview.queryKey() });
  };

  const failed = toastError(UNEXPECTED_ERROR);
  const pause = useMutation(
    trpc.admin.subscribers.pause.mutationOptions({ onSuccess: (updated) => applyChange(updated, 'Subscription paused'), onError: failed }),
  );
  const cancel = useMutation(
    trpc.admin.subscribers.cancel.mutationOptions({
      onSuccess: (updated) =>
        applyChange(
          updated,
          updated.status === 'cancelled' ? 'Subscription cancelled' : `Subscription cancels on ${formatCalendarDay(updated.cancel_at!)}`,
        ),
      onError: failed,
    }),
  );
  const keep = useMutation(
    trpc.admin.subscribers.keep.mutationOptions({
      onSuccess: (updated) => applyChange(updated, 'Subscription will continue'),
      onError: failed,
    }),
  );

  const data = member.data;
  const cancelling = data ? setToEnd(data) : false;
  const canPause = data?.status === 'active' && !cancelling;
  const canCancel = data ? data.status !== 'cancelled' && !cancelling : false;

  return (
    <>
      <RecordModal
        title={data ? customerName(data) : 'Subscriber'}
        description={data ? `${data.plan_name} member` : undefined}
        query={member}
        loadingLabel="Loading subscriber..."
        notFoundLabel="Subscription not found"
        onClose={onClose}
      >
        {(data) => (
          <div className="space-y-6" data-testid="subscriber-detail">
            <dl className="grid gap-x-6 gap-y-4 text-sm sm:grid-cols-3">
              <Fact label="Customer" valueClass="mt-0.5 break-all text-stone-800">
                {data.customer_email}
              </Fact>
              <Fact label="Plan">
                {data.plan_name} · <span className="tabular-nums">{planPrice(data)}</span>
              </Fact>
              <Fact label="Status" valueClass="mt-1" testId="subscriber-detail-status">
                <SubscriptionStatusBadge status={data.status} cancelAt={data.cancel_at} />
              </Fact>
              <Fact label="Size">{data.size}</Fact>
              <Fact label="Categories">{chosenCategoriesText(data)}</Fact>
              <Fact label="Next shipment" testId="subscriber-next-shipment">
                {nextShipmentText(data, UNTIL_RESUMED)}
              </Fact>
              <Fact label="Ship to">
                {data.shipping_address.name && <span className="block">{data.shipping_address.name}</span>}
                {data.shipping_address.street}, {data.shipping_address.city}, {data.shipping_address.state} {data.shipping_address.zip},{' '}
                {data.shipping_address.country}
              </Fact>
              <Fact label="Joined">{formatDate(data.created_at)}</Fact>
              <Fact label="Payment">{PROVIDER_LABELS[data.payment_provider]}</Fact>
              {data.cancelled_at && <Fact label="Cancelled">{formatDateTime(data.cancelled_at)}</Fact>}
              {data.cancel_reason && (
                <Fact label="Reason for cancelling" valueClass="mt-0.5 break-words whitespace-pre-wrap text-stone-800">
                  {data.cancel_reason}
                </Fact>
              )}
            </dl>

            {(canPause || canCancel || cancelling) && (
              <div className="flex flex-wrap gap-2">
                {canPause && (
                  <Button variant="secondary" icon={Pause} onClick={() => setDialog('pause')}>
                    Pause
                  </Button>
                )}
                {canCancel && (
                  <Button variant="secondary-danger" icon={XCircle} onClick={() => setDialog('cancel')}>
                    Cancel subscription
                  </Button>
                )}
                {cancelling && (
                  <KeepMembershipButton variant="secondary" busy={keep.isPending} onKeep={() => keep.mutate({ id: data.id })}>
                    Keep subscription
                  </KeepMembershipButton>
                )}
              </div>
            )}

            <DetailSection title="Shipments">
              {data.cycles.length === 0 ? (
                <p className="mt-2 text-sm text-stone-600">No shipments yet.</p>
              ) : (
                <ul className="mt-2 divide-y divide-stone-100 rounded-lg border border-stone-200 text-sm" data-testid="subscriber-cycles">
                  {data.cycles.map((cycle) => (
                    <li key={cycle.cycle_start} className="flex flex-wrap items-center gap-x-4 gap-y-1.5 px-3 py-2.5">
                      <span className="w-28 font-medium text-stone-900">{formatCalendarDay(cycle.cycle_start)}</span>
                      <Badge tone={cycle.outcome === 'ordered' ? 'blue' : 'stone'}>{cycle.outcome}</Badge>
                      {cycle.order_id && cycle.order_number ? (
                        <>
                          <button
                            type="button"
                            className="font-semibold text-stone-900 underline underline-offset-4 hover:text-accent-700"
                            onClick={() => setOpenOrderId(cycle.order_id)}
                            aria-label={`Open order ${cycle.order_number}`}
                          >
                            {cycle.order_number}
                          </button>
                          {cycle.payment_status && <PaymentStatusBadge status={cycle.payment_status} named />}
                        </>
                      ) : (
                        cycle.outcome === 'ordered' && <span className="text-stone-600">Order deleted</span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </DetailSection>
          </div>
        )}
      </RecordModal>

      {/* Beside the member's modal, not inside it: each dialog handles its own Escape and backdrop. */}
      {data && dialog === 'pause' && (
        <PauseMembershipDialog
          text={{
            title: 'Pause this subscription?',
            description: `No shirts are made or sent to ${data.customer_email} while it is paused. They are emailed about it.`,
            keepLabel: 'Keep it running',
          }}
          untilResumedLabel="Until the member resumes"
          busy={pause.isPending}
          onPause={(cycles) => pause.mutate({ id: data.id, cycles })}
          onClose={() => setDialog(null)}
        />
      )}
      {data && dialog === 'cancel' && (
        <CancelMembershipDialog
          text={{
            title: 'Cancel this subscription?',
            description: `The membership of ${data.customer_email} ends ${cancellationTakesEffect(data)}; nothing more ships or is charged after that. They are emailed about it.`,
            keepLabel: 'Keep subscription',
          }}
          reasonLabel="Reason (optional)"
          busy={cancel.isPending}
          onCancel={(reason) => cancel.mutate({ id: data.id, reason })}
          onClose={() => setDialog(null)}
        />
      )}
      {openOrderId && (
        <OrderDetailModal
          orderId={openOrderId}
          onClose={() => {
            setOpenOrderId(null);
            // The order may have been paid or refunded meanwhile.
            void queryClient.invalidateQueries({ queryKey: trpc.admin.subscribers.get.queryKey({ id: subscriptionId }) });
          }}
        />
      )}
    </>
  );
}
