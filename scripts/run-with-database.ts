import { ConfigError, loadConfig, type Config } from '../src/server/config';
import { DatabaseBusyError, openDatabase, type DatabaseHandle } from '../src/server/db/database';

/**
 * Runs a command-line task against the configured database (DATABASE_URL, or the embedded one
 * in DATA_DIR) and exits with its code. A bad configuration or an embedded database held by the
 * running server prints its message and exits 1.
 */
export function runWithDatabase(task: (database: DatabaseHandle, config: Config) => Promise<number>): void {
  const run = async () => {
    const config = loadConfig();
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      return await task(database, config);
    } finally {
      await database.close();
    }
  };
  run().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError || error instanceof DatabaseBusyError ? error.message : error);
      process.exit(1);
    },
  );
}
