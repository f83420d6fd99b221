import { z } from 'zod';
import { changedElsewhereInForm } from './fields';
import { isImageUrl } from './urls';

// The artwork library (docs/PRODUCT.md § Screens, Records, Validation and Messages): texts word for word, and the rules of its forms.

export const ARTWORK_CREATE_REQUIRED = 'Please provide a name and upload an image';
export const ARTWORK_EDIT_REQUIRED = 'Please provide a name and image';
export const ARTWORK_UPLOAD_FAILED = 'Failed to upload artwork';
export const ARTWORK_UPDATE_FAILED = 'Failed to update artwork';
export const ARTWORK_DELETE_FAILED = 'Failed to delete artwork';
export const ARTWORK_DELETE_CONFIRM = 'Are you sure you want to delete this artwork?';
export const ARTWORK_NOT_FOUND = 'Artwork not found';
export const ARTWORK_CHANGED_ELSEWHERE = changedElsewhereInForm('artwork');
export const INVALID_ARTWORK_URL = 'Please upload a valid image';
export const ARTWORK_BUCKET = 'product-art';
const MAX_ARTWORK_TAGS = 30;
/** Cards per page: fills whole rows of the 1 to 4 column grid. */
export const ARTWORK_PAGE_SIZE = 24;

/** A new tag as docs/PRODUCT.md § Validation wants it: trimmed and lowercased; null when it is empty or already listed. */
export function normalizeTag(raw: string, existing: readonly string[]): string | null {
  const tag = raw.trim().toLowerCase();
  return tag === '' || existing.includes(tag) ? null : tag;
}

/** Field rules shared by create and edit; `required` is the form's message for a blank name or missing image. */
const artworkFields = (required: string) => ({
  name: z.string({ error: required }).trim().min(1, { error: required }).max(200, { error: 'Name must be at most 200 characters' }),
  description: z
    .string()
    .trim()
    .max(2000, { error: 'Description must be at most 2000 characters' })
    .nullish()
    // Saved as null when empty (docs/PRODUCT.md § Validation).
    .transform((value) => (value ? value : null)),
  artwork_url: z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .max(2000, { error: INVALID_ARTWORK_URL })
    .refine(isImageUrl, { error: INVALID_ARTWORK_URL }),
  tags: z
    .array(z.string().max(50, { error: 'Tags must be at most 50 characters' }))
    .max(MAX_ARTWORK_TAGS, { error: `At most ${MAX_ARTWORK_TAGS} tags` })
    .nullish()
    // Trimmed, lowercased, without blanks or duplicates; null when none (docs/PRODUCT.md § Validation).
    .transform((tags) => {
      const clean = (tags ?? []).reduce<string[]>((list, raw) => {
        const tag = normalizeTag(raw, list);
        return tag ? [...list, tag] : list;
      }, []);
      return clean.length > 0 ? clean : null;
    }),
});

export const artworkCreateInput = z.object(artworkFields(ARTWORK_CREATE_REQUIRED));
export type ArtworkCreateInput = z.input<typeof artworkCreateInput>;

export const artworkIdInput = z.object({ id: z.uuid({ error: ARTWORK_NOT_FOUND }) });

/** The edit form's fields: the create rules with the edit message. */
export const artworkEditFields = z.object(artworkFields(ARTWORK_EDIT_REQUIRED));

/** With the artwork's updated_at as the form loaded it: artwork changed since is not written over. */
export const artworkUpdateInput = artworkEditFields.extend({ ...artworkIdInput.shape, updatedAt: z.string().min(1).max(64) });
export type ArtworkUpdateInput = z.input<typeof artworkUpdateInput>;

/** The library's search text, tag and page; also the page's URL search params. */
export const artworkListInput = z.object({
  search: z.string({ error: 'Invalid search' }).trim().max(200, { error: 'Search must be at most 200 characters' }).optional(),
  tag: z.string({ error: 'Invalid tag' }).trim().toLowerCase().max(50, { error: 'Tags must be at most 50 characters' }).optional(),
  page: z.int({ error: 'Invalid page' }).min(1, { error: 'Invalid page' }).max(100_000, { error: 'Invalid page' }).default(1),
});
export type ArtworkListInput = z.input<typeof artworkListInput>;
