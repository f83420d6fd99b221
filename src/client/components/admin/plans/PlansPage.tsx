import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { Check, Pencil, Plus, Power, PowerOff, Repeat, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { AppRouter } from '../../../../server/trpc/router';
import { formatMoney } from '../../../../shared/money';
import { ADMIN_INTERVAL_LABELS, planDeleteError, planSaveError } from '../../../../shared/schemas/admin-plans';
import { useTRPC } from '../../../trpc';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState, LoadingState } from '../ui/states';
import { ActiveBadge, StatusBadge } from '../ui/StatusBadge';
import { accentButton, card, iconButton, secondaryButton } from '../ui/styles';
import { useToast } from '../ui/Toast';
import { PlanFormModal, type EditedPlan } from './PlanFormModal';

// The Subscriptions screen (SPEC §2): every plan as a card, the create / edit modal, activate /
// deactivate, delete after a confirmation, with the spec's error texts (SPEC §8).

type PlanRow = inferRouterOutputs<AppRouter>['admin']['plans']['list'][number];

type ModalState = { mode: 'closed' } | { mode: 'new' } | { mode: 'edit'; plan: EditedPlan };

const toEdited = (plan: PlanRow): EditedPlan => ({
  id: plan.id,
  name: plan.name,
  slug: plan.slug,
  description: plan.description,
  price: Number(plan.price),
  billing_interval: plan.billing_interval,
  category_limit: plan.category_limit,
  is_active: plan.is_active,
  features: plan.features,
});

export function PlansPage() {
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.plans.list.queryOptions());
  const [modal, setModal] = useState<ModalState>({ mode: 'closed' });
  const [deleting, setDeleting] = useState<PlanRow | null>(null);
  const actions = usePlanActions(() => setDeleting(null));
  const plans = list.data ?? [];
  const addButton = (
    <button type="button" className={accentButton} onClick={() => setModal({ mode: 'new' })}>
      <Plus className="size-4" aria-hidden="true" />
      Add Plan
    </button>
  );

  return (
    <div>
      <PageHeader title="Subscription Plans" subtitle="The plans of the t-shirt club, active or not" actions={addButton} />

      {list.isPending ? (
        <LoadingState label="Loading plans..." />
      ) : plans.length === 0 ? (
        <div className={card}>
          <EmptyState title="No plans yet" hint="Create the first plan of the club." icon={Repeat} action={addButton} />
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Plans">
          {plans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              busy={actions.isBusy(plan.id)}
              onEdit={() => setModal({ mode: 'edit', plan: toEdited(plan) })}
              onToggle={() => actions.setActive(plan, !plan.is_active)}
              onDelete={() => setDeleting(plan)}
            />
          ))}
        </ul>
      )}

      {modal.mode !== 'closed' && <PlanFormModal editing={modal.mode === 'edit' ? modal.plan : null} onClose={() => setModal({ mode: 'closed' })} />}

      {deleting && (
        <ConfirmDialog
          title="Delete plan?"
          message={`"${deleting.name}" will be removed from the subscription club. This cannot be undone.`}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={actions.isBusy(deleting.id)}
          onConfirm={() => actions.remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}

function usePlanActions(onDeleteSettled: () => void) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.admin.plans.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.subscriptions.pathKey() }),
    ]);

  const setActive = useMutation(
    trpc.admin.plans.setActive.mutationOptions({
      onSuccess: (row) => toast.success(`"${row.name}" is now ${row.is_active ? 'active' : 'inactive'}.`),
      onError: (error) => toast.error(planSaveError(error.message)),
      onSettled: refresh,
    }),
  );
  const remove = useMutation(
    trpc.admin.plans.delete.mutationOptions({
      onSuccess: () => toast.success('Plan deleted.'),
      onError: (error) => toast.error(planDeleteError(error.message)),
      onSettled: async () => {
        onDeleteSettled();
        await refresh();
      },
    }),
  );
  const pendingIds = useMutationState({
    filters: { mutationKey: trpc.admin.plans.pathKey(), status: 'pending' },
    select: (mutation) => (mutation.state.variables as { id?: string } | undefined)?.id,
  });

  return {
    isBusy: (id: string) => pendingIds.includes(id),
    setActive: (plan: PlanRow, isActive: boolean) => setActive.mutate({ id: plan.id, is_active: isActive }),
    remove: (plan: PlanRow) => remove.mutate({ id: plan.id }),
  };
}

const smallButton = `${secondaryButton} h-8 px-3 text-xs`;

function PlanCard({ plan, busy, onEdit, onToggle, onDelete }: { plan: PlanRow; busy: boolean; onEdit: () => void; onToggle: () => void; onDelete: () => void }) {
  const limit = plan.category_limit === 0 ? 'All categories' : plan.category_limit === 1 ? '1 category' : `${plan.category_limit} categories`;
  return (
    <li className={`${card} flex flex-col p-5 ${plan.is_active ? '' : 'bg-stone-50'}`} data-testid="plan-card" data-slug={plan.slug}>
      {/* The content grows, so the actions line up at the bottom of every card in a row. */}
      <div className="flex-1">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 className="font-display text-lg font-bold text-stone-950">{plan.name}</h2>
            <p className="truncate text-sm text-stone-500">/{plan.slug}</p>
          </div>
          <ActiveBadge active={plan.is_active} />
        </div>
        <p className="mt-3 text-stone-950" data-testid="plan-price">
          <span className="font-display text-3xl font-extrabold tracking-tight">{formatMoney(plan.price)}</span>
          <span className="text-sm font-medium text-stone-600">/{ADMIN_INTERVAL_LABELS[plan.billing_interval]}</span>
        </p>
        <div className="mt-2 flex flex-wrap gap-1.5">
          <StatusBadge tone={plan.category_limit === 0 ? 'orange' : 'blue'} testId="plan-limit">
            {limit}
          </StatusBadge>
        </div>
        {plan.description && <p className="mt-3 text-sm text-stone-600">{plan.description}</p>}
        {plan.features.length > 0 && (
          <ul className="mt-3 space-y-1.5 text-sm text-stone-700" aria-label={`${plan.name} features`}>
            {plan.features.map((feature, index) => (
              <li key={index} className="flex gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                {feature}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="mt-5 flex flex-wrap gap-1.5 border-t border-stone-200 pt-4">
        <button type="button" className={smallButton} onClick={onEdit} aria-label={`Edit ${plan.name}`}>
          <Pencil className="size-3.5" aria-hidden="true" />
          Edit
        </button>
        <button type="button" className={smallButton} disabled={busy} onClick={onToggle} aria-label={`${plan.is_active ? 'Deactivate' : 'Activate'} ${plan.name}`}>
          {plan.is_active ? <PowerOff className="size-3.5" aria-hidden="true" /> : <Power className="size-3.5" aria-hidden="true" />}
          {plan.is_active ? 'Deactivate' : 'Activate'}
        </button>
        {/* Icon-only and set apart at the end, so the three actions fit one line of a narrow card. */}
        <button
          type="button"
          className={`${iconButton} ml-auto size-8 text-red-700 hover:bg-red-50 hover:text-red-800`}
          disabled={busy}
          onClick={onDelete}
          aria-label={`Delete ${plan.name}`}
          title="Delete plan"
        >
          <Trash2 className="size-4" aria-hidden="true" />
        </button>
      </div>
    </li>
  );
}
