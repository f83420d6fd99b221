import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

// `npm run format` rewrites every file Prettier covers; `npm run format -- --check` only reports
// (CI). Prettier itself would write and pass if given both flags, hence this switch.
const check = process.argv.includes('--check');
const prettier = createRequire(import.meta.url).resolve('prettier/bin/prettier.cjs');
const result = spawnSync(process.execPath, [prettier, check ? '--check' : '--write', '--log-level', 'warn', '.'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
