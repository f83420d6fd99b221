import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type LogLevel } from 'vite';

// Builds the store into the folder given (dist/ by default): the browser's bundle, the
// server-rendering module into .ssr/ (src/server/http/client.ts loads it from there) and the
// server itself into .server/, plain JavaScript, so a production start compiles nothing.
// Dot folders are never served. `--quiet` prints warnings only.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const logLevel: LogLevel = args.includes('--quiet') ? 'warn' : 'info';
const outDir = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? path.join(root, 'dist'));
const configFile = path.join(root, 'vite.config.ts');

await build({ configFile, logLevel, build: { outDir, emptyOutDir: true } });
await build({
  configFile,
  logLevel,
  // Bundled for the icons the pages use: the package's entry module defines every icon, and
  // evaluating it took longer than rendering a page.
  ssr: { noExternal: ['lucide-react'] },
  build: {
    outDir: path.join(outDir, '.ssr'),
    emptyOutDir: true,
    copyPublicDir: false,
    ssr: path.join(root, 'src/client/entry-server.tsx'),
  },
});
// The server's own code in one module; its dependencies stay in node_modules, except Kysely and
// zod: their ES builds are some 360 small files, and loading them one by one took 0.2 s of every
// start. Only the server uses these copies (the server-rendering module loads zod from
// node_modules), so no class is compared across the two.
await build({
  configFile: false,
  root,
  logLevel,
  publicDir: false,
  ssr: { noExternal: ['kysely', 'zod'] },
  build: {
    outDir: path.join(outDir, '.server'),
    emptyOutDir: true,
    ssr: path.join(root, 'server.ts'),
    target: 'node20',
    sourcemap: true,
  },
});
