import { MAX_UPLOAD_BYTES, MAX_UPLOAD_PIXELS, PRODUCT_ART_BUCKET } from '../constants';

// Image uploads to POST /api/uploads/:bucket (docs/ARCHITECTURE.md § Files), shared by the upload route
// and the admin upload field. Texts of docs/PRODUCT.md § Validation and Messages, word for word.

export const UPLOAD_BUCKETS = [PRODUCT_ART_BUCKET, 'mockups', 'templates', 'categories', 'artwork'] as const;
export type UploadBucket = (typeof UPLOAD_BUCKETS)[number];
export const isUploadBucket = (value: string): value is UploadBucket => (UPLOAD_BUCKETS as readonly string[]).includes(value);

export const NOT_AN_IMAGE = 'Please select an image file';
export const FILE_TOO_LARGE = 'File size must be less than 50MB';
export const UPLOAD_FAILED = 'Failed to upload image';
// Beyond the spec's texts: the server decodes every upload before storing it.
/** Bytes that start like an accepted image but do not decode: damaged, cut off or disguised. */
export const IMAGE_UNREADABLE = 'The image could not be read. Please select an undamaged PNG, JPG or WebP file';
/** The file storage (an S3 bucket) could not be reached: nothing was stored. */
export const STORAGE_UNAVAILABLE = 'File storage is unavailable right now. Please try again in a moment';
export const IMAGE_TOO_MANY_PIXELS = `Image must be at most ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels`;

/** Types the server accepts, judged by the file's bytes; the browser pre-checks the declared type. */
const UPLOAD_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** For <input type="file" accept>: PNG, JPG, JPEG, WebP (docs/PRODUCT.md § Limits). */
export const UPLOAD_ACCEPT = '.png,.jpg,.jpeg,.webp,image/png,image/jpeg,image/webp';

/**
 * The browser-side check before an upload starts (the server checks again, by content): the
 * spec's message, or null when the file may be sent.
 */
export function uploadProblem(file: { type: string; size: number }): string | null {
  if (!(UPLOAD_MIME_TYPES as readonly string[]).includes(file.type)) return NOT_AN_IMAGE;
  if (file.size > MAX_UPLOAD_BYTES) return FILE_TOO_LARGE;
  return null;
}

/** The JSON the upload route answers with: the public URL on success, a message otherwise. */
export type UploadResponse = { url: string } | { error: string };
