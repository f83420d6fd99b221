import { useQuery } from '@tanstack/react-query';
import { Check, Plus, Repeat } from 'lucide-react';
import { useState } from 'react';
import { useMutation } from '../../../mutations';
import { formatMoney } from '../../../../shared/money';
import { ADMIN_INTERVAL_LABELS, planDeleteError, planSaveError } from '../../../../shared/schemas/admin-plans';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { ActiveBadge, Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card, cardClass } from '../../ui/Card';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState, LoadingState } from '../../ui/states';
import { PageHeader } from '../parts/PageHeader';
import { activeAndDeleteOptions, ActiveToggleButton, DeleteIconButton, EditButton, usePendingIds } from '../parts/row-actions';
import { useInvalidate } from '../parts/use-invalidate';
import { PlanFormModal, type EditedPlan } from './PlanFormModal';

// The Subscriptions screen (docs/PRODUCT.md § Screens): every plan as a card, the create / edit modal, activate /
// deactivate, delete after a confirmation, with the spec's error texts (docs/PRODUCT.md § Messages).

type PlanRow = RouterOutputs['admin']['plans']['list'][number];

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
  updatedAt: plan.updated_at,
});

export function PlansPage() {
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.plans.list.queryOptions());
  const [modal, setModal] = useState<ModalState>({ mode: 'closed' });
  const [deleting, setDeleting] = useState<PlanRow | null>(null);
  const actions = usePlanActions(() => setDeleting(null));
  const plans = list.data ?? [];
  const addButton = (
    <Button variant="accent" icon={Plus} onClick={() => setModal({ mode: 'new' })}>
      Add Plan
    </Button>
  );

  return (
    <div>
      <PageHeader title="Subscription Plans" subtitle="The plans of the t-shirt club, active or not" actions={addButton} />

      {list.isPending ? (
        <LoadingState label="Loading plans..." />
      ) : plans.length === 0 ? (
        <Card>
          <EmptyState title="No plans yet" hint="Create the first plan of the club." icon={Repeat} action={addButton} />
        </Card>
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

      {modal.mode !== 'closed' && (
        <PlanFormModal editing={modal.mode === 'edit' ? modal.plan : null} onClose={() => setModal({ mode: 'closed' })} />
      )}

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
  // The public subscriptions page reads subscriptions.*: refresh it with the admin list.
  const refresh = useInvalidate(trpc.admin.plans.list.queryKey(), trpc.subscriptions.pathKey());

  const options = activeAndDeleteOptions({
    refresh,
    deleted: 'Plan deleted.',
    activeError: planSaveError,
    deleteError: planDeleteError,
    onDeleteSettled,
  });
  const setActive = useMutation(trpc.admin.plans.setActive.mutationOptions(options.setActive));
  const remove = useMutation(trpc.admin.plans.delete.mutationOptions(options.remove));
  const isBusy = usePendingIds(trpc.admin.plans.pathKey());

  return {
    isBusy,
    setActive: (plan: PlanRow, isActive: boolean) => setActive.mutate({ id: plan.id, is_active: isActive }),
    remove: (plan: PlanRow) => remove.mutate({ id: plan.id }),
  };
}

function PlanCard({
  plan,
  busy,
  onEdit,
  onToggle,
  onDelete,
}: {
  plan: PlanRow;
  busy: boolean;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
}) {
  const limit =
    plan.category_limit === 0 ? 'All categories' : plan.category_limit === 1 ? '1 category' : `${plan.category_limit} categories`;
  return (
    <li className={`${cardClass} flex flex-col p-5 ${plan.is_active ? '' : 'bg-stone-50'}`} data-testid="plan-card" data-slug={plan.slug}>
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
          <Badge tone={plan.category_limit === 0 ? 'orange' : 'blue'} testId="plan-limit">
            {limit}
          </Badge>
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
        <EditButton name={plan.name} onEdit={onEdit} />
        <ActiveToggleButton name={plan.name} active={plan.is_active} busy={busy} onToggle={onToggle} />
        {/* Set apart at the end, so the three actions fit one line of a narrow card. */}
        <DeleteIconButton name={plan.name} title="Delete plan" busy={busy} onDelete={onDelete} className="ml-auto" />
      </div>
    </li>
  );
}
