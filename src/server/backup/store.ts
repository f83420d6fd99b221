import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config';
import { DatabaseBusyError, openDatabase, type DatabaseHandle } from '../db/database';
import { createStorage } from '../storage/create';
import { LocalStorage } from '../storage/local';
import {
  backupFileName,
  createBackup,
  databaseHasTables,
  restoreStaged,
  restoreStagingDir,
  stageBackup,
  storedFileCount,
  type RestoreReport,
} from './backup';
import { controlSocketPath, requestBackup } from './control';
import type { Manifest } from './manifest';
import { backupsDir } from './schedule';

// What `npm run backup` and `npm run restore` do with the configured store (DATABASE_URL or
// DATA_DIR, and its files), kept here so that the tests run exactly what the commands run.

/** A restore that would overwrite something, or one that cannot run now: nothing was changed. */
export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

/** Backs the configured store up into `output` (by default a new file in DATA_DIR/backups); the file written. */
export async function backupStore(config: Config, output?: string): Promise<{ file: string; viaRunningStore: boolean }> {
  const file = path.resolve(output ?? path.join(backupsDir(config.dataDir), backupFileName(new Date())));
  let database: DatabaseHandle;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  } catch (error) {
    if (!(error instanceof DatabaseBusyError)) throw error;
    // The store is running on the embedded database: it takes the backup itself.
    const made = await requestBackup(controlSocketPath(config.dataDir));
    if (output) await fs.copyFile(made.file, file, fs.constants.COPYFILE_EXCL);
    return { file: output ? file : made.file, viaRunningStore: true };
  }
  try {
    if (!(await databaseHasTables(database.db))) throw new Error(`There is no store to back up in ${describeDatabase(config)}`);
    await createBackup({ database, databaseUrl: config.databaseUrl, storage: await createStorage(config) }, file);
    return { file, viaRunningStore: false };
  } finally {
    await database.close();
  }
}

const describeDatabase = (config: Config) =>
  config.databaseUrl ? 'the PostgreSQL database (DATABASE_URL)' : path.join(config.dataDir, 'pgdata');

/**
 * Restores `file` into the configured store, which must be empty unless `force` (then its
 * database and stored files are replaced). The backup is checked whole before anything changes.
 */
export async function restoreStore(
  config: Config,
  file: string,
  { force, log }: { force: boolean; log: (line: string) => void },
): Promise<RestoreReport & { manifest: Manifest }> {
  const staging = restoreStagingDir(config.dataDir);
  try {
    const staged = await stageBackup(file, staging);
    log(`Backup of ${staged.manifest.createdAt} checked: ${Object.keys(staged.manifest.entries).length} entries match its manifest.`);
    const storage = await createStorage(config);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
    try {
      if (database.kind === 'postgres' && (await otherSessions(database)) > 0) {
        throw new RestoreRefusedError('Other sessions are connected to this database (is the store running?): stop them first');
      }
      const hasData = await databaseHasTables(database.db);
      const files = await storedFileCount(storage);
      if ((hasData || files > 0) && !force) {
        throw new RestoreRefusedError(
          `The store in ${describeDatabase(config)} already has data${files > 0 ? ` and ${files} stored files` : ''}. ` +
            'A restore replaces all of it: run it again with --force to do so.',
        );
      }
      if (hasData) {
        log('Replacing the existing database (--force).');
        await sql`DROP SCHEMA public CASCADE; CREATE SCHEMA public`.execute(database.db);
      }
      if (files > 0 && storage instanceof LocalStorage) {
        log('Replacing the existing stored files (--force).');
        await fs.rm(storage.root, { recursive: true, force: true });
      }
      const report = await restoreStaged(staged, database, storage);
      return { ...report, manifest: staged.manifest };
    } finally {
      await database.close();
    }
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

async function otherSessions(database: DatabaseHandle): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(
    database.db,
  );
  return rows[0]!.count;
}
