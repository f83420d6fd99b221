import { migrateToLatest } from '../src/server/db/migrate';
import { seedIfEmpty } from '../src/server/seed/seed';
import { createStorage } from '../src/server/storage/create';
import { runWithDatabase } from './run-with-database';

// npm run db:seed: migrates, then adds the demo store data unless it was added before.
// (The server does the same on its first start; this is for a database prepared ahead of time.)

runWithDatabase(async ({ db }, config) => {
  await migrateToLatest(db);
  // The configured storage, so the demo images land where the app serves them from (S3 when set).
  const seeded = await seedIfEmpty(db, await createStorage(config));
  console.log(seeded ? 'Demo store data created.' : 'Demo data was already seeded; nothing to do.');
  return 0;
});
