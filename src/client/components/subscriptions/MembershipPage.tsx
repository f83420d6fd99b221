import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CalendarClock, Gift, Pause, Play, SkipForward, SlidersHorizontal, XCircle } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useMutation } from '../../mutations';
import { COLOUR_CHOICE_LABELS, COLOUR_CHOICES, SIZES, type ColourChoice, type Size } from '../../../shared/constants';
import { formatCalendarDay, formatDate } from '../../../shared/dates';
import { formatMoney } from '../../../shared/money';
import { toastError, UNEXPECTED_ERROR } from '../../errors';
import { useTRPC, type RouterOutputs } from '../../trpc';
import { planIntervalLabel } from '../info/plan-format';
import { OrderBadges } from '../orders/OrderBadges';
import { SubscriptionStatusBadge } from '../status-badges';
import { chosenCategoriesText, nextShipmentText, setToEnd } from '../subscription-schedule';
import { BackLink } from '../ui/BackLink';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Modal } from '../ui/Modal';
import { EmptyState, LoadingState } from '../ui/states';
import { toast } from '../ui/Toast';
import { useDocumentTitle } from '../ui/use-document-title';
import { CategoryChoices } from './CategoryChoices';
import { CancelMembershipDialog, cancellationTakesEffect, KeepMembershipButton, PauseMembershipDialog } from './MembershipDialogs';

// The member's page: each membership with its plan, status, size, categories, next
// shipment and past shipments' orders, and what the member can do: change size or categories,
// skip the next shipment, pause, resume, cancel at the end of the paid period, and keep it after
// all until that day.

type Membership = RouterOutputs['subscriptions']['mine'][number];

export function MembershipPage() {
  useDocumentTitle('My Subscription');
  const trpc = useTRPC();
  // While a card payment is on its way, Stripe's notice makes the membership active any second.
  const mine = useQuery({
    ...trpc.subscriptions.mine.queryOptions(),
    refetchInterval: (query) => (query.state.data?.some((membership) => membership.status === 'incomplete') ? 3000 : false),
  });

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <BackLink to="/dashboard">My Account</BackLink>
      <h1 className="font-display mt-4 text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">My Subscription</h1>
      <div className="mt-8 space-y-8">
        {mine.isPending ? (
          <LoadingState label="Loading your subscription..." />
        ) : !mine.data || mine.data.length === 0 ? (
          <EmptyState
            icon={Gift}
            title="You're not in the club yet"
            hint="A new exclusive tee every month or quarter, shipping included."
            link={{ to: '/subscriptions', label: 'See the plans', size: 'lg' }}
          />
        ) : (
          mine.data.map((membership) => <MembershipCard key={membership.id} membership={membership} />)
        )}
      </div>
    </div>
  );
}

type Dialog = 'change' | 'skip' | 'pause' | 'cancel' | null;

const ACTION_ROW = 'mt-6 flex flex-wrap gap-2 border-t border-stone-200 pt-6';

