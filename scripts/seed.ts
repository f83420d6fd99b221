import path from 'node:path';
import { migrateToLatest } from '../src/server/db/migrate';
import { seedIfEmpty } from '../src/server/seed/seed';
import { LocalStorage } from '../src/server/storage/local';
import { runWithDatabase } from './run-with-database';

// npm run db:seed: migrates, then adds the demo store data unless it was added before.
// (The server does the same on its first start; this is for a database prepared ahead of time.)

runWithDatabase(async ({ db }, config) => {
  await migrateToLatest(db);
  const seeded = await seedIfEmpty(db, new LocalStorage(path.join(config.dataDir, 'storage')));
  console.log(seeded ? 'Demo store data created.' : 'Demo data was already seeded; nothing to do.');
  return 0;
});
