// Whether dist/ holds a build of the current sources (scripts/build.ts writes it). Used by npm
// start and the benchmark; plain JavaScript, so asking costs no compilation.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The built server, which npm start runs. */
export const builtServer = path.join(root, 'dist', '.server', 'server.js');
// What the build writes: the browser's page, the server-rendering module and the server.
const builtFiles = [path.join(root, 'dist', 'index.html'), path.join(root, 'dist', '.ssr', 'entry-server.js'), builtServer];
const sources = ['src', 'server.ts', 'migrations', 'public', 'index.html', 'vite.config.ts', 'scripts/build.ts'];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

export function buildIsCurrent() {
  const builtAt = Math.min(...builtFiles.map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)));
  return builtAt > 0 && sources.every((source) => newestMtime(source) <= builtAt);
}
