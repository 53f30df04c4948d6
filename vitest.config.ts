import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Three tiers, one Vitest project each; docs/testing.md says which tier a new test belongs to.
 *
 * - `unit`: `packages/*\/test`, no engine, files in parallel (one per core). Sources resolve through the
 *   `@skein/source` export condition, so a unit test never runs against a stale `dist`.
 * - `integration`: `test/**\/*.test.ts` except system files, against the ONE real Temporal dev server that
 *   `test/support/global-setup.ts` starts; files isolate themselves by a catalog of their own, so they run in
 *   parallel (`TEST_INTEGRATION_WORKERS`, default 3; one bundling worker per file is what bounds it on 2 cores).
 *   They import `dist`: run `npm run build` first (every npm script that runs them does).
 * - `system`: `test/**\/*.system.test.ts`: files that start their own servers (a second dev server, `skein dev`,
 *   SeaweedFS, Jaeger, Prometheus), kill processes or install packages. One file at a time, so ports, CPU and the
 *   processes they kill never meet another file's. `test/support/system-setup.ts` installs the service binaries
 *   these files need (cache, else built once) before they start.
 *
 * `sequence.groupOrder` runs the tiers one after the other when several are selected in one invocation
 * (`npm run test:quick` selects unit and integration): unit first (fastest feedback), then integration, then system.
 */
const integrationWorkers = Number(process.env.TEST_INTEGRATION_WORKERS ?? 3);

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
          maxWorkers: Math.max(1, availableParallelism()),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.system.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: Math.max(1, integrationWorkers),
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'system',
          include: ['test/**/*.system.test.ts'],
          globalSetup: ['test/support/global-setup.ts', 'test/support/system-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
