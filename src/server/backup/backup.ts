import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'kysely';
import * as tar from 'tar-stream';
import type { DatabaseHandle, Db } from '../db/database';
import { appliedMigrations, migrateToLatest, migrateUpTo, unknownMigrations } from '../db/migrate';
import { storeTables } from '../db/tables';
import { LocalStorage } from '../storage/local';
import { contentTypeOf, isObjectStore, StorageKeyTakenError, type Storage } from '../storage/storage';
import {
  fixTextForms,
  insertRows,
  pgDumpMajorVersion,
  pgDumpRows,
  sequenceValues,
  serverMajorVersion,
  setSequences,
  tableChecksum,
  tableRows,
  tableSummaries,
  withTriggersOff,
} from './database-dump';
import { FORMAT, FORMAT_VERSION, MANIFEST_ENTRY, manifestSchema, type Manifest, type StoredFilesSummary } from './manifest';

// One file holds a whole store (docs/adr/0024): a gzipped tar whose first entry is the manifest,
// then the database (database/*.jsonl or database/data.sql) and the stored files (files/<bucket>/<key>;
// only a listing when files are on S3). Everything is checked against the manifest before a
// restore changes anything, and the restored store is checked against it again before it is kept.

export interface BackupSource {
  database: DatabaseHandle;
  /** The server's address, for pg_dump; unset for the embedded database. */
  databaseUrl?: string | undefined;
  storage: Storage;
  /** pg_dump is used when it is on the PATH and can dump this server, unless this is false. */
  pgDump?: boolean;
}

const DATABASE_DIR = 'database';
const FILES_DIR = 'files';
const PG_DUMP_ENTRY = `${DATABASE_DIR}/data.sql`;
const tableEntry = (table: string) => `${DATABASE_DIR}/${table}.jsonl`;

/** The name a backup taken at `at` gets: it sorts by time. */
export const backupFileName = (at: Date) => `threadline-backup-${at.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
export const BACKUP_FILE_NAME = /^threadline-backup-(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z\.tar\.gz$/;
/** When the backup named `name` was taken, from its name; null for any other name. */
export function backupTakenAt(name: string): Date | null {
  const match = BACKUP_FILE_NAME.exec(name);
  return match ? new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`) : null;
}

interface Digest {
  size: number;
  sha256: string;
}

/** Writes chunks to `file`, hashing them on the way. */
async function writeHashed(file: string, chunks: AsyncIterable<string | Buffer>): Promise<Digest> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    (async function* () {
      for await (const chunk of chunks) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        hash.update(bytes);
        size += bytes.length;
        yield bytes;
      }
    })(),
    createWriteStream(file, { flags: 'wx' }),
  );
  return { size, sha256: hash.digest('hex') };
}

async function hashFile(file: string): Promise<Digest> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** Every file under `root`, as paths relative to it; dot-named ones (a file still being written) are left out. */
async function filesUnder(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) found.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  await walk(root);
  return found.sort();
}

/** The database's rows, in one snapshot, into `staging`; the manifest's database part. */
async function dumpDatabase(source: BackupSource, staging: string, entries: Manifest['entries']): Promise<Manifest['database']> {
  const { database } = source;
  const viaPgDump =
    database.kind === 'postgres' &&
    source.databaseUrl !== undefined &&
    source.pgDump !== false &&
    ((await pgDumpMajorVersion()) ?? 0) >= (await serverMajorVersion(database.db));
  return database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      await fixTextForms(trx);
      const tables = await storeTables(trx);
      const migrations = await appliedMigrations(trx);
      const summaries = await tableSummaries(trx, tables);
      if (viaPgDump) {
        // pg_dump reads the very snapshot the summaries were read in.
        const { rows } = await sql<{ snapshot: string }>`SELECT pg_export_snapshot() AS snapshot`.execute(trx);
        const file = path.join(staging, PG_DUMP_ENTRY);
        await fs.mkdir(path.dirname(file), { recursive: true });
        await pgDumpRows(source.databaseUrl!, rows[0]!.snapshot, file);
        entries[PG_DUMP_ENTRY] = await hashFile(file);
        // Sequences are in its SQL, as it read them.
        return { source: database.kind, method: 'pg_dump' as const, migrations, tables: summaries, sequences: {} };
      }
      for (const table of tables) {
        const lines = (async function* () {
          for await (const line of tableRows(trx, table, summaries[table]!.columns)) yield `${line}\n`;
        })();
        entries[tableEntry(table)] = await writeHashed(path.join(staging, tableEntry(table)), lines);
      }
      // Read last: a sequence is not part of the snapshot, and read after the rows it is past every one of them.
      return { source: database.kind, method: 'rows' as const, migrations, tables: summaries, sequences: await sequenceValues(trx) };
    });
}

