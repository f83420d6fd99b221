import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { useMutation } from '../../../mutations';
import {
  ARTWORK_BUCKET,
  ARTWORK_CREATE_REQUIRED,
  ARTWORK_EDIT_REQUIRED,
  ARTWORK_UPDATE_FAILED,
  ARTWORK_UPLOAD_FAILED,
  artworkCreateInput,
  artworkEditFields,
  normalizeTag,
  type ArtworkCreateInput,
} from '../../../../shared/schemas/admin-artwork';
import { errorMessage, toastError } from '../../../errors';
import { useTRPC } from '../../../trpc';
import { TextArea, TextField } from '../../ui/fields';
import { toast } from '../../ui/Toast';
import { FormModal } from '../parts/FormModal';
import { TagInput } from '../parts/TagInput';
import { UploadField } from '../parts/UploadField';

// Upload Artwork and Edit Artwork (docs/PRODUCT.md § Screens, Validation and Messages): Name *, Description (optional), Artwork
// Image * (uploaded to product-art with progress), Tags. Submit stays disabled while the name is
// blank or the image missing; the server's message or the spec's default shows on failure.

export interface EditedArtwork {
  id: string;
  name: string;
  description: string | null;
  artwork_url: string;
  tags: string[] | null;
  /** As the list loaded it: saving over a change made since is refused. */
  updated_at: string;
}

export function ArtworkFormModal({
  editing,
  popularTags,
  onClose,
}: {
  editing: EditedArtwork | null;
  popularTags: readonly string[];
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const requiredMessage = editing ? ARTWORK_EDIT_REQUIRED : ARTWORK_CREATE_REQUIRED;
  const form = useForm<ArtworkCreateInput, unknown, z.output<typeof artworkCreateInput>>({
    // The same rules for both; only the message for a blank name or missing image differs.
    resolver: zodResolver(editing ? artworkEditFields : artworkCreateInput),
    defaultValues: {
      name: editing?.name ?? '',
      description: editing?.description ?? '',
      artwork_url: editing?.artwork_url ?? '',
      tags: editing?.tags ?? [],
    },
  });

  const done = async (text: string) => {
    toast.success(text);
    onClose();
    await queryClient.invalidateQueries({ queryKey: trpc.admin.artwork.pathKey() });
  };
  const create = useMutation(
    trpc.admin.artwork.create.mutationOptions({
      onSuccess: () => done('Artwork uploaded.'),
      onError: toastError(ARTWORK_UPLOAD_FAILED),
    }),
  );
  const update = useMutation(
    trpc.admin.artwork.update.mutationOptions({
      onSuccess: () => done('Artwork updated.'),
      onError: (error) => {
        toast.error(errorMessage(error, ARTWORK_UPDATE_FAILED));
        // Refused as changed elsewhere, say: the list shows the artwork as it is now, so opening it again edits that.
        void queryClient.invalidateQueries({ queryKey: trpc.admin.artwork.pathKey() });
      },
    }),
  );
  const saving = create.isPending || update.isPending;
  const [name, artworkUrl] = useWatch({ control: form.control, name: ['name', 'artwork_url'] });
  const incomplete = name.trim() === '' || artworkUrl === '';

  return (
    <FormModal
      title={editing ? 'Edit Artwork' : 'Upload Artwork'}
      onClose={onClose}
      saving={saving}
      submitVariant="accent"
      busyLabel={editing ? 'Updating...' : 'Uploading...'}
      submitDisabled={uploading || incomplete}
      submitLabel={editing ? 'Update Artwork' : 'Upload Artwork'}
      form={form}
      onSubmit={(values) => (editing ? update.mutate({ id: editing.id, updatedAt: editing.updated_at, ...values }) : create.mutate(values))}
      // The spec's alert for a blank name or a missing image.
      onInvalid={(errors) => {
        if (errors.name || errors.artwork_url) toast.error(requiredMessage);
      }}
      className="space-y-4"
    >
      <TextField name="name" label="Name" required autoComplete="off" />
      <TextArea name="description" label="Description (optional)" rows={3} />
      <Controller
        control={form.control}
        name="artwork_url"
        render={({ field, fieldState }) => (
          <UploadField
            label="Artwork Image *"
            bucket={ARTWORK_BUCKET}
            value={field.value}
            onChange={(url) => field.onChange(url ?? '')}
            onBusyChange={setUploading}
            error={fieldState.error?.message}
            hint="PNG, JPG or WebP, up to 50MB"
            testId="artwork-image"
          />
        )}
      />
      <Controller
        control={form.control}
        name="tags"
        render={({ field }) => (
          <TagInput
            label="Tags"
            placeholder="Add a tag"
            value={field.value ?? []}
            onChange={field.onChange}
            addTags={(text, current) => {
              const tag = normalizeTag(text, current);
              return tag ? [...current, tag] : current;
            }}
            popular={popularTags}
          />
        )}
      />
    </FormModal>
  );
}
