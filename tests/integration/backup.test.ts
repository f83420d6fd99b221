import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidBackupError, createBackup, stageBackup } from '../../src/server/backup/backup';
import { controlSocketPath, serveBackupRequests } from '../../src/server/backup/control';
import { fixTextForms, sequenceValues } from '../../src/server/backup/database-dump';
import type { Manifest } from '../../src/server/backup/manifest';
import { StoreBackups, backupsDir, startDailyBackups } from '../../src/server/backup/schedule';
import { RestoreRefusedError, backupStore, restoreStore } from '../../src/server/backup/store';
import type { Config } from '../../src/server/config';
import { openDatabase, type Db } from '../../src/server/db/database';
import { storeTables } from '../../src/server/db/tables';
import { processEmailQueue } from '../../src/server/email/processor';
import { createTransport } from '../../src/server/email/transport';
import { createStorage } from '../../src/server/storage/create';
import { LocalStorage } from '../../src/server/storage/local';
import type { S3Storage } from '../../src/server/storage/s3';
import { BACKUPS_ON_SERVER, BACKUP_DOWNLOAD_PATH } from '../../src/shared/schemas/admin-settings';
import { callerAs, callTrpc, sharedTestApp, signInHttp, testConfig, uploadFile } from '../support/app';
import { trpcFailure } from '../support/async';
import { withAdminClient } from '../support/db';
import { startLocalS3 } from '../support/s3';
import {
  RITAS_SHIPPING,
  createAdmin,
  createCategory,
  createCustomer,
  createPlan,
  createProduct,
  type TestUser,
} from '../support/factories';

// npm run backup and npm run restore (docs/adr/0024): a store with orders, memberships, emails and
// uploaded files is backed up, restored into a fresh folder and a
// fresh PostgreSQL database, and every row and file must come back identical. On a server the
// backup is pg_dump's, and once more through the app's own connection.

const t = sharedTestApp({ BACKUP_KEEP: '2' });
const onServer = Boolean(process.env.TEST_DATABASE_URL);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-backups-'));
const backupFile = path.join(work, 'store.tar.gz');
let manifest: Manifest;
let admin: TestUser;
let adminCookie: string;

