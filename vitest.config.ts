import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Three tiers, each one or two Vitest projects; docs/testing.md says which tier a new test belongs to.
 *
 * - `unit`: `packages/*\/test`, no engine, files in parallel (one per core). Sources resolve through the
 *   `@skein/source` export condition, so a unit test never runs against a stale `dist`. The files run in one module
 *   graph per worker (`isolate: false`): each file importing Temporal's SDK, webpack, Koa or the analysis again cost
 *   the tier more CPU than its tests (measured: the API's, core's and the CLI's files 20 s → 8 s, the worker's
 *   72 s → 31–34 s). So every file leaves the process as it found it (`vi.stubEnv`, never a new `process.env`;
 *   spies restored; core's hook registry cleared) and passes in any order (`--sequence.shuffle`).
 * - `integration` and `integration-isolated`: `test/**\/*.test.ts` except system files, against the ONE real
 *   Temporal dev server that `test/support/global-setup.ts` starts; files isolate themselves by a catalog of their
 *   own, so they run in parallel (`TEST_INTEGRATION_WORKERS`, default 3; one bundling worker per file is what bounds
 *   it on 2 cores). They import `dist`: run `npm run build` first (every npm script that runs them does). The files
 *   of `integration` run in one module graph per worker (`isolate: false`): importing the worker, Temporal's SDK and
 *   the API once per worker instead of once per file saves about a fifth of the tier's CPU. The files in
 *   `INTEGRATION_ISOLATED` leave process-wide state behind (each with its reason), so they run after the others,
 *   each in a process of its own (`integration-isolated`).
 * - `system`: `test/**\/*.system.test.ts`: files that start their own servers (a second dev server, `skein dev`,
 *   SeaweedFS, Jaeger, Prometheus), kill processes or install packages. Each listens on free ports and writes to
 *   folders of its own, so three run at a time (`TEST_SYSTEM_WORKERS`, default 3): most of their time is spent
 *   waiting for processes, not computing (on 2 cores, from a built clone: 155 s two at a time, 125–131 s three at a
 *   time in three runs, every file passing). The files in `SYSTEM_ALONE` run one at a time, after the others, as the
 *   `system-alone` project: each either bounds a wait tightly (a reaction "at once") or changes or loads the machine
 *   itself (a nested Vitest, a build of the repository). The fleets of three workers (`rollout`, `traces/fleet`) share
 *   the pool: their workers start together and bundle the project once (the bundling lock), not three times. So does
 *   `cli/init` (npm installs and the scaffolded projects' own tests): alone it kept 1.1 of the 2 cores busy (70 CPU-s
 *   in 61 s), and beside the others the tier took 289 s instead of 337 s (one run each, every file passing; init 137 s,
 *   its tests' budgets 240 and 300 s).
 *   `test/support/system-setup.ts` installs the service binaries these files need (cache, else built once) before
 *   they start.
 *
 * `sequence.groupOrder` runs the tiers one after the other when several are selected in one invocation
 * (`npm run test:quick` selects unit and integration): unit first (fastest feedback), then integration (its shared
 * files, then its isolated ones), then system (`--project system --project system-alone` selects both of its
 * projects).
 */
const integrationWorkers = Number(process.env.TEST_INTEGRATION_WORKERS ?? 3);
const systemWorkers = Number(process.env.TEST_SYSTEM_WORKERS ?? 3);

const unitSources = { resolve: { conditions: ['@skein/source'] }, ssr: { resolve: { conditions: ['@skein/source'] } } };

/** Integration files that need a process of their own (see above), each with the reason. */
const INTEGRATION_ISOLATED = [
  // Sets OTEL_* for the process and starts a worker and an API that register OpenTelemetry's global tracer provider.
  'test/observability/trace-context.test.ts',
  // Temporal's Runtime, with the worker's Prometheus exporter, can be installed only once in a process.
  'test/worker/metrics.test.ts',
  // Spies on Temporal's Worker and workflow thread classes, shared by every file of the process.
  'test/worker/early-thread.test.ts',
  // Read the lifecycle hooks a project registers in `@skein/core`'s module state, and set SKEIN_HOOK_LOG and
  // SKEIN_TRACE_DIR for the process: a project's hook module, once imported, is not imported (registered) again.
  'test/worker/hooks-traces.test.ts',
  'test/worker/replay.test.ts',
  // Failed once in seven shared runs (both its tests, the cause not captured), never in a process of its own: kept
  // here until the cause is known.
  'test/deploy/declared-schedules.test.ts',
];

/**
 * What both integration projects share: the one dev server, the timeouts, the files at a time, and webpack's
 * persistent cache off (`SKEIN_WEBPACK_CACHE`) for the workers the files start. After each bundle cache miss a
 * worker would start a background process that bundles the project again to write that cache (the next edit's
 * rebuild reads it), and the tier's files never edit a project twice: measured on a fresh clone, 39 such processes
 * took 70 of the tier's 427 CPU-s, and its wall time was 232 s with them and 195 s without. The system tier keeps the
 * default; the unit tests of the bundle cache cover both. And Node's compile cache (`NODE_COMPILE_CACHE`, a folder of
 * the checkout's) for the processes the files start: the webpack process of each bundling, which the worker forks
 * from the test's own process, otherwise compiles webpack, swc and Temporal's bundler anew each time (the `skein` CLI
 * turns the cache on itself). Measured from a clone without fixture caches, two runs each: 342–347 CPU-s in 200–202 s
 * without it, 328 CPU-s in 192–193 s with it.
 */
const integrationTier = {
  globalSetup: ['test/support/global-setup.ts'],
  env: { SKEIN_WEBPACK_CACHE: 'off', NODE_COMPILE_CACHE: path.resolve(import.meta.dirname, 'node_modules', '.cache', 'skein-test', 'compile-cache') },
  testTimeout: 60_000,
  hookTimeout: 120_000,
  maxWorkers: Math.max(1, integrationWorkers),
};

/** System files that run alone (see above), each with the reason. */
const SYSTEM_ALONE = [
  // "Retired at once": a 404 within 2 s of the last worker's shutdown.
  'test/api/catalog-liveness.system.test.ts',
  // Requests answered within 2 s of the engine going away, and a run's 408 at its own 700 ms timeout (it missed the
  // 2.5 s bound by 51 ms once, beside the integration tier's other files).
  'test/api/engine-bounds.system.test.ts',
  // `npm run dev` builds the repository (tsc -b writes dist/ that every other file imports).
  'test/cli/npm-dev.system.test.ts',
  // A nested Vitest run of two packages' unit tests under Node 22.
  'test/packages/node22.system.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        ...unitSources,
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts'],
          isolate: false,
          testTimeout: 20_000,
          maxWorkers: Math.max(1, availableParallelism()),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.system.test.ts', ...INTEGRATION_ISOLATED],
          isolate: false,
          ...integrationTier,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'integration-isolated',
          include: INTEGRATION_ISOLATED,
          ...integrationTier,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'system',
          include: ['test/**/*.system.test.ts'],
          exclude: SYSTEM_ALONE,
          globalSetup: ['test/support/global-setup.ts', 'test/support/system-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: Math.max(1, systemWorkers),
          sequence: { groupOrder: 3 },
        },
      },
      {
        test: {
          name: 'system-alone',
          include: SYSTEM_ALONE,
          globalSetup: ['test/support/global-setup.ts', 'test/support/system-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 4 },
        },
      },
    ],
  },
});
