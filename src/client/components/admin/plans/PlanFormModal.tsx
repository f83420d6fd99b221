import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { BILLING_INTERVALS } from '../../../../shared/constants';
import { NEW_PLAN_DEFAULTS, planInput, planSaveError, type PlanInput } from '../../../../shared/schemas/admin-plans';
import { useTRPC } from '../../../trpc';
import { showFieldErrors } from '../categories/server-errors';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../ui/fields';
import { Modal } from '../ui/Modal';
import { primaryButton, secondaryButton } from '../ui/styles';
import { useToast } from '../ui/Toast';

// The create / edit plan modal (SPEC §2, §5, §9). A new plan starts monthly, limited to one
// category, active. The slug is lowercased with spaces turned into hyphens on save; features are
// one per line, trimmed, blank lines dropped.

export interface EditedPlan extends PlanInput {
  id: string;
}

const FIELDS = ['name', 'slug', 'description', 'price', 'billing_interval', 'category_limit', 'features'] as const;
const INTERVAL_NAMES = { monthly: 'Monthly', quarterly: 'Quarterly', yearly: 'Yearly' } as const;

/** A message about one line of the features list (e.g. one too long), shown under the whole field. */
function firstItemError(error: unknown): string | undefined {
  if (!Array.isArray(error)) return undefined;
  return (error as ({ message?: string } | undefined)[]).find((item) => item?.message)?.message;
}

export function PlanFormModal({ editing, onClose }: { editing: EditedPlan | null; onClose: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const formId = useId();
  const { control, register, handleSubmit, setError, formState } = useForm<PlanInput, unknown, z.output<typeof planInput>>({
    resolver: zodResolver(planInput),
    defaultValues: editing ?? NEW_PLAN_DEFAULTS,
  });
  const { errors } = formState;

  const onSaved = async (name: string) => {
    toast.success(`Plan "${name}" saved.`);
    onClose();
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.admin.plans.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.subscriptions.pathKey() }),
    ]);
  };
  const onFailed = (error: Parameters<typeof showFieldErrors>[0]) => {
    toast.error(planSaveError(error.message));
    showFieldErrors(error, setError, FIELDS);
  };
  const create = useMutation(trpc.admin.plans.create.mutationOptions({ onSuccess: (row) => onSaved(row.name), onError: onFailed }));
  const update = useMutation(trpc.admin.plans.update.mutationOptions({ onSuccess: (row) => onSaved(row.name), onError: onFailed }));
  const saving = create.isPending || update.isPending;

  const submit = handleSubmit((values) => {
    if (editing) update.mutate({ ...values, id: editing.id });
    else create.mutate(values);
  });

  return (
    <Modal
      title={editing ? 'Edit Plan' : 'New Plan'}
      onClose={onClose}
      busy={saving}
      size="lg"
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" form={formId} className={primaryButton} disabled={saving}>
            {saving && <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />}
            {saving ? 'Saving...' : editing ? 'Update Plan' : 'Create Plan'}
          </button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void submit(event)} className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" required autoComplete="off" error={errors.name?.message} {...register('name')} />
        <TextField
          label="Slug"
          required
          autoComplete="off"
          hint="Saved in lower case, spaces become hyphens."
          error={errors.slug?.message}
          {...register('slug')}
        />
        <TextAreaField label="Description" rows={2} className="sm:col-span-2" error={errors.description?.message} {...register('description')} />
        <TextField
          label="Price (USD)"
          required
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          error={errors.price?.message}
          {...register('price', { valueAsNumber: true })}
        />
        <SelectField label="Billing interval" required error={errors.billing_interval?.message} {...register('billing_interval')}>
          {BILLING_INTERVALS.map((interval) => (
            <option key={interval} value={interval}>
              {INTERVAL_NAMES[interval]}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Category limit"
          required
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          hint="0 means all categories."
          error={errors.category_limit?.message}
          {...register('category_limit', { valueAsNumber: true })}
        />
        <div className="flex items-end pb-2">
          <CheckboxField label="Active" hint="Shown on the public subscriptions page." {...register('is_active')} />
        </div>
        <Controller
          control={control}
          name="features"
          render={({ field, fieldState }) => (
            <TextAreaField
              label="Features"
              rows={5}
              className="sm:col-span-2"
              hint="One per line. Blank lines are ignored."
              error={fieldState.error?.message ?? firstItemError(errors.features)}
              name={field.name}
              ref={field.ref}
              onBlur={field.onBlur}
              // The list is edited as lines; trimming and dropping blanks happens on save.
              value={field.value.join('\n')}
              onChange={(event) => field.onChange(event.target.value.split('\n'))}
            />
          )}
        />
      </form>
    </Modal>
  );
}
