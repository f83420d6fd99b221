import path from 'node:path';
import type { Config } from '../config';
import { LocalStorage } from './local';
import type { Storage } from './storage';

/** The configured storage: S3 when S3_BUCKET is set, else DATA_DIR/storage. */
export async function createStorage(config: Pick<Config, 's3' | 'dataDir'>): Promise<Storage> {
  if (!config.s3) return new LocalStorage(localStorageRoot(config.dataDir));
  // Loaded only when used: the AWS SDK is a large module graph for a start-up to read.
  const { S3Storage } = await import('./s3');
  return new S3Storage(config.s3);
}

export const localStorageRoot = (dataDir: string) => path.join(dataDir, 'storage');
