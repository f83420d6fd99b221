import { defineConfig } from 'vitest/config';

// Three kinds of tests (docs/ARCHITECTURE.md § Tests): unit, integration on a real database, and
// end-to-end in Chromium against the built app. `npm test` runs them all.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // Projects with their own worker counts need their own group: unit, then integration, then e2e.
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // PGlite holds ~300 MiB per open database; two files at a time suits a 2-core machine.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          // A whole purchase or a dozen screens with axe runs: well under a minute alone, near it on a
          // busy 2-core machine. The limit only stops a test that hangs.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // What a page shows may take seconds on a busy 2-core machine, not expect.poll's default 1 s.
          expect: { poll: { timeout: 10_000 } },
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
