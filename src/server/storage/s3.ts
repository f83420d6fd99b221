import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import {
  BUCKET_PATTERN,
  contentTypeOf,
  fileAccess,
  KEY_PATTERN,
  StorageKeyTakenError,
  StorageUnavailableError,
  storageUrl,
  type ListedFile,
  type ObjectInventory,
  type Storage,
} from './storage';

// S3 or an S3-compatible service (MinIO, R2, ...) for several app processes (ADR 0014). Our buckets
// are key prefixes in one S3 bucket: <bucket>/<key>.

/** A request that cannot connect fails fast, so an upload answers a clear error instead of hanging. */
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 30_000;

const statusOf = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined);
const isNotFound = (error: unknown) => statusOf(error) === 404 || (error instanceof S3ServiceException && error.name === 'NoSuchKey');

export interface S3StorageOptions {
  /** Keys asked for per ListObjectsV2 page: S3's own 1,000 unless set (tests ask for fewer). */
  listPageSize?: number;
}

export class S3Storage implements Storage, ObjectInventory {
  private readonly client: S3Client;

  constructor(
    private readonly config: S3Config,
    private readonly options: S3StorageOptions = {},
  ) {
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      ...(config.credentials ? { credentials: config.credentials } : {}),
      // Checksums only where S3 requires them: several S3-compatible services reject the SDK's
      // default streaming checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    });
  }

  private objectKey(bucket: string, key: string): string {
    if (!BUCKET_PATTERN.test(bucket)) throw new Error(`Invalid storage bucket: ${bucket}`);
    if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
    return `${bucket}/${key}`;
  }

  /** Runs one request; a failure that is not the answer asked about (absent, taken) is unavailability. */
  private async send<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (isNotFound(error) || error instanceof StorageKeyTakenError) throw error;
      throw new StorageUnavailableError(error);
    }
  }

  async put(bucket: string, key: string, bytes: Uint8Array, contentType: string) {
    const Key = this.objectKey(bucket, key);
    const Bucket = this.config.bucket;
    await this.send(async () => {
      // S3 refuses an existing key itself (If-None-Match); the look first serves services that ignore it.
      const existing = await this.client.send(new HeadObjectCommand({ Bucket, Key })).catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      });
      if (existing) throw new StorageKeyTakenError(bucket, key);
      try {
        await this.client.send(new PutObjectCommand({ Bucket, Key, Body: bytes, ContentType: contentType, IfNoneMatch: '*' }));
      } catch (error) {
        if (statusOf(error) === 412) throw new StorageKeyTakenError(bucket, key);
        throw error;
      }
    });
    return { bucket, key, url: storageUrl(bucket, key) };
  }

  async get(bucket: string, key: string) {
    const object = await this.getObject(bucket, key);
    return object ? await object.Body!.transformToByteArray() : null;
  }

  async open(bucket: string, key: string) {
    const object = await this.getObject(bucket, key);
    if (!object) return null;
    return { body: object.Body as Readable, contentType: object.ContentType ?? contentTypeOf(key), size: object.ContentLength };
  }

  private async getObject(bucket: string, key: string) {
    const Key = this.objectKey(bucket, key);
    try {
      return await this.send(() => this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key })));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async *list(bucket: string): AsyncGenerator<ListedFile> {
    if (!BUCKET_PATTERN.test(bucket)) throw new Error(`Invalid storage bucket: ${bucket}`);
    const Prefix = `${bucket}/`;
    let ContinuationToken: string | undefined;
    do {
      const page = await this.send(() =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix, ContinuationToken, MaxKeys: this.options.listPageSize }),
        ),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(Prefix.length);
        // Anything deeper than <bucket>/<key> or otherwise not a key of ours is not listed.
        if (!key || !KEY_PATTERN.test(key) || !object.LastModified) continue;
        yield { key, lastModified: object.LastModified };
      }
      // A page cut short without a way to the next would leave the rest of the bucket unlisted.
      if (page.IsTruncated && !page.NextContinuationToken) {
        throw new StorageUnavailableError(new Error(`listing ${Prefix} stopped without a continuation token`));
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  /** The S3 bucket itself, which holds every one of our buckets. */
  get bucket(): string {
    return this.config.bucket;
  }

  /**
   * Every object of the S3 bucket, whatever its name, with its size and ETag: what a backup lists
   * of files on S3 (docs/adr/0024) and a restore checks the bucket against.
   */
  async inventory(): Promise<{ key: string; size: number; etag: string }[]> {
    const objects: { key: string; size: number; etag: string }[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.send(() =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.config.bucket, ContinuationToken, MaxKeys: this.options.listPageSize })),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) objects.push({ key: object.Key, size: object.Size ?? 0, etag: object.ETag ?? '' });
      }
      if (page.IsTruncated && !page.NextContinuationToken) {
        throw new StorageUnavailableError(new Error('listing the bucket stopped without a continuation token'));
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return objects.sort((a, b) => a.key.localeCompare(b.key));
  }

  async delete(bucket: string, key: string) {
    const Key = this.objectKey(bucket, key);
    await this.send(() => this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key })));
  }

  async check() {
    await this.send(() => this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket })));
  }

  publicUrl(bucket: string, key: string) {
    const base = this.config.publicUrl;
    return base && fileAccess(bucket, key) === 'public' ? `${base}/${this.objectKey(bucket, key)}` : undefined;
  }
}
