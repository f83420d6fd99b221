// `npm start`: builds the store when dist/ is missing or older than its sources, then runs the
// built server. Plain JavaScript, so a start compiles nothing when the build is current.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent, builtServer } from './build-freshness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!buildIsCurrent()) {
  console.log('Building the store...');
  const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  execFileSync(process.execPath, [tsx, path.join(root, 'scripts', 'build.ts'), '--quiet'], { cwd: root, stdio: 'inherit' });
}
await import(builtServer);
