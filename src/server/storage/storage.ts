import type { Readable } from 'node:stream';

// Where uploaded and generated files live (ADR 0014): local disk for one machine, an S3-compatible
// bucket for several. Either way pages name a file by /storage/<bucket>/<key>, which the app serves.

export interface StoredFile {
  bucket: string;
  key: string;
  /** Path the browser loads the file from, e.g. /storage/product-art/abc.png */
  url: string;
}

/** A file as `list()` finds it: its key and when it was stored. */
export interface ListedFile {
  key: string;
  lastModified: Date;
}

/** A stored file opened for sending. */
export interface StoredObject {
  body: Readable;
  contentType: string;
  size: number | undefined;
}

export interface Storage {
  /**
   * Stores new bytes under a new key; never overwrites an existing file (StorageKeyTakenError).
   * A file appears whole or not at all, so one that exists is complete.
   */
  put(bucket: string, key: string, bytes: Uint8Array, contentType: string): Promise<StoredFile>;
  /** Reads a stored file back (server-side rendering needs the bytes); null when absent. */
  get(bucket: string, key: string): Promise<Uint8Array | null>;
  /** Opens a stored file to stream it to a browser; null when absent. */
  open(bucket: string, key: string): Promise<StoredObject | null>;
  /**
   * Every file of a bucket with when it was stored, in no particular order (the sweep of files
   * nothing names, ADR 0021). Files still being written are left out, and so is any name that is
   * not a valid key. Throws, having yielded only part of the bucket, when the storage fails.
   */
  list(bucket: string): AsyncIterable<ListedFile>;
  /** Removes a file; one that is already gone is no error. */
  delete(bucket: string, key: string): Promise<void>;
  /** Throws when the storage cannot be reached (readiness). */
  check(): Promise<void>;
  /** Where browsers may load a public file straight from (a CDN or public bucket), if anywhere. */
  publicUrl(bucket: string, key: string): string | undefined;
}

/** An object store's listing of everything it holds (S3), which a backup keeps instead of the files. */
export interface ObjectInventory {
  /** The bucket that holds every one of ours. */
  readonly bucket: string;
  inventory(): Promise<{ key: string; size: number; etag: string }[]>;
}

/** Whether the storage is an object store that lists its contents (S3), told apart without loading its SDK. */
export const isObjectStore = (storage: Storage): storage is Storage & ObjectInventory => 'inventory' in storage;

/** The storage could not be reached or refused the request; nothing was stored. */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super('File storage is unavailable', { cause });
  }
}

/**
 * Buckets of print files (the artwork at print resolution): served to admins only. The others hold
 * what shoppers see (mockups' display copies, category pictures) or what is harmless to show
 * (blank shirt templates), under random names.
 */
const PRIVATE_BUCKETS: ReadonlySet<string> = new Set(['product-art', 'artwork']);

/** Where the mockup generator stores its renders, at print resolution. */
export const MOCKUP_BUCKET = 'mockups';

/** The end of a display copy's key ("<key>.640w.avif"), made here so fileAccess knows it again. */
export type DisplayFormat = 'avif' | 'webp';
export const displayCopySuffix = (width: number, format: DisplayFormat) => `.${width}w.${format}`;
const DISPLAY_COPY_SUFFIX = /\.\d+w\.(?:avif|webp)$/;

/**
 * Who may read a stored file, by its name. Print files are for admins. A mockup itself is a
 * print-ready picture of the art whose address its display copies give away ("<key>.640w.avif"):
 * it is for admins once those copies exist, which are all shoppers need, and public until then,
 * while pages still show it. Everything else is public.
 */
export function fileAccess(bucket: string, key: string): 'public' | 'admins' | 'admins once copied' {
  if (PRIVATE_BUCKETS.has(bucket)) return 'admins';
  if (bucket === MOCKUP_BUCKET && !DISPLAY_COPY_SUFFIX.test(key)) return 'admins once copied';
  return 'public';
}

/** put() found the key taken: the file there stays as it was. */
export class StorageKeyTakenError extends Error {
  constructor(bucket: string, key: string) {
    super(`Storage key already taken: ${bucket}/${key}`);
  }
}

export const BUCKET_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Type of a stored file, from the extension every stored name carries. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
};
export const contentTypeOf = (key: string) => CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

export const storageUrl = (bucket: string, key: string) => `/storage/${bucket}/${key}`;

/** Splits a /storage/<bucket>/<key> URL back into its parts; null for any other URL. */
export function parseStorageUrl(url: string): { bucket: string; key: string } | null {
  const match = /^\/storage\/([^/]+)\/([^/]+)$/.exec(url);
  if (!match?.[1] || !match[2] || !BUCKET_PATTERN.test(match[1]) || !KEY_PATTERN.test(match[2])) return null;
  return { bucket: match[1], key: match[2] };
}
