import { useMutationState, type MutationKey } from '@tanstack/react-query';
import { Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import { Button, iconButtonClass } from '../../ui/Button';

// The small actions of a category or plan: Edit, Activate / Deactivate and a Delete icon, each
// named for screen readers with the thing it acts on.

export function EditButton({ name, onEdit }: { name: string; onEdit: () => void }) {
  return (
    <Button variant="secondary" size="xs" icon={Pencil} onClick={onEdit} aria-label={`Edit ${name}`}>
      Edit
    </Button>
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
    <Button
      variant="secondary"
      size="xs"
      icon={active ? PowerOff : Power}
      disabled={busy}
      onClick={onToggle}
      aria-label={`${active ? 'Deactivate' : 'Activate'} ${name}`}
    >
      {active ? 'Deactivate' : 'Activate'}
    </Button>
  );
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
