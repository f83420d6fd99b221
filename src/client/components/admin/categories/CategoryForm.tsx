import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  CATEGORY_BUCKET,
  CATEGORY_SAVE_FAILED,
  categoryInput,
  type CategoryInput,
} from '../../../../shared/schemas/admin-categories';
import { slugify } from '../../../../shared/slug';
import { useTRPC } from '../../../trpc';
import { TextAreaField, TextField } from '../ui/fields';
import { card, primaryButton, secondaryButton } from '../ui/styles';
import { useToast } from '../ui/Toast';
import { UploadField } from '../ui/UploadField';
import { showFieldErrors, specificReason } from './server-errors';

// The inline category form, for a new category and for editing one (SPEC §2, §5): every field
// required, the slug generated from the name until the admin edits it by hand, the image pasted
// as a URL or uploaded to the categories bucket.

export interface EditedCategory extends CategoryInput {
  id: string;
}

const FIELDS = ['name', 'slug', 'description', 'image_url'] as const;
const EMPTY: CategoryInput = { name: '', slug: '', description: '', image_url: '' };

export function CategoryForm({ editing, onDone }: { editing: EditedCategory | null; onDone: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  // An existing category keeps its slug (its public address) unless the admin changes it.
  const [slugByHand, setSlugByHand] = useState(editing !== null);
  const [uploading, setUploading] = useState(false);
  const nameRef = useRef<HTMLInputElement | null>(null);

  const form = useForm<CategoryInput>({
    resolver: zodResolver(categoryInput),
    defaultValues: editing ? { name: editing.name, slug: editing.slug, description: editing.description, image_url: editing.image_url } : EMPTY,
  });
  const { register, handleSubmit, setValue, setError, control, formState } = form;
  const imageUrl = useWatch({ control, name: 'image_url' });
  const { errors, isSubmitted } = formState;

  useEffect(() => {
    nameRef.current?.focus();
  }, []);

  const onSaved = async (name: string) => {
    toast.success(`Category "${name}" saved.`);
    onDone();
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.admin.categories.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() }),
    ]);
  };
  const onFailed = (error: Parameters<typeof specificReason>[0]) => {
    // The spec's text exactly; the reason goes under its field, or into a second alert.
    toast.error(CATEGORY_SAVE_FAILED);
    const reason = specificReason(error);
    if (!showFieldErrors(error, setError, FIELDS) && reason) toast.error(reason);
  };
  const create = useMutation(trpc.admin.categories.create.mutationOptions({ onSuccess: (row) => onSaved(row.name), onError: onFailed }));
  const update = useMutation(trpc.admin.categories.update.mutationOptions({ onSuccess: (row) => onSaved(row.name), onError: onFailed }));
  const saving = create.isPending || update.isPending;

  const nameField = register('name', {
    onChange: (event: { target: { value: string } }) => {
      if (!slugByHand) setValue('slug', slugify(event.target.value), { shouldValidate: isSubmitted });
    },
  });
  const slugField = register('slug', {
    // Typing in the slug stops the generation; clearing it hands the slug back to the name.
    onChange: (event: { target: { value: string } }) => setSlugByHand(event.target.value !== ''),
  });

  const submit = handleSubmit((values) => {
    if (editing) update.mutate({ id: editing.id, ...values });
    else create.mutate(values);
  });

  const title = editing ? `Edit category: ${editing.name}` : 'New category';
  return (
    <section aria-labelledby="category-form-title" className={`${card} mb-6 p-4 sm:p-6`} data-testid="category-form">
      <h2 id="category-form-title" className="font-display text-lg font-bold text-stone-950">
        {title}
      </h2>
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 grid gap-4 md:grid-cols-2">
        <TextField
          label="Name"
          required
          autoComplete="off"
          error={errors.name?.message}
          {...nameField}
          ref={(element) => {
            nameField.ref(element);
            nameRef.current = element;
          }}
        />
        <TextField
          label="Slug"
          required
          autoComplete="off"
          hint={slugByHand ? 'Lowercase letters, numbers and hyphens.' : 'Generated from the name; edit it to choose your own.'}
          error={errors.slug?.message}
          {...slugField}
        />
        <TextAreaField label="Description" required rows={3} className="md:col-span-2" error={errors.description?.message} {...register('description')} />
        <TextField
          label="Image URL"
          required
          inputMode="url"
          autoComplete="off"
          placeholder="https://… or upload below"
          className="md:col-span-2"
          error={errors.image_url?.message}
          {...register('image_url')}
        />
        <div className="md:col-span-2">
          <UploadField
            label="Category image"
            bucket={CATEGORY_BUCKET}
            value={imageUrl}
            onChange={(url) => setValue('image_url', url ?? '', { shouldValidate: isSubmitted })}
            onBusyChange={setUploading}
            previewClassName="aspect-[16/9]"
            hint="PNG, JPG or WebP, up to 50MB. The upload fills in the image URL."
            testId="category-image"
          />
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end md:col-span-2">
          <button type="button" className={secondaryButton} onClick={onDone} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={saving || uploading}>
            {saving && <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />}
            {saving ? 'Saving...' : editing ? 'Update Category' : 'Create Category'}
          </button>
        </div>
      </form>
    </section>
  );
}
