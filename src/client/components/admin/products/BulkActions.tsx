import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  bulkDeleteMessage,
  bulkDoneMessage,
  PRICE_CHANGE_LABELS,
  PRICE_CHANGES,
  type BulkAction,
  type BulkTarget,
  type PriceChange,
} from '../../../../shared/schemas/admin-products';
import { errorMessage } from '../../../errors';
import { useMutation } from '../../../mutations';
import { useTRPC } from '../../../trpc';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { controlClass } from '../../ui/fields';
import { toast } from '../../ui/Toast';
import { RecordOptions } from '../parts/RecordOptions';

// The products list's bulk bar: shown once rows are chosen; one action at a time over them (or
// over every product the filters show), applied by the server in one transaction.

const ACTIONS = [
  { value: 'activate', label: 'Set active' },
  { value: 'deactivate', label: 'Set inactive' },
  { value: 'move_to_category', label: 'Move to category' },
  { value: 'change_price', label: 'Change price' },
  { value: 'add_tag', label: 'Add tag' },
  { value: 'remove_tag', label: 'Remove tag' },
  { value: 'delete', label: 'Delete' },
] as const;
type Choice = (typeof ACTIONS)[number]['value'];

export function BulkActions({ target, count, onDone }: { target: BulkTarget; count: number; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const categories = useQuery(trpc.admin.products.categoryOptions.queryOptions()).data ?? [];
  const [choice, setChoice] = useState<Choice>('activate');
  const [categoryId, setCategoryId] = useState('');
  const [change, setChange] = useState<PriceChange>('set');
  const [amount, setAmount] = useState('');
  const [tag, setTag] = useState('');
  const [confirming, setConfirming] = useState(false);
  const preview = useQuery({ ...trpc.admin.products.bulkDeletePreview.queryOptions(target), enabled: confirming });

  const apply = useMutation(
    trpc.admin.products.bulk.mutationOptions({
      onSuccess: (result) => {
        toast.success(bulkDoneMessage(result));
        setConfirming(false);
        onDone();
        void queryClient.invalidateQueries({ queryKey: trpc.admin.products.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() });
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(errorMessage(error, 'Could not apply the change'));
      },
    }),
  );

  const action = (): BulkAction => {
    switch (choice) {
      case 'activate':
      case 'deactivate':
        return { kind: 'set_active', isActive: choice === 'activate' };
      case 'move_to_category':
        return { kind: 'move_to_category', categoryId };
      case 'change_price':
        return { kind: 'change_price', change, amount: Number(amount) };
      case 'add_tag':
      case 'remove_tag':
        return { kind: choice, tag };
      case 'delete':
        return { kind: 'delete' };
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice === 'delete') setConfirming(true);
    else apply.mutate({ target, action: action() });
  };

  return (
    <form
      onSubmit={submit}
      aria-label="Bulk actions"
      className="mb-4 flex flex-wrap items-end gap-3 rounded-xl border border-accent-200 bg-accent-50 p-4"
      data-testid="bulk-actions"
    >
      <p className="w-full text-sm font-semibold text-stone-900" role="status">
        {count === 1 ? '1 product selected' : `${count.toLocaleString('en-US')} products selected`}
      </p>
      <label className="text-sm font-medium text-stone-800">
        Action
        <select className={`mt-1.5 ${controlClass()} pr-8`} value={choice} onChange={(event) => setChoice(event.target.value as Choice)}>
          {ACTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      {choice === 'move_to_category' && (
        <label className="text-sm font-medium text-stone-800">
          Category
          <select
            required
            className={`mt-1.5 ${controlClass()} pr-8`}
            value={categoryId}
            onChange={(event) => setCategoryId(event.target.value)}
          >
            <option value="">Choose a category</option>
            <RecordOptions records={categories} />
          </select>
        </label>
      )}
      {choice === 'change_price' && (
        <>
          <label className="text-sm font-medium text-stone-800">
            Price change
            <select
              className={`mt-1.5 ${controlClass()} pr-8`}
              value={change}
              onChange={(event) => setChange(event.target.value as PriceChange)}
            >
              {PRICE_CHANGES.map((value) => (
                <option key={value} value={value}>
                  {PRICE_CHANGE_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium text-stone-800">
            Amount
            <input
              required
              type="number"
              inputMode="decimal"
              min={0.01}
              step={0.01}
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              className={`mt-1.5 w-32 ${controlClass()}`}
            />
          </label>
        </>
      )}
      {(choice === 'add_tag' || choice === 'remove_tag') && (
        <label className="text-sm font-medium text-stone-800">
          Tag
          <input
            required
            maxLength={50}
            value={tag}
            onChange={(event) => setTag(event.target.value)}
            className={`mt-1.5 w-44 ${controlClass()}`}
          />
        </label>
      )}
      <Button type="submit" variant={choice === 'delete' ? 'danger' : 'primary'} busy={apply.isPending} busyLabel="Applying...">
        Apply
      </Button>
      {confirming && (
        <ConfirmDialog
          title="Delete products?"
          message={preview.data ? bulkDeleteMessage(preview.data.total, preview.data.withOrders) : 'Counting the products...'}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={apply.isPending || !preview.data}
          onConfirm={() => apply.mutate({ target, action: { kind: 'delete' } })}
          onCancel={() => setConfirming(false)}
        />
      )}
    </form>
  );
}
