import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Vitest config of the mutation run (`npm run test:mutation`, StrykerJS): the unit tests of discovery and the validator,
 * with `@skein/discovery` and `@skein/validator` resolved to this checkout's sources. Stryker runs it in a sandbox copy
 * whose `node_modules` is a link to the original, where the workspace links lead back to the unmutated packages;
 * the aliases make every import (tests' and the validator's own) see the mutated code.
 *
 * Tuned for speed, because every mutant reruns the tests that cover it (docs/testing.md, "Mutation testing"):
 * - `isolate: false`: the test files share one module graph instead of re-importing discovery, the validator and
 *   Babel for each file of each mutant run (no test mocks modules or keeps global state; mutants are switched at run
 *   time through `globalThis.__stryker__`, so nothing needs reloading).
 * - `traverse-parity.test.ts` is left out: it runs every rule under two traversals over every fixture file (seconds
 *   per run), so it covers every rule mutant, and it is a dev-time proof that the walker agrees with
 *   `@babel/traverse`, not a check of what a rule reports (the rules' own tests and the golden records are).
 * - `create-rule-types.test.ts` is left out: it compiles sources with TypeScript to check `createRule`'s types, which
 *   no mutant changes, and Stryker's instrumented sources do not type-check.
 */
const repo = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root: repo,
  resolve: {
    conditions: ['@skein/source'],
    alias: {
      '@skein/discovery': `${repo}packages/discovery/src/index.ts`,
      '@skein/validator': `${repo}packages/validator/src/index.ts`,
    },
  },
  ssr: { resolve: { conditions: ['@skein/source'] } },
  test: {
    include: ['packages/discovery/test/**/*.test.ts', 'packages/validator/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'packages/validator/test/traverse-parity.test.ts', 'packages/validator/test/create-rule-types.test.ts'],
    testTimeout: 20_000,
  },
});
