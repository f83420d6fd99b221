import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { BUCKET_PATTERN, contentTypeOf, KEY_PATTERN, StorageKeyTakenError, storageUrl, type ListedFile, type Storage } from './storage';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Files under <root>/<bucket>/<key>, served by the /storage route. */
export class LocalStorage implements Storage {
  constructor(readonly root: string) {}

  private folderOf(bucket: string): string {
    if (!BUCKET_PATTERN.test(bucket)) throw new Error(`Invalid storage bucket: ${bucket}`);
    return path.join(this.root, bucket);
  }

  private pathOf(bucket: string, key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(this.folderOf(bucket), key);
  }

  async put(bucket: string, key: string, bytes: Uint8Array) {
    const file = this.pathOf(bucket, key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written aside under a dot name (never served), then linked into place: a process that dies
    // mid-write leaves no half file under the key, and link() refuses a name that exists, so
    // stored names are never reused.
    const partial = path.join(path.dirname(file), `.${key}.${randomUUID()}.partial`);
    await fs.writeFile(partial, bytes, { flag: 'wx' });
    try {
      await fs.link(partial, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new StorageKeyTakenError(bucket, key);
      throw error;
    } finally {
      await fs.rm(partial, { force: true });
    }
    return { bucket, key, url: storageUrl(bucket, key) };
  }

  async get(bucket: string, key: string) {
    try {
      return await fs.readFile(this.pathOf(bucket, key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async open(bucket: string, key: string) {
    const file = this.pathOf(bucket, key);
    let handle;
    try {
      // Opened before answering, so a missing file is a 404 rather than a stream error.
      handle = await fs.open(file);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      return { body: createReadStream(file, { fd: handle }), contentType: contentTypeOf(key), size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async *list(bucket: string): AsyncGenerator<ListedFile> {
    const folder = this.folderOf(bucket);
    let entries;
    try {
      entries = await fs.opendir(folder);
    } catch (error) {
      if (isMissing(error)) return; // nothing stored in this bucket yet
      throw error;
    }
    for await (const entry of entries) {
      // put()'s files being written have dot names, which no key has.
      if (!entry.isFile() || !KEY_PATTERN.test(entry.name)) continue;
      let modified: Date;
      try {
        modified = (await fs.stat(path.join(folder, entry.name))).mtime;
      } catch (error) {
        if (isMissing(error)) continue; // deleted since the folder was read
        throw error;
      }
      yield { key: entry.name, lastModified: modified };
    }
  }

  async delete(bucket: string, key: string) {
    await fs.rm(this.pathOf(bucket, key), { force: true });
  }

  async check() {
    await fs.mkdir(this.root, { recursive: true });
    await fs.access(this.root, fs.constants.W_OK);
  }

  publicUrl() {
    return undefined;
  }
}
