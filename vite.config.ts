import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

// Brotli and gzip copies of the built text assets, made once at build time at the highest levels
// (too slow to do per request), and served by @fastify/static's preCompressed option.

const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|webmanifest)$/;
// Below this a compressed copy saves less than its headers cost.
const MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'threadline:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // The server-rendering module is read from disk by the server, never sent.
      if (this.environment.config.build.ssr) return;
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const content = await fs.readFile(file);
          if (content.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * The page's scripts fetched at low priority. Every storefront page arrives rendered, so a phone on
 * a slow network should spend its first bandwidth on the stylesheet and the largest image, which
 * paint it, and only then on the JavaScript, which makes it interactive.
 */
function scriptsAfterPaint(): Plugin {
  return {
    name: 'threadline:scripts-after-paint',
    apply: 'build',
    transformIndexHtml: {
      // After Vite has put in the built entry script and its module preloads.
      order: 'post',
      handler: (html) =>
        html.replace(/<(script type="module"|link rel="modulepreload") crossorigin /g, '<$1 fetchpriority="low" crossorigin '),
    },
  };
}

export default defineConfig({
  root,
  publicDir: path.join(root, 'public'),
  plugins: [
    // The router plugin must run before the React plugin; absolute paths because Vitest runs with another root.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: path.join(root, 'src/client/routes'),
      generatedRouteTree: path.join(root, 'src/client/routeTree.gen.ts'),
    }),
    react(),
    tailwindcss(),
    scriptsAfterPaint(),
    precompress(),
  ],
  resolve: {
    // `import { z } from 'zod'` in the browser's code gets zod configured jitless (see the file).
    alias: [{ find: /^zod$/, replacement: path.join(root, 'src/client/zod-config.ts') }],
  },
  build: {
    outDir: path.join(root, 'dist'),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // zod and its jitless wrapper (src/client/zod-config.ts) in one chunk, loaded by the
          // pages with forms, never by the first page.
          groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]|src[\\/]client[\\/]zod-config\.ts$/ }],
        },
      },
    },
  },
});
