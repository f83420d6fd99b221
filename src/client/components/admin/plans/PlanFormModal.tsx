import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, type Control } from 'react-hook-form';
import type { z } from 'zod';
import { useMutation } from '../../../mutations';
import { BILLING_INTERVALS } from '../../../../shared/constants';
import { NEW_PLAN_DEFAULTS, planInput, planSaveError, type PlanInput } from '../../../../shared/schemas/admin-plans';
import { errorMessage, showServerErrors } from '../../../errors';
import { useTRPC } from '../../../trpc';
import { FormModal } from '../parts/FormModal';
import { useInvalidate } from '../parts/use-invalidate';
import { Checkbox, NumberField, Select, TextArea, TextField } from '../../ui/fields';
import { toast } from '../../ui/Toast';

// The create / edit plan modal (docs/PRODUCT.md § Screens, Validation and Limits). A new plan starts monthly, limited to one
// category, active. The slug is lowercased with spaces turned into hyphens on save; features are
// one per line, trimmed, blank lines dropped.

export interface EditedPlan extends PlanInput {
  id: string;
  /** As the list loaded it: saving over a change made since is refused. */
  updatedAt: string;
}

const INTERVAL_NAMES = { monthly: 'Monthly', quarterly: 'Quarterly', yearly: 'Yearly' } as const;

/** A message about one line of the features list (e.g. one too long), shown under the whole field. */
function firstItemError(error: unknown): string | undefined {
  if (!Array.isArray(error)) return undefined;
  return (error as ({ message?: string } | undefined)[]).find((item) => item?.message)?.message;
}

export function PlanFormModal({ editing, onClose }: { editing: EditedPlan | null; onClose: () => void }) {
  const trpc = useTRPC();
  const refresh = useInvalidate(trpc.admin.plans.list.queryKey(), trpc.subscriptions.pathKey());
  const form = useForm<PlanInput, unknown, z.output<typeof planInput>>({
    resolver: zodResolver(planInput),
    defaultValues: editing ?? NEW_PLAN_DEFAULTS,
  });

  const onSaved = async (name: string) => {
    toast.success(`Plan "${name}" saved.`);
    onClose();
    await refresh();
  };
  const onFailed = (error: unknown) => {
    toast.error(planSaveError(errorMessage(error, 'An unexpected error occurred')));
    showServerErrors(form, error);
    // Refused as changed elsewhere, say: the list shows the plan as it is now, so opening it again edits that.
    void refresh();
  };
  const create = useMutation(trpc.admin.plans.create.mutationOptions({ onSuccess: (row) => onSaved(row.name), onError: onFailed }));
  const update = useMutation(trpc.admin.plans.update.mutationOptions({ onSuccess: (row) => onSaved(row.name), onError: onFailed }));
  const saving = create.isPending || update.isPending;

  return (
    <FormModal
      title={editing ? 'Edit Plan' : 'New Plan'}
      size="lg"
      onClose={onClose}
      saving={saving}
      busyLabel="Saving..."
      submitLabel={editing ? 'Update Plan' : 'Create Plan'}
      form={form}
      onSubmit={(values) => (editing ? update.mutate({ ...values, id: editing.id, updatedAt: editing.updatedAt }) : create.mutate(values))}
      className="grid gap-4 sm:grid-cols-2"
    >
      <TextField name="name" label="Name" required autoComplete="off" />
      <TextField name="slug" label="Slug" required autoComplete="off" hint="Saved in lower case, spaces become hyphens." />
      <TextArea name="description" label="Description" rows={2} className="sm:col-span-2" />
      <NumberField name="price" label="Price (USD)" required />
      <Select name="billing_interval" label="Billing interval" required>
        {BILLING_INTERVALS.map((interval) => (
          <option key={interval} value={interval}>
            {INTERVAL_NAMES[interval]}
          </option>
        ))}
      </Select>
      <NumberField name="category_limit" label="Category limit" required whole hint="0 means all categories." />
      <div className="flex items-end pb-2">
        <Checkbox name="is_active" label="Active" hint="Shown on the public subscriptions page." />
      </div>
      <FeaturesField control={form.control} />
    </FormModal>
  );
}

/** The features list, edited as lines; trimming and dropping blanks happens on save. */
function FeaturesField({ control }: { control: Control<PlanInput, unknown, z.output<typeof planInput>> }) {
  return (
    <Controller
      control={control}
      name="features"
      render={({ field, fieldState, formState }) => (
        <TextArea
          label="Features"
          rows={5}
          className="sm:col-span-2"
          hint="One per line. Blank lines are ignored."
          error={fieldState.error?.message ?? firstItemError(formState.errors.features)}
          ref={field.ref}
          onBlur={field.onBlur}
          value={field.value.join('\n')}
          onChange={(event) => field.onChange(event.target.value.split('\n'))}
        />
      )}
    />
  );
}
