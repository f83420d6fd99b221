import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { useMutation } from '../../../mutations';
import {
  TEMPLATE_BUCKET,
  TEMPLATES_REQUIRED,
  TEMPLATES_SAVED,
  defaultTemplatesInput,
  templateSaveError,
  type DefaultTemplatesInput,
} from '../../../../shared/schemas/admin-settings';
import { errorMessage, showServerErrors, UNEXPECTED_ERROR } from '../../../errors';
import { useTRPC } from '../../../trpc';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { TextField } from '../../ui/fields';
import { Form } from '../../ui/Form';
import { LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';
import { UploadField } from '../parts/UploadField';

// Default mockup templates (docs/PRODUCT.md § Screens, Validation and Messages): the blank front and back tee images the mockup
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
    <Card title="Default Mockup Templates" description="The blank tee photos the mockup generator places artwork on, front and back.">
      {current.isPending ? (
        <LoadingState label="Loading templates..." />
      ) : (
        <TemplatesFields
          initial={{ front_template_url: current.data?.front_template_url ?? '', back_template_url: current.data?.back_template_url ?? '' }}
        />
      )}
    </Card>
  );
}

function TemplatesFields({ initial }: { initial: DefaultTemplatesInput }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState({ front_template_url: false, back_template_url: false });
  const form = useForm<DefaultTemplatesInput>({ resolver: zodResolver(defaultTemplatesInput), defaultValues: initial });
  const { setValue, control, reset, formState } = form;
  const { isSubmitted } = formState;
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
        toast.error(templateSaveError(errorMessage(error, UNEXPECTED_ERROR)));
        showServerErrors(form, error);
      },
    }),
  );

  // The spec's alert for a missing side; other problems (a bad URL) show under their field.
  const onInvalid = (invalid: FieldErrors<DefaultTemplatesInput>) => {
    if (Object.values(invalid).some((error) => error?.message === TEMPLATES_REQUIRED)) toast.error(TEMPLATES_REQUIRED);
  };
  const busyUploading = uploading.front_template_url || uploading.back_template_url;

  return (
    <Form form={form} onSubmit={(values) => save.mutate(values)} onInvalid={onInvalid}>
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
              name={field}
              label={`${label} URL`}
              required
              inputMode="url"
              autoComplete="off"
              placeholder="https://… or upload above"
            />
          </div>
        ))}
      </div>
      <div className="mt-5 flex justify-end">
        <Button type="submit" busy={save.isPending} busyLabel="Saving..." disabled={busyUploading} className="w-full sm:w-auto">
          Save Templates
        </Button>
      </div>
    </Form>
  );
}
