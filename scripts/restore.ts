import { parseArgs } from 'node:util';
import { InvalidBackupError } from '../src/server/backup/backup';
import { RestoreRefusedError, restoreStore } from '../src/server/backup/store';
import { ConfigError, loadConfig } from '../src/server/config';
import { DatabaseBusyError } from '../src/server/db/database';

// npm run restore -- FILE [--force]
// Puts a backup back into the configured store (DATABASE_URL, or the embedded one in DATA_DIR,
// and its files). The store must be stopped and empty; --force replaces one that has data. The
// backup is checked against its manifest before anything changes, and the store after.

const USAGE = `Usage: npm run restore -- <backup file> [--force]

  --force   replace a store that already has data (its database and stored files)`;

let file: string;
let force: boolean;
try {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length !== 1) throw new Error(positionals.length === 0 ? 'Which backup file?' : 'One backup file at a time');
  file = positionals[0]!;
  force = values.force === true;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}

restoreStore(loadConfig(), file, { force, log: (line) => console.log(line) }).then(
  (report) => {
    console.log(`Restored ${report.tables} tables (${report.rows} rows) and ${report.files} files; every one matches the backup.`);
    if (report.missingObjects.length > 0) {
      console.error(
        `${report.missingObjects.length} files listed in the backup are not in the S3 bucket as they were (restore them from the bucket's versions): ${report.missingObjects.slice(0, 10).join(', ')}`,
      );
      process.exit(1);
    }
    process.exit(0);
  },
  (error: unknown) => {
    const known = [ConfigError, DatabaseBusyError, RestoreRefusedError, InvalidBackupError].some((kind) => error instanceof kind);
    console.error(known ? (error as Error).message : error);
    process.exit(1);
  },
);
