import fs from 'node:fs/promises';
import path from 'node:path';
import { BUCKET_PATTERN, KEY_PATTERN, storageUrl, type Storage } from './storage';

/** Files under <root>/<bucket>/<key>, served by the /storage route. */
export class LocalStorage implements Storage {
  constructor(readonly root: string) {}

  private pathOf(bucket: string, key: string): string {
    if (!BUCKET_PATTERN.test(bucket)) throw new Error(`Invalid storage bucket: ${bucket}`);
    if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(this.root, bucket, key);
  }

  async put(bucket: string, key: string, bytes: Uint8Array) {
    const file = this.pathOf(bucket, key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // 'wx' refuses to replace a file that exists: stored names are never reused.
    await fs.writeFile(file, bytes, { flag: 'wx' });
    return { bucket, key, url: storageUrl(bucket, key) };
  }

  async get(bucket: string, key: string) {
    try {
      return await fs.readFile(this.pathOf(bucket, key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}