function MembershipCard({ membership }: { membership: Membership }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const done = (message: string) => async () => {
    setDialog(null);
    toast.success(message);
    await queryClient.invalidateQueries({ queryKey: trpc.subscriptions.mine.queryKey() });
  };
  const failed = toastError(UNEXPECTED_ERROR);
  const skip = useMutation(
    trpc.subscriptions.skipNext.mutationOptions({ onSuccess: done('Your next shipment is skipped'), onError: failed }),
  );
  const resume = useMutation(
    trpc.subscriptions.resume.mutationOptions({ onSuccess: done('Welcome back! Your subscription is active'), onError: failed }),
  );
  const pause = useMutation(trpc.subscriptions.pause.mutationOptions({ onSuccess: done('Your subscription is paused'), onError: failed }));
  const cancel = useMutation(
    trpc.subscriptions.cancel.mutationOptions({ onSuccess: done('Your subscription is cancelled'), onError: failed }),
  );
  const keep = useMutation(trpc.subscriptions.keep.mutationOptions({ onSuccess: done('Your membership will continue'), onError: failed }));

  const { status } = membership;
  const live = status !== 'cancelled' && status !== 'incomplete' && membership.cancel_at === null;
  const ending = setToEnd(membership);
  const nextShipment =
    status === 'incomplete' ? 'After your first payment' : nextShipmentText({ ...membership, status }, 'Paused until you resume');

  return (
    <Card
      spacious
      title={membership.plan_name}
      description={`${formatMoney(membership.price)} / ${planIntervalLabel(membership.billing_interval)}, shipping included`}
      actions={<SubscriptionStatusBadge status={status} cancelAt={membership.cancel_at} testId="subscription-status" />}
      data-testid="membership"
    >
      <dl className="grid gap-5 text-sm sm:grid-cols-2 lg:grid-cols-4">
        <Detail label="Shirt size" value={membership.size} />
        <Detail label="Shirt colours" value={COLOUR_CHOICE_LABELS[membership.colour_choice]} testId="shirt-colours" />
        <Detail label="Categories" value={chosenCategoriesText(membership)} />
        <Detail label="Next shipment" value={nextShipment} testId="next-shipment" />
      </dl>

      <PaymentNotice membership={membership} />

      {live && (
        <div className={ACTION_ROW}>
          <Button variant="secondary" size="sm" icon={SlidersHorizontal} onClick={() => setDialog('change')}>
            Change size or categories
          </Button>
          {membership.status === 'active' && !membership.skip_next && (
            <Button variant="secondary" size="sm" icon={SkipForward} onClick={() => setDialog('skip')}>
              Skip next shipment
            </Button>
          )}
          {membership.status === 'active' && (
            <Button variant="secondary" size="sm" icon={Pause} onClick={() => setDialog('pause')}>
              Pause
            </Button>
          )}
          {membership.status === 'paused' && (
            <Button
              size="sm"
              icon={Play}
              busy={resume.isPending}
              busyLabel="Resuming..."
              onClick={() => resume.mutate({ id: membership.id })}
            >
              Resume
            </Button>
          )}
          <Button variant="ghost-danger" size="sm" icon={XCircle} onClick={() => setDialog('cancel')}>
            Cancel subscription
          </Button>
        </div>
      )}
      {ending && (
        <div className={ACTION_ROW}>
          <KeepMembershipButton size="sm" busy={keep.isPending} onKeep={() => keep.mutate({ id: membership.id })}>
            Keep My Membership
          </KeepMembershipButton>
        </div>
      )}

      <PastShipments orders={membership.orders} />

      {dialog === 'skip' && (
        <ConfirmDialog
          title="Skip the next shipment?"
          message={`No shirt will be made or sent on ${formatCalendarDay(membership.next_cycle_on)}.`}
          confirmLabel="Skip shipment"
          busyLabel="Skipping..."
          busy={skip.isPending}
          onConfirm={() => skip.mutate({ id: membership.id })}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog === 'pause' && (
        <PauseMembershipDialog
          text={{
            title: 'Pause your subscription?',
            description: 'No shirts are made or sent while it is paused.',
            keepLabel: 'Keep it running',
          }}
          untilResumedLabel="Until I resume"
          busy={pause.isPending}
          onPause={(cycles) => pause.mutate({ id: membership.id, cycles })}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'cancel' && (
        <CancelMembershipDialog
          text={{
            title: 'Cancel your subscription?',
            description: `Your membership ends ${cancellationTakesEffect(membership)}; nothing more ships or is charged after that.`,
            keepLabel: 'Keep my subscription',
          }}
          reasonLabel="Why are you leaving? (optional)"
          busy={cancel.isPending}
          onCancel={(reason) => cancel.mutate({ id: membership.id, reason })}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'change' && (
        <ChangeDialog membership={membership} onDone={done('Your choices are saved')} onClose={() => setDialog(null)} />
      )}
    </Card>
  );
}

/** What the member must do about a payment: finish the first one, or pay what is overdue. */
function PaymentNotice({ membership }: { membership: Membership }) {
  if (membership.status === 'incomplete') {
    if (!membership.checkout_url) {
      return (
        <Notice>
          Your card payment was not made, so you have not joined yet.{' '}
          <Link to="/subscriptions/join/$planSlug" params={{ planSlug: membership.plan_slug }} className="font-semibold underline">
            Join again
          </Link>
        </Notice>
      );
    }
    return (
      <Notice>
        We are waiting for your card payment; this page updates as soon as it arrives. Left the payment page?{' '}
        <a href={membership.checkout_url} className="font-semibold underline">
          Continue to payment
        </a>
      </Notice>
    );
  }
  if (membership.status !== 'past_due') return null;
  return (
    <Notice>
      {membership.unpaid_invoice_url ? (
        <>
          Your last card payment did not go through, and shipments are on hold until it is paid.{' '}
          <a href={membership.unpaid_invoice_url} className="font-semibold underline">
            Pay invoice
          </a>
        </>
      ) : (
        'Your shipments are on hold until the unpaid order below is paid; its order page has the payment instructions.'
      )}
    </Notice>
  );
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="mt-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      {children}
    </p>
  );
}

function Detail({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-stone-500 uppercase">{label}</dt>
      <dd className="mt-1 font-medium text-stone-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function PastShipments({ orders }: { orders: Membership['orders'] }) {
  return (
    <section aria-label="Past shipments" className="mt-6 border-t border-stone-200 pt-6">
      <h3 className="flex items-center gap-2 text-sm font-semibold text-stone-900">
        <CalendarClock className="size-4 text-stone-500" aria-hidden="true" />
        Shipments
      </h3>
      {orders.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">No shipments yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-100 text-sm" data-testid="membership-orders">
          {orders.map((order) => (
            <li key={order.order_number} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
              <Link
                to="/orders/$orderNumber"
                params={{ orderNumber: order.order_number }}
                className="font-semibold text-stone-900 hover:underline"
              >
                {order.order_number}
              </Link>
              <span className="text-stone-600">{formatDate(order.created_at)}</span>
              <span className="flex gap-1.5">
                <OrderBadges order={order} />
              </span>
              <span className="font-medium text-stone-900">{formatMoney(order.total)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface DialogProps {
  membership: Membership;
  onDone: () => Promise<void>;
  onClose: () => void;
}

function ChangeDialog({ membership, onDone, onClose }: DialogProps) {
  const trpc = useTRPC();
  // The store's categories, also when the plan itself no longer takes new members.
  const categories = useQuery(trpc.catalog.categories.queryOptions());
  const [size, setSize] = useState<Size>(membership.size);
  const [colourChoice, setColourChoice] = useState<ColourChoice>(membership.colour_choice);
  const [picked, setPicked] = useState<string[]>(membership.category_ids);
  // A category of theirs that has left the store is not listed, so it neither counts nor is sent.
  // Until the list is there (or if it cannot be read) their choice stands as it is.
  const listed = categories.data;
  const chosen = listed ? picked.filter((id) => listed.some((category) => category.id === id)) : picked;
  const change = useMutation(
    trpc.subscriptions.changeChoices.mutationOptions({
      onSuccess: onDone,
      onError: toastError(UNEXPECTED_ERROR),
    }),
  );
  const limit = membership.category_limit;
  return (
    <Modal
      title="Change size or categories"
      onClose={onClose}
      busy={change.isPending}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={change.isPending}>
            Cancel
          </Button>
          <Button
            busy={change.isPending}
            busyLabel="Saving..."
            onClick={() => change.mutate({ id: membership.id, size, colourChoice, categoryIds: chosen })}
          >
            Save
          </Button>
        </>
      }
    >
      <label className="block text-sm font-medium text-stone-900" htmlFor="change-size">
        Shirt size
      </label>
      <select
        id="change-size"
        value={size}
        onChange={(event) => setSize(event.target.value as Size)}
        className="mt-2 block w-40 rounded-lg border border-stone-300 px-3 py-2 text-sm"
      >
        {SIZES.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <label className="mt-5 block text-sm font-medium text-stone-900" htmlFor="change-colours">
        Shirt colours
      </label>
      <select
        id="change-colours"
        value={colourChoice}
        onChange={(event) => setColourChoice(COLOUR_CHOICES.find((choice) => choice === event.target.value) ?? 'any')}
        className="mt-2 block w-40 rounded-lg border border-stone-300 px-3 py-2 text-sm"
      >
        {COLOUR_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {COLOUR_CHOICE_LABELS[choice]}
          </option>
        ))}
      </select>
      {limit > 0 && (
        <div className="mt-5">
          <CategoryChoices
            categories={categories.data ?? []}
            chosen={chosen}
            limit={limit}
            onChange={setPicked}
            legend={`Categories (up to ${limit})`}
          />
        </div>
      )}
    </Modal>
  );
}
