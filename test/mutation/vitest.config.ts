import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Vitest config of the mutation run (`npm run test:mutation`, StrykerJS): the unit tests of discovery and the validator,
 * with `@skein/discovery` and `@skein/validator` resolved to this checkout's sources. Stryker runs it in a sandbox copy
 * whose `node_modules` is a link to the original, where the workspace links lead back to the unmutated packages;
 * the aliases make every import (tests' and the validator's own) see the mutated code.
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
    testTimeout: 20_000,
  },
});
