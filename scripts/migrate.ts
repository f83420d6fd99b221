import { ConfigError, loadConfig } from '../src/server/config';
import { DatabaseBusyError, openDatabase } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';

// npm run db:migrate: brings the database (DATABASE_URL, or the embedded one in DATA_DIR) up to date.

async function main(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrateToLatest(database.db);
    console.log(applied.length > 0 ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date');
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
