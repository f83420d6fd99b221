import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

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
  ],
  build: {
    outDir: path.join(root, 'dist'),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // zod and src/client/zod-config.ts in one chunk, the config right after zod, so zod is
          // jitless before any schema exists (the CSP has no 'unsafe-eval'; see zod-config.ts).
          groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]|src[\\/]client[\\/]zod-config\.ts$/ }],
        },
      },
    },
  },
});
