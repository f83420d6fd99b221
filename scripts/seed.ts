import path from 'node:path';
import { ConfigError, loadConfig } from '../src/server/config';
import { DatabaseBusyError, openDatabase } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { seedIfEmpty } from '../src/server/seed/seed';
import { LocalStorage } from '../src/server/storage/local';

// npm run db:seed: migrates, then adds the demo store data unless it was added before.
// (The server does the same on its first start; this is for a database prepared ahead of time.)

async function main(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
    const seeded = await seedIfEmpty(database.db, new LocalStorage(path.join(config.dataDir, 'storage')));
    console.log(seeded ? 'Demo store data created.' : 'Demo data was already seeded; nothing to do.');
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof DatabaseBusyError ? error.message : error);
    process.exit(1);
  },
);
