import { migrateToLatest } from '../src/server/db/migrate';
import { runWithDatabase } from './run-with-database';

// npm run db:migrate: brings the database (DATABASE_URL, or the embedded one in DATA_DIR) up to date.

runWithDatabase(async ({ db }) => {
  const applied = await migrateToLatest(db);
  console.log(applied.length > 0 ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date');
  return 0;
});