/** Every row of every table as text, sorted: what "identical" means for a database. */
async function everyRow(db: Db): Promise<Record<string, string[]>> {
  return db.transaction().execute(async (trx) => {
    await fixTextForms(trx);
    const tables: Record<string, string[]> = {};
    for (const table of await storeTables(trx)) {
      const { rows } = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(table)} t`.execute(trx);
      tables[table] = rows.map((row) => row.row).sort();
    }
    return tables;
  });
}

/** Every stored file under a folder with its SHA-256. */
function everyFile(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(root, full)] = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
  }
  return files;
}

const storageRoot = () => (t.app.storage as LocalStorage).root;

/** Checks a restored store against the one backed up: the same rows in every table, the same sequences, the same files. */
async function expectIdentical(config: Config) {
  const restored = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    expect(await everyRow(restored.db)).toEqual(await everyRow(t.db));
    expect(await sequenceValues(restored.db)).toEqual(await sequenceValues(t.db));
  } finally {
    await restored.close();
  }
  expect(everyFile(path.join(config.dataDir, 'storage'))).toEqual(everyFile(storageRoot()));
}

/** A PostgreSQL database of its own for one restore, dropped afterwards. */
async function withFreshServerDatabase(test: (config: Config) => Promise<void>) {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const name = `threadline_restore_${process.pid}_${Date.now()}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const config = testConfig({ DATABASE_URL: url.toString() });
  try {
    await test(config);
  } finally {
    await withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  }
}

const quiet = { force: false, log: () => undefined };

/** A store in use: a catalog, a member whose first shipment was ordered, a contact message, emails sent and an uploaded image. */
async function storeInUse() {
  admin = await createAdmin(t.db);
  adminCookie = await signInHttp(t.app, admin.email);
  const category = await createCategory(t.db);
  await createProduct(t.db, { category_id: category.id });
  const plan = await createPlan(t.db);
  const member = await createCustomer(t.db, { first_name: 'Rita', last_name: 'Rider' });
  await callerAs(t, member).subscriptions.join({ planSlug: plan.slug, size: 'M', categoryIds: [category.id], shipping: RITAS_SHIPPING });
  await callTrpc(t.app, 'contact.submit', {
    input: { name: 'Sam', email: 'sam@example.com', subject: 'Sizes', message: 'Do they run small?' },
  });
  await processEmailQueue(t.db, createTransport(t.config), { from: t.config.emailFrom, batchSize: 2 });
  const image = await sharp({ create: { width: 16, height: 12, channels: 3, background: '#c2410c' } })
    .png()
    .toBuffer();
  expect((await uploadFile(t.app, image, { bucket: 'artwork', cookie: adminCookie })).status).toBe(201);
}

beforeAll(async () => {
  await storeInUse();
  manifest = await createBackup(
    { database: t.database, databaseUrl: 'url' in t.database ? (t.database.url as string) : undefined, storage: t.app.storage },
    backupFile,
  );
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('npm run backup', () => {
  it('writes one file: every table with its row count and checksum, and every stored file', async () => {
    expect(manifest.database).toMatchObject({ source: t.database.kind, method: onServer ? 'pg_dump' : 'rows' });
    for (const table of [
      'orders',
      'order_items',
      'subscriptions',
      'subscription_cycles',
      'email_queue',
      'email_logs',
      'contact_submissions',
      'sessions',
    ]) {
      expect(manifest.database.tables[table]!.rows, table).toBeGreaterThan(0);
    }
    expect(Object.keys(manifest.database.tables).sort()).toEqual((await storeTables(t.db)).sort());
    const files = Object.keys(manifest.entries).filter((name) => name.startsWith('files/'));
    expect(files.map((name) => name.slice('files/'.length)).sort()).toEqual(Object.keys(everyFile(storageRoot())).sort());
    // The file checks out against its own manifest.
    expect((await stageBackup(backupFile, path.join(work, 'staged'))).manifest).toEqual(manifest);
  });
});

// A new embedded data folder (initdb), a restore and a migration: seconds alone, more on a busy machine.
describe('npm run restore', { timeout: 120_000 }, () => {
  const folder = testConfig();

  it('puts the store back into an empty data folder: every row and file identical', async () => {
    const report = await restoreStore(folder, backupFile, quiet);
    expect(report).toMatchObject({ tables: Object.keys(manifest.database.tables).length, missingObjects: [] });
    await expectIdentical(folder);
  });

  it.runIf(onServer)(
    'puts the store back into an empty PostgreSQL database, from pg_dump and through the app connection alike',
    async () => {
      await withFreshServerDatabase(async (config) => {
        await restoreStore(config, backupFile, quiet);
        await expectIdentical(config);
      });
      const viaApp = path.join(work, 'via-app.tar.gz');
      const rows = await createBackup(
        { database: t.database, databaseUrl: (t.database as { url?: string }).url, storage: t.app.storage, pgDump: false },
        viaApp,
      );
      expect(rows.database.method).toBe('rows');
      await withFreshServerDatabase(async (config) => {
        await restoreStore(config, viaApp, quiet);
        await expectIdentical(config);
      });
    },
  );

  it('refuses a store that has data unless --force is given, changing nothing', async () => {
    const marker = 'Restored over with --force';
    const restored = await openDatabase({ dataDir: folder.dataDir });
    await restored.db.updateTable('store_settings').set({ payment_instructions: marker }).execute();
    await restored.close();
    await expect(restoreStore(folder, backupFile, quiet)).rejects.toThrow(RestoreRefusedError);
    const untouched = await openDatabase({ dataDir: folder.dataDir });
    expect(
      (await untouched.db.selectFrom('store_settings').select('payment_instructions').executeTakeFirstOrThrow()).payment_instructions,
    ).toBe(marker);
    await untouched.close();

    await restoreStore(folder, backupFile, { force: true, log: () => undefined });
    await expectIdentical(folder);
  });

  it('refuses a damaged backup before changing anything', async () => {
    const damaged = path.join(work, 'damaged.tar.gz');
    const bytes = fs.readFileSync(backupFile);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    fs.writeFileSync(damaged, bytes);
    const fresh = testConfig();
    await expect(restoreStore(fresh, damaged, quiet)).rejects.toThrow(InvalidBackupError);
    expect(fs.readdirSync(fresh.dataDir)).toEqual([]);
  });

  it('works from the command line: npm run backup writes the file, npm run restore will not write over a store', async () => {
    const run = (script: string, args: string[], dataDir: string) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', path.join('scripts', script), ...args], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      }).then(
        ({ stdout }) => ({ code: 0, out: stdout }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, out: `${error.stdout}${error.stderr}` }),
      );
    const output = path.join(work, 'cli.tar.gz');
    // One after the other: only one process at a time opens the embedded database.
    expect(await run('backup.ts', ['--output', output], folder.dataDir)).toEqual({ code: 0, out: `Backup written to ${output}\n` });
    expect((await stageBackup(output, path.join(work, 'from-cli'))).manifest.database.tables).toEqual(manifest.database.tables);
    expect(await run('restore.ts', [backupFile], folder.dataDir)).toMatchObject({
      code: 1,
      out: expect.stringContaining('run it again with --force') as string,
    });
  });

  it('lists the files kept on S3, which keeps its own versions, and says which ones the bucket no longer has', async () => {
    const s3 = await startLocalS3();
    try {
      const config = testConfig({ ...s3.env, DATA_DIR: folder.dataDir });
      const storage = (await createStorage(config)) as S3Storage;
      const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      for (const key of ['kept.png', 'lost.png']) await storage.put('artwork', key, png, 'image/png');
      const file = path.join(work, 's3.tar.gz');
      const made = await createBackup({ database: t.database, databaseUrl: (t.database as { url?: string }).url, storage }, file);
      expect(made.files).toEqual({
        kind: 's3',
        bucket: config.s3!.bucket,
        objects: [
          expect.objectContaining({ key: 'artwork/kept.png', size: png.length }),
          expect.objectContaining({ key: 'artwork/lost.png' }),
        ] as unknown[],
      });
      expect(Object.keys(made.entries).filter((name) => name.startsWith('files/'))).toEqual([]);

      await storage.delete('artwork', 'lost.png');
      const report = await restoreStore(config, file, { force: true, log: () => undefined });
      expect(report).toMatchObject({ files: 1, missingObjects: ['artwork/lost.png'] });
    } finally {
      await s3.stop();
    }
  });

  it('asks the running store for the backup while it holds the embedded database', async () => {
    const running = await openDatabase({ dataDir: folder.dataDir });
    const backups = new StoreBackups(
      { database: running, storage: new LocalStorage(path.join(folder.dataDir, 'storage')) },
      backupsDir(folder.dataDir),
      7,
    );
    const socket = await serveBackupRequests(controlSocketPath(folder.dataDir), backups, { warn: () => undefined, error: () => undefined });
    try {
      const made = await backupStore(folder);
      expect(made).toMatchObject({ viaRunningStore: true });
      expect(path.dirname(made.file)).toBe(backupsDir(folder.dataDir));
      expect((await stageBackup(made.file, path.join(work, 'from-running'))).manifest.database.tables.orders).toEqual(
        manifest.database.tables.orders,
      );
    } finally {
      await socket?.close();
      await running.close();
    }
  });
});

describe('backups in Admin → Settings', () => {
  it.runIf(onServer)('are for the embedded database only: a server is backed up by its operator', async () => {
    const admins = callerAs(t, admin);
    expect(await admins.admin.backups.list()).toMatchObject({ enabled: false, backups: [] });
    expect(await trpcFailure(admins.admin.backups.create())).toEqual({ code: 'PRECONDITION_FAILED', message: BACKUPS_ON_SERVER });
  });

  it.runIf(!onServer)('are taken daily at the hour and on Back up now, the newest kept, and downloaded by admins only', async () => {
    const admins = callerAs(t, admin);
    expect(await admins.admin.backups.list()).toEqual({ enabled: true, hour: 3, keep: 2, backups: [] });

    // The day's backup, at 3 o'clock: at the first look when there is none, then once a day from that hour on
    // (the first, at 1:30, came before the 6th's 3 o'clock).
    let clockAt = new Date(2021, 4, 6, 1, 30);
    const daily = startDailyBackups(
      t.app.backups!,
      { hour: 3, clock: { now: () => clockAt }, log: { info: () => undefined, error: () => undefined } },
      60_000,
    );
    const taken = [];
    for (const [day, hour] of [
      [6, 1],
      [6, 4],
      [6, 5],
      [7, 2],
      [7, 3],
      [7, 23],
    ] as const) {
      clockAt = new Date(2021, 4, day, hour, 30);
      taken.push((await daily.runNow())?.createdAt);
    }
    await daily.stop();
    const at = (day: number, hour: number) => new Date(2021, 4, day, hour, 30).toISOString();
    expect(taken).toEqual([at(6, 1), at(6, 4), undefined, undefined, at(7, 3), undefined]);

    const now = await admins.admin.backups.create();
    const latest = await admins.admin.backups.create();
    const listed = await admins.admin.backups.list();
    // Two kept (BACKUP_KEEP), the newest first; the days' are gone.
    expect(listed.backups.map((backup) => backup.name)).toEqual([latest.name, now.name]);

    const download = (name: string, cookie: string) =>
      t.app.inject({ method: 'GET', url: `${BACKUP_DOWNLOAD_PATH}/${name}`, headers: { cookie } });
    const res = await download(latest.name, adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${latest.name}"`);
    expect(res.rawPayload.equals(fs.readFileSync(path.join(backupsDir(t.config.dataDir), latest.name)))).toBe(true);
    expect((await download(latest.name, await signInHttp(t.app, (await createCustomer(t.db)).email))).statusCode).toBe(403);
    expect((await download(latest.name, '')).statusCode).toBe(401);
    expect((await download(path.basename(backupFile), adminCookie)).statusCode).toBe(404);
    expect((await download('..%2Fpgdata', adminCookie)).statusCode).toBe(404);
  });
});