/** The stored files into `staging` (linked, not copied, where they share a disk), or the S3 bucket's listing. */
async function collectFiles(storage: Storage, staging: string, entries: Manifest['entries']): Promise<StoredFilesSummary> {
  if (isObjectStore(storage)) return { kind: 's3', bucket: storage.bucket, objects: await storage.inventory() };
  if (!(storage instanceof LocalStorage)) throw new Error('This storage cannot be backed up');
  for (const relative of await filesUnder(storage.root)) {
    const from = path.join(storage.root, relative);
    const to = path.join(staging, FILES_DIR, relative);
    await fs.mkdir(path.dirname(to), { recursive: true });
    // Stored files never change once written (storage.ts): a link is a snapshot of one.
    await fs.link(from, to).catch(() => fs.copyFile(from, to));
    entries[`${FILES_DIR}/${relative}`] = await hashFile(to);
  }
  return { kind: 'local' };
}

/** Writes `manifest` then every staged entry into a gzipped tar at `file`, which appears whole or not at all. */
async function writeArchive(file: string, staging: string, manifest: Manifest): Promise<void> {
  const pack = tar.pack();
  const partial = `${file}.partial`;
  const written = pipeline(pack, createGzip(), createWriteStream(partial, { flags: 'wx' }));
  const mtime = new Date(manifest.createdAt);
  try {
    const add = (name: string, size: number, body: NodeJS.ReadableStream | Buffer) =>
      new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name, size, mtime }, (error) => (error ? reject(error) : resolve()));
        if (Buffer.isBuffer(body)) entry.end(body);
        else pipeline(body, entry).catch(reject);
      });
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
    await add(MANIFEST_ENTRY, manifestBytes.length, manifestBytes);
    for (const [name, { size }] of Object.entries(manifest.entries)) await add(name, size, createReadStream(path.join(staging, name)));
    pack.finalize();
    await written;
    await fs.rename(partial, file);
  } catch (error) {
    pack.destroy();
    await written.catch(() => undefined);
    await fs.rm(partial, { force: true });
    throw error;
  }
}

/** Backs the whole store up into `file` (a new file; its folder is made if needed). */
export async function createBackup(source: BackupSource, file: string, now = new Date()): Promise<Manifest> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const staging = await fs.mkdtemp(path.join(path.dirname(file), '.backup-'));
  try {
    const entries: Manifest['entries'] = {};
    const database = await dumpDatabase(source, staging, entries);
    const files = await collectFiles(source.storage, staging, entries);
    const manifest = manifestSchema.parse({
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: now.toISOString(),
      database,
      files,
      entries: Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b))),
    });
    await writeArchive(file, staging, manifest);
    return manifest;
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/** A backup file that does not check out: nothing was changed. */
export class InvalidBackupError extends Error {
  override name = 'InvalidBackupError';
}

/** A backup unpacked into a folder and checked entry by entry against its manifest. */
export interface StagedBackup {
  manifest: Manifest;
  dir: string;
}

