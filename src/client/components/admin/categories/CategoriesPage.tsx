import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, FolderTree, Plus } from 'lucide-react';
import { useState } from 'react';
import { useMutation } from '../../../mutations';
import { categoryInUseMessage } from '../../../../shared/schemas/admin-categories';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { ActiveBadge } from '../../ui/Badge';
import { Button, iconButtonClass } from '../../ui/Button';
import { cardClass } from '../../ui/Card';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Modal } from '../../ui/Modal';
import { EmptyState, LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';
import { PageHeader } from '../parts/PageHeader';
import { activeAndDeleteOptions, ActiveToggleButton, DeleteIconButton, EditButton, usePendingIds } from '../parts/row-actions';
import { useInvalidate } from '../parts/use-invalidate';
import { CategoryForm, type EditedCategory } from './CategoryForm';

// The Categories screen (docs/PRODUCT.md § Screens): the inline form, the list in sort_order with move up / move
// down, activate / deactivate, edit, and delete after a confirmation. A category that still has
// products cannot be deleted (the database refuses): the dialog says so and offers to deactivate.

type CategoryRow = RouterOutputs['admin']['categories']['list'][number];

type FormState = { mode: 'closed' } | { mode: 'new' } | { mode: 'edit'; category: EditedCategory };

export function CategoriesPage() {
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.categories.list.queryOptions());
  const [form, setForm] = useState<FormState>({ mode: 'closed' });
  const [deleting, setDeleting] = useState<CategoryRow | null>(null);
  const actions = useCategoryActions(() => setDeleting(null));
  const categories = list.data ?? [];

  const openEdit = (category: CategoryRow) => {
    setForm({ mode: 'edit', category });
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  return (
    <div>
      <PageHeader
        title="Categories"
        subtitle="The shop's categories, in the order the storefront shows them"
        actions={
          form.mode === 'closed' && (
            <Button variant="accent" icon={Plus} onClick={() => setForm({ mode: 'new' })}>
              Add Category
            </Button>
          )
        }
      />

      {form.mode !== 'closed' && (
        <CategoryForm
          // A new key per category, so switching between edits starts a fresh form; and per stamp, so
          // opening the category again after it changed (a refused save) edits it as it is now.
          key={form.mode === 'edit' ? `${form.category.id}@${form.category.updated_at}` : 'new'}
          editing={form.mode === 'edit' ? form.category : null}
          onDone={() => setForm({ mode: 'closed' })}
        />
      )}

      <section aria-label="Categories" aria-busy={list.isFetching} className={cardClass}>
        {list.isPending ? (
          <LoadingState label="Loading categories..." />
        ) : categories.length === 0 ? (
          <EmptyState
            title="No categories yet"
            hint="Add the first category to start organising the shop."
            icon={FolderTree}
            action={form.mode === 'closed' && <Button onClick={() => setForm({ mode: 'new' })}>Add Category</Button>}
          />
        ) : (
          <ol className="divide-y divide-stone-200" data-testid="category-list">
            {categories.map((category, index) => (
              <CategoryItem
                key={category.id}
                category={category}
                position={index + 1}
                isFirst={index === 0}
                isLast={index === categories.length - 1}
                actions={actions}
                onEdit={() => openEdit(category)}
                onToggle={() => actions.setActive(category, !category.is_active)}
                onDelete={() => setDeleting(category)}
              />
            ))}
          </ol>
        )}
      </section>

      {deleting && deleting.product_count === 0 && (
        <ConfirmDialog
          title="Delete category?"
          message={`"${deleting.name}" will be removed from the store. This cannot be undone.`}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={actions.isBusy(deleting.id)}
          onConfirm={() => actions.remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
      {deleting && deleting.product_count > 0 && (
        <CategoryInUseDialog category={deleting} actions={actions} onClose={() => setDeleting(null)} />
      )}
    </div>
  );
}

type Actions = ReturnType<typeof useCategoryActions>;

function useCategoryActions(onDeleted: () => void) {
  const trpc = useTRPC();
  // The header's category links read catalog.*: refresh them with the admin list.
  const refresh = useInvalidate(trpc.admin.categories.list.queryKey(), trpc.catalog.pathKey());

  const move = useMutation(
    trpc.admin.categories.move.mutationOptions({
      onSettled: refresh,
      onError: (error) => toast.error(`Failed to move category: ${error.message}`),
    }),
  );
  const options = activeAndDeleteOptions({
    refresh,
    deleted: 'Category deleted.',
    activeError: (message) => `Failed to update category: ${message}`,
    deleteError: (message) => message,
    onDeleteSettled: onDeleted,
  });
  const setActive = useMutation(trpc.admin.categories.setActive.mutationOptions(options.setActive));
  const remove = useMutation(trpc.admin.categories.delete.mutationOptions(options.remove));

  const isBusy = usePendingIds(trpc.admin.categories.pathKey());

  return {
    isBusy,
    // One move at a time from this screen: each swap depends on the order the last one left.
    isMoving: move.isPending,
    move: (category: CategoryRow, direction: 'up' | 'down') => move.mutate({ id: category.id, direction }),
    setActive: (category: CategoryRow, isActive: boolean) => setActive.mutate({ id: category.id, is_active: isActive }),
    remove: (category: CategoryRow) => remove.mutate({ id: category.id }),
  };
}

interface ItemProps {
  category: CategoryRow;
  position: number;
  isFirst: boolean;
  isLast: boolean;
  actions: Actions;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
}

function CategoryItem({ category, position, isFirst, isLast, actions, onEdit, onToggle, onDelete }: ItemProps) {
  const busy = actions.isBusy(category.id);
  const products = category.product_count === 1 ? '1 product' : `${category.product_count} products`;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="category-row" data-slug={category.slug}>
      <div className="flex min-w-0 flex-1 items-center gap-3 sm:gap-4">
        <span className="w-6 shrink-0 text-center text-sm font-semibold text-stone-500 tabular-nums" aria-label={`Position ${position}`}>
          {position}
        </span>
        <img
          src={category.image_url}
          alt=""
          loading="lazy"
          className="size-14 shrink-0 rounded-lg border border-stone-200 bg-stone-100 object-cover"
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h3 className="font-semibold text-stone-950">{category.name}</h3>
            <ActiveBadge active={category.is_active} />
          </div>
          <p className="mt-0.5 truncate text-sm text-stone-600">
            /{category.slug} · {products}
          </p>
          <p className="mt-0.5 line-clamp-1 text-sm text-stone-500">{category.description}</p>
        </div>
        {/* Stacked beside the name on a phone, so the row of text buttons below fits the width. */}
        <div className="flex shrink-0 flex-col sm:flex-row">
          <MoveButton
            name={category.name}
            direction="up"
            disabled={isFirst || actions.isMoving}
            onMove={() => actions.move(category, 'up')}
          />
          <MoveButton
            name={category.name}
            direction="down"
            disabled={isLast || actions.isMoving}
            onMove={() => actions.move(category, 'down')}
          />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-1.5 sm:justify-end">
        <ActiveToggleButton name={category.name} active={category.is_active} busy={busy} onToggle={onToggle} />
        <EditButton name={category.name} onEdit={onEdit} />
        <DeleteIconButton name={category.name} title="Delete category" busy={busy} onDelete={onDelete} className="ml-auto sm:ml-0" />
      </div>
    </li>
  );
}

function MoveButton({
  name,
  direction,
  disabled,
  onMove,
}: {
  name: string;
  direction: 'up' | 'down';
  disabled: boolean;
  onMove: () => void;
}) {
  const Icon = direction === 'up' ? ArrowUp : ArrowDown;
  return (
    <button
      type="button"
      className={iconButtonClass()}
      disabled={disabled}
      onClick={onMove}
      aria-label={`Move ${name} ${direction}`}
      title={`Move ${direction}`}
    >
      <Icon className="size-4" aria-hidden="true" />
    </button>
  );
}

/** Deleting a category with products is refused by the database: say why, and offer to hide it instead. */
function CategoryInUseDialog({ category, actions, onClose }: { category: CategoryRow; actions: Actions; onClose: () => void }) {
  const busy = actions.isBusy(category.id);
  return (
    <Modal
      role="alertdialog"
      size="sm"
      title="This category can't be deleted yet"
      description={categoryInUseMessage(category.name, category.product_count)}
      onClose={onClose}
      busy={busy}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy} autoFocus>
            {category.is_active ? 'Cancel' : 'Close'}
          </Button>
          {category.is_active && (
            <Button
              disabled={busy}
              onClick={() => {
                actions.setActive(category, false);
                onClose();
              }}
            >
              Deactivate instead
            </Button>
          )}
        </>
      }
    />
  );
}
