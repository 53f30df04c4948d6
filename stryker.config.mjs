// @ts-check
/**
 * Mutation testing of discovery and the validator's rules (`npm run test:mutation`; not part of `npm test` or CI).
 * Scope: packages/discovery/src and packages/validator/src/rules; message text is not mutated (see
 * test/mutation/message-text-ignorer.mjs for what and why). Incremental: results are kept in
 * reports/mutation/stryker-incremental.json, so a rerun tests only mutants whose code or tests changed.
 * A subset: `npm run test:mutation -- --mutate packages/discovery/src/graph.ts`.
 * Scores per area are in docs/testing.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: 'vitest',
  // vmThreads: each test file still gets fresh modules (Stryker's setup file must run per file), but in a VM context
  // of one long-lived worker instead of a new one: about 1.6x the mutants per minute of the default pool here.
  vitest: { configFile: 'test/mutation/vitest.config.ts', related: false, pool: 'vmThreads' },
  plugins: ['@stryker-mutator/vitest-runner', './test/mutation/message-text-ignorer.mjs'],
  ignorers: ['message-text'],
  mutate: ['packages/discovery/src/**/*.ts', 'packages/validator/src/rules/**/*.ts', '!**/*.d.ts'],
  // The fixtures' own node_modules folders are test data: copy them into the sandbox. The repository's node_modules
  // is not linked in: the sandbox lies inside the checkout (.stryker-tmp/), so Node finds it as an ancestor.
  // `.skein/` folders are run-time state (the fuzz test's Python venv, bundle and startup caches), never inputs.
  ignorePatterns: ['/.stryker-tmp', '/reports', '/bench', '/examples', '/test/**/*.test.ts', '**/.skein', '!/fixtures/**/node_modules'],
  symlinkNodeModules: false,
  // Files are copied byte for byte: no `// @ts-nocheck` header (it shifts the fixtures' line numbers).
  disableTypeChecks: false,
  coverageAnalysis: 'perTest',
  // Static mutants (code run only while a module loads, e.g. the rule tables) would each need the whole suite; they
  // are left out. Every rule's severity and SPEC rule are pinned by the golden record packages/validator/test/golden/rules.json.
  ignoreStatic: true,
  // Two shared cores: at most two test runners.
  concurrency: 2,
  timeoutMS: 5_000,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
export default config;