/** Safe to write under the staging folder: a relative path with no way out of it. */
const isSafeEntryName = (name: string) => name === path.posix.normalize(name) && !name.startsWith('/') && !name.startsWith('..');

/**
 * Unpacks `file` into `dir` (a new, empty folder) and checks it against its manifest: the format,
 * every entry's size and SHA-256, no entry missing or extra, and migrations this code knows.
 */
export async function stageBackup(file: string, dir: string): Promise<StagedBackup> {
  await fs.mkdir(dir, { recursive: true });
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract);
  // Its failure is met below, wherever the entries stopped; until then it must not count as unhandled.
  reading.catch(() => undefined);
  let manifest: Manifest | undefined;
  const seen = new Set<string>();
  try {
    for await (const entry of extract) {
      const { name } = entry.header;
      if (!manifest) {
        if (name !== MANIFEST_ENTRY) throw new InvalidBackupError(`Not a Threadline backup: it does not start with ${MANIFEST_ENTRY}`);
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        const parsed = manifestSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        if (!parsed.success)
          throw new InvalidBackupError(`The backup's manifest is not one this version reads: ${parsed.error.issues[0]?.message}`);
        manifest = parsed.data;
        continue;
      }
      const expected = manifest.entries[name];
      if (!expected || !isSafeEntryName(name) || seen.has(name))
        throw new InvalidBackupError(`The backup holds an entry its manifest does not list: ${name}`);
      seen.add(name);
      const digest = await writeHashed(path.join(dir, name), entry as AsyncIterable<Buffer>);
      if (digest.size !== expected.size || digest.sha256 !== expected.sha256)
        throw new InvalidBackupError(`${name} is damaged: its checksum differs from the manifest's`);
    }
    await reading;
  } catch (error) {
    extract.destroy();
    await reading.catch(() => undefined);
    if (error instanceof InvalidBackupError) throw error;
    throw new InvalidBackupError(`The backup file cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!manifest) throw new InvalidBackupError('The backup file is empty');
  const missing = Object.keys(manifest.entries).filter((name) => !seen.has(name));
  if (missing.length > 0) throw new InvalidBackupError(`The backup is cut short: ${missing.length} entries are missing (${missing[0]}...)`);
  const unknown = unknownMigrations(manifest.database.migrations);
  if (unknown.length > 0)
    throw new InvalidBackupError(`The backup was made by a newer version of Threadline (migrations ${unknown.join(', ')}): update first`);
  return { manifest, dir };
}

/** Whether the database holds a store already (any table at all: a store just set up has its settings row). */
export async function databaseHasTables(db: Db): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = 'public') AS found`.execute(db);
  return rows[0]!.found;
}

/** Files in the local storage folder (the S3 bucket is not emptied by a restore). */
export async function storedFileCount(storage: Storage): Promise<number> {
  return storage instanceof LocalStorage ? (await filesUnder(storage.root)).length : 0;
}

/** What a restore found wrong after it finished: files the S3 bucket lacks. */
export interface RestoreReport {
  tables: number;
  rows: number;
  files: number;
  /** Objects listed in an S3 backup that the bucket does not have (as listed, same size and ETag). */
  missingObjects: string[];
}

/**
 * Loads a staged backup into an empty database and storage: the schema the backup was made with,
 * its rows (checked against the manifest before the transaction commits), later migrations, then
 * the files (checked again once in place).
 */
export async function restoreStaged(staged: StagedBackup, database: DatabaseHandle, storage: Storage): Promise<RestoreReport> {
  const { manifest, dir } = staged;
  const { db } = database;
  await migrateUpTo(db, manifest.database.migrations);
  const tables = Object.keys(manifest.database.tables);
  await db.transaction().execute(async (trx) => {
    const ordered = (await storeTables(trx)).filter((table) => tables.includes(table));
    const absent = tables.filter((table) => !ordered.includes(table));
    if (absent.length > 0) throw new InvalidBackupError(`The backup has tables its migrations do not make: ${absent.join(', ')}`);
    await withTriggersOff(trx, ordered, async () => {
      // What the migrations wrote (the settings row, say) makes way for the backup's own rows.
      await sql`TRUNCATE ${sql.join(ordered.map((table) => sql.table(table)))}`.execute(trx);
      if (manifest.database.method === 'pg_dump') {
        await sql.raw(withoutPsqlCommands(await fs.readFile(path.join(dir, PG_DUMP_ENTRY), 'utf8'))).execute(trx);
        // pg_dump's SQL empties the search path for the rest of the session.
        await sql`RESET search_path`.execute(trx);
      } else {
        for (const table of ordered) {
          const lines = readline.createInterface({ input: createReadStream(path.join(dir, tableEntry(table))), crlfDelay: Infinity });
          await insertRows(trx, table, manifest.database.tables[table]!.columns, lines);
        }
        await setSequences(trx, manifest.database.sequences);
      }
    });
    await fixTextForms(trx);
    for (const table of ordered) {
      const { rows, checksum } = await tableChecksum(trx, table);
      const expected = manifest.database.tables[table]!;
      if (rows !== expected.rows || checksum !== expected.checksum) {
        throw new InvalidBackupError(
          `${table} did not come back as it was backed up (${rows} rows, ${expected.rows} expected); nothing was restored`,
        );
      }
    }
  });
  await migrateToLatest(db);
  const rows = Object.values(manifest.database.tables).reduce((sum, table) => sum + table.rows, 0);
  return { tables: tables.length, rows, ...(await restoreFiles(manifest, dir, storage)) };
}

/**
 * pg_dump's SQL without the \restrict and \unrestrict lines around it, which only psql reads
 * (they stop a dump's data from running psql commands; here no psql runs it). They carry a random
 * key no row could hold, which finds them.
 */
function withoutPsqlCommands(dump: string): string {
  const key = /^\\restrict (\S+)$/m.exec(dump)?.[1];
  return key ? dump.replace(`\\restrict ${key}\n`, '').replace(`\\unrestrict ${key}\n`, '') : dump;
}

async function restoreFiles(manifest: Manifest, dir: string, storage: Storage): Promise<{ files: number; missingObjects: string[] }> {
  if (manifest.files.kind === 's3') {
    const present = new Map((isObjectStore(storage) ? await storage.inventory() : []).map((object) => [object.key, object]));
    const missingObjects = manifest.files.objects
      .filter((object) => {
        const found = present.get(object.key);
        return !found || found.size !== object.size || found.etag !== object.etag;
      })
      .map((object) => object.key);
    return { files: manifest.files.objects.length - missingObjects.length, missingObjects };
  }
  const files = Object.entries(manifest.entries).filter(([name]) => name.startsWith(`${FILES_DIR}/`));
  for (const [name, expected] of files) {
    const relative = name.slice(FILES_DIR.length + 1);
    const staged = path.join(dir, name);
    if (storage instanceof LocalStorage) {
      const target = path.join(storage.root, relative);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(staged, target).catch(() => fs.copyFile(staged, target, fs.constants.COPYFILE_EXCL));
      const written = await hashFile(target);
      if (written.sha256 !== expected.sha256) throw new InvalidBackupError(`${relative} was not stored as it was backed up`);
    } else {
      // Files from a store on one disk, restored into one on S3: put where its pages name them.
      const [bucket, key, ...deeper] = relative.split('/');
      if (!bucket || !key || deeper.length > 0) continue;
      await storage.put(bucket, key, await fs.readFile(staged), contentTypeOf(key)).catch((error: unknown) => {
        if (!(error instanceof StorageKeyTakenError)) throw error;
      });
    }
  }
  return { files: files.length, missingObjects: [] };
}

/** A staging folder for a restore beside `near` (the same disk as the files it will move into place). */
export const restoreStagingDir = (near: string) => path.join(near, `.restore-${randomUUID()}`);
