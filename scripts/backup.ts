import { parseArgs } from 'node:util';
import { backupStore } from '../src/server/backup/store';
import { ConfigError, loadConfig } from '../src/server/config';

// npm run backup [-- --output FILE]
// Writes the whole store (database and stored files, with a manifest) into one file: by default a
// new one in DATA_DIR/backups. Works while the store runs: on the embedded database the running
// store takes it (docs/adr/0024); on a PostgreSQL server pg_dump does when it is on the PATH.

const USAGE = `Usage: npm run backup [-- --output <file>]

  --output   where to write the backup (default: DATA_DIR/backups/threadline-backup-<time>.tar.gz)`;

let output: string | undefined;
try {
  const { values } = parseArgs({
    options: { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  output = values.output;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}

backupStore(loadConfig(), output).then(
  ({ file, viaRunningStore }) => {
    console.log(`Backup written to ${file}${viaRunningStore ? ' (taken by the running store)' : ''}`);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(
      error instanceof ConfigError ? error.message : `Backup failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
