import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './src/server/app';
import { createPaymentProvider } from './src/server/payments';
import { ensureInitialAdmin } from './src/server/auth/admin';
import { serveBackupRequests, controlSocketPath } from './src/server/backup/control';
import { startDailyBackups } from './src/server/backup/schedule';
import { ConfigError, folderWarnings, loadConfig } from './src/server/config';
import { APP_CONNECTION_SILENCE_MS, DatabaseBusyError, openDatabase, type Db } from './src/server/db/database';
import { migrateToLatest } from './src/server/db/migrate';
import { startDisplayCopyBackfill } from './src/server/display-copies';
import { startEmailProcessor } from './src/server/email/processor';
import { createFulfilmentProvider } from './src/server/fulfilment';
import { startFulfilmentProcessor } from './src/server/fulfilment/jobs';
import { systemClock } from './src/server/subscriptions/dates';
import { startSubscriptionRenewals } from './src/server/subscriptions/renewal';
import { createTransport } from './src/server/email/transport';
import { seedIfEmpty } from './src/server/seed/seed';
import { startRetention } from './src/server/retention';
import { createStorage, localStorageRoot } from './src/server/storage/create';
import { startStoredFileSweep } from './src/server/storage/sweep';

/** The project folder: this file's, or for its build (dist/.server/server.js) the nearest one above with a package.json. */
function projectRoot(from: string): string {
  return fs.existsSync(path.join(from, 'package.json')) || path.dirname(from) === from ? from : projectRoot(path.dirname(from));
}
const root = projectRoot(path.dirname(fileURLToPath(import.meta.url)));

/** docs/ARCHITECTURE.md § Security: on SIGTERM the process exits within 10 s. */
const SHUTDOWN_LIMIT_MS = 9_500;
/** How long requests in progress get to finish before their connections are closed. */
const HTTP_GRACE_MS = 5_000;

async function main() {
  const config = loadConfig();
  const storage = await createStorage(config);
  // A storage out of reach does not stop the store: pages without new images work, uploads say
  // what is wrong, and /readyz reports it until it answers. Only the demo data waits for it.
  const storageProblem = await storage.check().then(
    () => undefined,
    (error: unknown) => error,
  );
  const setUp = async (db: Db) => {
    await migrateToLatest(db);
    return config.seedDemoData && !storageProblem && (await seedIfEmpty(db, storage));
  };

  let seeded = false;
  if (config.databaseUrl) {
    // Migrations and the first start's seed may wait in silence (another process migrating or
    // seeding first, an index being built): on a server they run on a connection of their own,
    // without the app's silence limit.
    const settingUp = await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 1 });
    try {
      seeded = await setUp(settingUp.db);
    } finally {
      await settingUp.close();
    }
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    silentConnectionMs: APP_CONNECTION_SILENCE_MS,
  });
  if (database.kind === 'pglite') seeded = await setUp(database.db);

  const admin = await ensureInitialAdmin(database.db, config);
  const adminNote = !admin
    ? undefined
    : config.initialAdmin
      ? `Admin sign-in: ${admin.email} (password from ADMIN_PASSWORD)`
      : `Admin sign-in: ${admin.email} / ${admin.password}  (shown once; npm run create-admin makes another)`;

  // `npm run dev` serves the client from its sources through Vite (hot reload); otherwise the build.
  const dev = process.argv.includes('--dev');
  const payments = createPaymentProvider(config);
  const fulfilment = createFulfilmentProvider(config);
  const app = await buildApp(config, {
    database,
    storage,
    payments,
    fulfilment,
    ...(dev ? { devClientRoot: root } : { clientDir: path.join(root, 'dist') }),
  });
  const transport = createTransport(config);
  const processor = startEmailProcessor({ db: database.db, transport, config, log: app.log });
  // Paid orders go to Printful when it prints the store's orders (docs/adr/0035).
  const fulfilmentJobs =
    fulfilment.remote && startFulfilmentProcessor({ db: database.db, remote: fulfilment.remote, config, log: app.log });
  const renewals = startSubscriptionRenewals(
    { db: database.db, mail: config, clock: systemClock, log: app.log, billing: payments.subscriptions, dunning: config },
    config.subscriptionRenewIntervalMs,
  );
  // Stored images still without display copies (older ones, the demo store's) get them now, in
  // the background: the store opens at once and serves the originals until then.
  const displayCopies = startDisplayCopyBackfill({ db: database.db, shared: database.kind === 'postgres', storage, log: app.log });
  // Stored files nothing names any more (abandoned uploads, replaced mockups, a deleted product's)
  // are deleted a day after they were stored, by one process at a time (ADR 0021).
  const fileSweep = startStoredFileSweep({ db: database.db, shared: database.kind === 'postgres', storage, log: app.log });
  // Sent emails after EMAIL_RETENTION_DAYS, used or expired emailed links, ended sessions.
  const retention = startRetention({ db: database.db, emailRetentionDays: config.emailRetentionDays, clock: systemClock, log: app.log });
  // The embedded database backs itself up every day, and takes npm run backup's requests (ADR 0024).
  const backups = app.backups;
  const dailyBackups = backups && startDailyBackups(backups, { hour: config.backupHour, clock: systemClock, log: app.log });
  const controlSocket = backups && (await serveBackupRequests(controlSocketPath(config.dataDir), backups, app.log));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, shutting down`);
    // Whatever hangs (a mail server that never answers), the process is gone within the limit.
    setTimeout(() => {
      app.log.error(`shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    await controlSocket?.close();
    // At once and side by side: stop accepting and drain HTTP (live streams end when the event hub
    // stops), and stop the workers, which claim nothing more and finish only the row in hand.
    const http = app.close();
    // Requests still open after the grace (a stream, a slow client) are cut.
    const cut = setTimeout(() => app.server.closeAllConnections(), HTTP_GRACE_MS);
    cut.unref();
    const results = await Promise.allSettled([
      renewals.stop(),
      processor.stop(),
      fulfilmentJobs?.stop(),
      displayCopies.stop(),
      fileSweep.stop(),
      retention.stop(),
      dailyBackups?.stop(),
      http,
    ]);
    clearTimeout(cut);
    for (const result of results) if (result.status === 'rejected') app.log.error({ err: result.reason }, 'shutdown step failed');
    await transport.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  for (const warning of folderWarnings(config, database.kind)) app.log.warn(warning);
  if (storageProblem) app.log.warn({ err: storageProblem }, 'file storage unavailable at start-up; /readyz reports it until it answers');
  await app.listen({ port: config.port, host: config.host });
  const lines = [
    '',
    `  ${config.storeName} is running at ${config.publicUrl}`,
    `  Database: ${database.kind === 'pglite' ? `embedded (${path.join(config.dataDir, 'pgdata')})` : 'PostgreSQL (DATABASE_URL)'}`,
    `  Files: ${config.s3 ? `S3 bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}` : `folder ${localStorageRoot(config.dataDir)}`}`,
    `  Email: ${config.smtpUrl ? 'SMTP (SMTP_URL)' : `outbox folder ${path.join(config.dataDir, 'outbox')}`}`,
    seeded ? '  Demo store data was created on this first run.' : undefined,
    adminNote ? `  ${adminNote}` : undefined,
    '',
  ];
  console.log(lines.filter((line) => line !== undefined).join('\n'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseBusyError) {
    console.error(error.message);
  } else {
    console.error('Threadline failed to start:', error);
  }
  process.exit(1);
});
