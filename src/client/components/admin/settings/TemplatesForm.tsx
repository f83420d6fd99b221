import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import {
  TEMPLATE_BUCKET,
  TEMPLATES_REQUIRED,
  TEMPLATES_SAVED,
  defaultTemplatesInput,
  templateSaveError,
  type DefaultTemplatesInput,
} from '../../../../shared/schemas/admin-settings';
import { useTRPC } from '../../../trpc';
import { showFieldErrors } from '../categories/server-errors';
import { TextField } from '../ui/fields';
import { LoadingState } from '../ui/states';
import { card, primaryButton } from '../ui/styles';
import { useToast } from '../ui/Toast';
import { UploadField } from '../ui/UploadField';

// Default mockup templates (SPEC §2, §5, §8): the blank front and back tee images the mockup
// generator starts from. Each is uploaded to the templates bucket or pasted as a URL; both are
// required. Saving updates the default template (its art positions stay) or creates it.

const SIDES = [
  { field: 'front_template_url', label: 'Front template' },
  { field: 'back_template_url', label: 'Back template' },
] as const;

export function TemplatesForm() {
  const trpc = useTRPC();
  const current = useQuery(trpc.admin.settings.defaultTemplates.queryOptions());
  return (
    <section aria-labelledby="templates-title" className={`${card} p-4 sm:p-6`}>
      <h2 id="templates-title" className="font-display text-lg font-bold text-stone-950">
        Default Mockup Templates
      </h2>
      <p className="mt-1 text-sm text-stone-600">The blank tee photos the mockup generator places artwork on, front and back.</p>
      {current.isPending ? (
        <LoadingState label="Loading templates..." />
      ) : (
        <TemplatesFields
          initial={{ front_template_url: current.data?.front_template_url ?? '', back_template_url: current.data?.back_template_url ?? '' }}
        />
      )}
    </section>
  );
}

function TemplatesFields({ initial }: { initial: DefaultTemplatesInput }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState({ front_template_url: false, back_template_url: false });
  const { register, handleSubmit, setValue, setError, control, reset, formState } = useForm<DefaultTemplatesInput>({
    resolver: zodResolver(defaultTemplatesInput),
    defaultValues: initial,
  });
  const { errors, isSubmitted } = formState;
  const [frontUrl, backUrl] = useWatch({ control, name: ['front_template_url', 'back_template_url'] });
  const urls = { front_template_url: frontUrl, back_template_url: backUrl };
  const { front_template_url: initialFront, back_template_url: initialBack } = initial;
  // A reload of the saved template (after a save, or by another admin) becomes the new starting point.
  useEffect(() => reset({ front_template_url: initialFront, back_template_url: initialBack }), [initialFront, initialBack, reset]);

  const save = useMutation(
    trpc.admin.settings.saveDefaultTemplates.mutationOptions({
      onSuccess: async () => {
        toast.success(TEMPLATES_SAVED);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.defaultTemplates.queryKey() });
      },
      onError: (error) => {
        toast.error(templateSaveError(error.message));
        showFieldErrors(error, setError, ['front_template_url', 'back_template_url']);
      },
    }),
  );

  // The spec's alert for a missing side; other problems (a bad URL) show under their field.
  const onInvalid = (invalid: FieldErrors<DefaultTemplatesInput>) => {
    if (Object.values(invalid).some((error) => error?.message === TEMPLATES_REQUIRED)) toast.error(TEMPLATES_REQUIRED);
  };
  const submit = handleSubmit((values) => save.mutate(values), onInvalid);
  const busyUploading = uploading.front_template_url || uploading.back_template_url;

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="mt-5">
      <div className="grid gap-6 md:grid-cols-2">
        {SIDES.map(({ field, label }) => (
          <div key={field} className="space-y-3 rounded-lg border border-stone-200 p-3 sm:p-4" data-testid={`template-${field}`}>
            <UploadField
              label={label}
              bucket={TEMPLATE_BUCKET}
              value={urls[field]}
              onChange={(url) => setValue(field, url ?? '', { shouldValidate: isSubmitted, shouldDirty: true })}
              onBusyChange={(busy) => setUploading((state) => ({ ...state, [field]: busy }))}
              previewClassName="aspect-[4/5]"
              testId={field === 'front_template_url' ? 'front-template' : 'back-template'}
            />
            <TextField
              label={`${label} URL`}
              required
              inputMode="url"
              autoComplete="off"
              placeholder="https://… or upload above"
              error={errors[field]?.message}
              {...register(field)}
            />
          </div>
        ))}
      </div>
      <div className="mt-5 flex justify-end">
        <button type="submit" className={`${primaryButton} w-full sm:w-auto`} disabled={save.isPending || busyUploading}>
          {save.isPending && <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />}
          {save.isPending ? 'Saving...' : 'Save Templates'}
        </button>
      </div>
    </form>
  );
}
