import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useMutation } from '../../../mutations';
import { CATEGORY_BUCKET, CATEGORY_SAVE_FAILED, categoryInput, type CategoryInput } from '../../../../shared/schemas/admin-categories';
import { showServerErrors } from '../../../errors';
import { useTRPC } from '../../../trpc';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { TextArea, TextField } from '../../ui/fields';
import { Form } from '../../ui/Form';
import { toast } from '../../ui/Toast';
import { UploadField } from '../parts/UploadField';
import { useInvalidate } from '../parts/use-invalidate';
import { useSlugFromName } from '../parts/use-slug-from-name';

// The inline category form, for a new category and for editing one (docs/PRODUCT.md § Screens and Validation): every field
// required, the slug generated from the name until the admin edits it by hand, the image pasted
// as a URL or uploaded to the categories bucket.

export interface EditedCategory extends CategoryInput {
  id: string;
  /** As the list loaded it: saving over a change made since is refused. */
  updated_at: string;
}

const EMPTY: CategoryInput = { name: '', slug: '', description: '', image_url: '' };

export function CategoryForm({ editing, onDone }: { editing: EditedCategory | null; onDone: () => void }) {
  const trpc = useTRPC();
  const refresh = useInvalidate(trpc.admin.categories.list.queryKey(), trpc.catalog.pathKey());
  const [uploading, setUploading] = useState(false);

  const form = useForm<CategoryInput>({
    resolver: zodResolver(categoryInput),
    defaultValues: editing
      ? { name: editing.name, slug: editing.slug, description: editing.description, image_url: editing.image_url }
      : EMPTY,
  });
  const { setValue, setFocus, control, formState } = form;
  const imageUrl = useWatch({ control, name: 'image_url' });
  // An existing category keeps its slug (its public address) unless the admin changes it.
  const slug = useSlugFromName((value) => setValue('slug', value, { shouldValidate: formState.isSubmitted }), {
    ownSlug: editing !== null,
  });

  useEffect(() => setFocus('name'), [setFocus]);

  const onSaved = async (name: string) => {
    toast.success(`Category "${name}" saved.`);
    onDone();
    await refresh();
  };
  const onFailed = (error: unknown) => {
    // The spec's text exactly; the reason goes under its field, or into a second alert.
    toast.error(CATEGORY_SAVE_FAILED);
    const shown = showServerErrors(form, error);
    if (!shown.onFields && shown.message) toast.error(shown.message);
    // Refused as changed elsewhere, say: the list shows the category as it is now, so opening it again edits that.
    void refresh();
  };
  const create = useMutation(trpc.admin.categories.create.mutationOptions({ onSuccess: (row) => onSaved(row.name), onError: onFailed }));
  const update = useMutation(trpc.admin.categories.update.mutationOptions({ onSuccess: (row) => onSaved(row.name), onError: onFailed }));
  const saving = create.isPending || update.isPending;

  return (
    <Card title={editing ? `Edit category: ${editing.name}` : 'New category'} className="mb-6" data-testid="category-form">
      <Form
        form={form}
        onSubmit={(values) =>
          editing ? update.mutate({ id: editing.id, updatedAt: editing.updated_at, ...values }) : create.mutate(values)
        }
        className="grid gap-4 md:grid-cols-2"
      >
        <TextField name="name" label="Name" required autoComplete="off" registerOptions={slug.nameOptions} />
        <TextField
          name="slug"
          label="Slug"
          required
          autoComplete="off"
          hint={slug.slugByHand ? 'Lowercase letters, numbers and hyphens.' : 'Generated from the name; edit it to choose your own.'}
          registerOptions={slug.slugOptions}
        />
        <TextArea name="description" label="Description" required rows={3} className="md:col-span-2" />
        <TextField
          name="image_url"
          label="Image URL"
          required
          inputMode="url"
          autoComplete="off"
          placeholder="https://… or upload below"
          className="md:col-span-2"
        />
        <div className="md:col-span-2">
          <UploadField
            label="Category image"
            bucket={CATEGORY_BUCKET}
            value={imageUrl}
            onChange={(url) => setValue('image_url', url ?? '', { shouldValidate: formState.isSubmitted })}
            onBusyChange={setUploading}
            previewClassName="aspect-[16/9]"
            hint="PNG, JPG or WebP, up to 50MB. The upload fills in the image URL."
            testId="category-image"
          />
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end md:col-span-2">
          <Button variant="secondary" onClick={onDone} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" busy={saving} busyLabel="Saving..." disabled={uploading}>
            {editing ? 'Update Category' : 'Create Category'}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
