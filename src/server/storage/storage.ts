// Where uploaded and generated files live. Local disk for one machine; an S3-compatible
// implementation can stand behind the same interface for several.

export interface StoredFile {
  bucket: string;
  key: string;
  /** Path the browser loads the file from, e.g. /storage/product-art/abc.png */
  url: string;
}

export interface Storage {
  /** Stores new bytes under a new key; never overwrites an existing file. */
  put(bucket: string, key: string, bytes: Uint8Array, contentType: string): Promise<StoredFile>;
  /** Reads a stored file back (server-side rendering needs the bytes); null when absent. */
  get(bucket: string, key: string): Promise<Uint8Array | null>;
}

export const BUCKET_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export const storageUrl = (bucket: string, key: string) => `/storage/${bucket}/${key}`;

/** Splits a /storage/<bucket>/<key> URL back into its parts; null for any other URL. */
export function parseStorageUrl(url: string): { bucket: string; key: string } | null {
  const match = /^\/storage\/([^/]+)\/([^/]+)$/.exec(url);
  if (!match?.[1] || !match[2] || !BUCKET_PATTERN.test(match[1]) || !KEY_PATTERN.test(match[2])) return null;
  return { bucket: match[1], key: match[2] };
}
