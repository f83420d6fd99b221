import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  ARTWORK_BUCKET,
  ARTWORK_CREATE_REQUIRED,
  ARTWORK_EDIT_REQUIRED,
  ARTWORK_UPDATE_FAILED,
  ARTWORK_UPLOAD_FAILED,
  artworkCreateInput,
  artworkEditFields,
  type ArtworkCreateInput,
} from '../../../../shared/schemas/admin-artwork';
import { useTRPC } from '../../../trpc';
import { TextAreaField, TextField } from '../ui/fields';
import { Modal } from '../ui/Modal';
import { accentButton, secondaryButton } from '../ui/styles';
import { useToast } from '../ui/Toast';
import { UploadField } from '../ui/UploadField';
import { TagEditor } from './TagEditor';

// Upload Artwork and Edit Artwork (SPEC §2, §5, §8): Name *, Description (optional), Artwork
// Image * (uploaded to product-art with progress), Tags. Submit stays disabled while the name is
// blank or the image missing; the server's message or the spec's default shows on failure.

export interface EditedArtwork {
  id: string;
  name: string;
  description: string | null;
  artwork_url: string;
  tags: string[] | null;
}

export function ArtworkFormModal({ editing, popularTags, onClose }: { editing: EditedArtwork | null; popularTags: readonly string[]; onClose: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const formId = useId();
  const [uploading, setUploading] = useState(false);
  const requiredMessage = editing ? ARTWORK_EDIT_REQUIRED : ARTWORK_CREATE_REQUIRED;
  const { control, register, handleSubmit, formState } = useForm<ArtworkCreateInput, unknown, z.output<typeof artworkCreateInput>>({
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
      onError: (error) => toast.error(error.message || ARTWORK_UPLOAD_FAILED),
    }),
  );
  const update = useMutation(
    trpc.admin.artwork.update.mutationOptions({
      onSuccess: () => done('Artwork updated.'),
      onError: (error) => toast.error(error.message || ARTWORK_UPDATE_FAILED),
    }),
  );
  const saving = create.isPending || update.isPending;
  const [name, artworkUrl] = useWatch({ control, name: ['name', 'artwork_url'] });
  const incomplete = name.trim() === '' || artworkUrl === '';

  const submit = handleSubmit(
    (values) => (editing ? update.mutate({ id: editing.id, ...values }) : create.mutate(values)),
    // The spec's alert for a blank name or a missing image.
    (errors) => {
      if (errors.name || errors.artwork_url) toast.error(requiredMessage);
    },
  );

  const errors = formState.errors;
  return (
    <Modal
      title={editing ? 'Edit Artwork' : 'Upload Artwork'}
      onClose={onClose}
      busy={saving}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" form={formId} className={accentButton} disabled={saving || uploading || incomplete}>
            {saving && <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />}
            {editing ? (saving ? 'Updating...' : 'Update Artwork') : saving ? 'Uploading...' : 'Upload Artwork'}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        <TextField label="Name" required autoComplete="off" error={errors.name?.message} {...register('name')} />
        <TextAreaField label="Description (optional)" rows={3} error={errors.description?.message} {...register('description')} />
        <Controller
          control={control}
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
        <Controller control={control} name="tags" render={({ field }) => <TagEditor value={field.value ?? []} onChange={field.onChange} popular={popularTags} />} />
      </form>
    </Modal>
  );
}
