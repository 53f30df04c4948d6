import { defineConfig } from 'vitest/config';

/**
 * Two projects:
 * - `unit`: per-package tests (`packages/*\/test`), no engine; sources resolved through the `@skein/source`
 *   export condition so they never run against a stale `dist`.
 * - `integration`: cross-package tests (`test/`) against a real Temporal dev server started once by
 *   `test/support/global-setup.ts`; they need `npm run build` first (`npm test` does it).
 */
export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        resolve: { conditions: ['@skein/source'] },
        ssr: { resolve: { conditions: ['@skein/source'] } },
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
