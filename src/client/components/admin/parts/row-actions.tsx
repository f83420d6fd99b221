import { useMutationState, type MutationKey } from '@tanstack/react-query';
import { Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Button, iconButtonClass } from '../../ui/Button';
import { toast } from '../../ui/Toast';

// The small actions of a category or plan: Edit, Activate / Deactivate and a Delete icon, each
// named for screen readers with the thing it acts on, and the options of their mutations.

/** The look of a list row's text actions (these, a user's, an email's Retry Now). */
export function RowButton(props: Omit<ComponentProps<typeof Button>, 'variant' | 'size'>) {
  return <Button variant="secondary" size="xs" {...props} />;
}

export function EditButton({ name, onEdit }: { name: string; onEdit: () => void }) {
  return (
    <RowButton icon={Pencil} onClick={onEdit} aria-label={`Edit ${name}`}>
      Edit
    </RowButton>
  );
}

export function ActiveToggleButton({
  name,
  active,
  busy,
  onToggle,
}: {
  name: string;
  active: boolean;
  busy: boolean;
  onToggle: () => void;
}) {
  return (
    <RowButton
      icon={active ? PowerOff : Power}
      disabled={busy}
      onClick={onToggle}
      aria-label={`${active ? 'Deactivate' : 'Activate'} ${name}`}
    >
      {active ? 'Deactivate' : 'Activate'}
    </RowButton>
  );
}

/**
 * The options of a row's Activate / Deactivate and Delete mutations (categories, plans): the
 * alerts, each screen's error texts, and the list re-read when either settles.
 *
 *   const options = activeAndDeleteOptions({ refresh, deleted: 'Plan deleted.', activeError: planSaveError, ... });
 *   const setActive = useMutation(trpc.admin.plans.setActive.mutationOptions(options.setActive));
 */
export function activeAndDeleteOptions({
  refresh,
  deleted,
  activeError,
  deleteError,
  onDeleteSettled,
}: {
  refresh: () => Promise<unknown>;
  deleted: string;
  activeError: (message: string) => string;
  deleteError: (message: string) => string;
  onDeleteSettled: () => void;
}) {
  return {
    setActive: {
      onSuccess: (row: { name: string; is_active: boolean }) =>
        toast.success(`"${row.name}" is now ${row.is_active ? 'active' : 'inactive'}.`),
      onError: (error: { message: string }) => toast.error(activeError(error.message)),
      onSettled: refresh,
    },
    remove: {
      onSuccess: () => toast.success(deleted),
      onError: (error: { message: string }) => toast.error(deleteError(error.message)),
      onSettled: async () => {
        onDeleteSettled();
        await refresh();
      },
    },
  };
}

/** Icon-only, so a row of actions fits a phone's width. */
export function DeleteIconButton({
  name,
  title,
  busy,
  onDelete,
  className = '',
}: {
  name: string;
  title: string;
  busy: boolean;
  onDelete: () => void;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={`${iconButtonClass('danger')} ${className}`}
      disabled={busy}
      onClick={onDelete}
      aria-label={`Delete ${name}`}
      title={title}
    >
      <Trash2 className="size-4" aria-hidden="true" />
    </button>
  );
}

/**
 * Whether a mutation under `mutationKey` is changing the row with this id right now (several rows
 * may be busy at once). `idField` names the id in the mutations' input.
 */
export function usePendingIds(mutationKey: MutationKey, idField = 'id'): (id: string) => boolean {
  const ids = useMutationState({
    filters: { mutationKey, status: 'pending' },
    select: (mutation) => (mutation.state.variables as Record<string, unknown> | undefined)?.[idField],
  });
  return (id) => ids.includes(id);
}
