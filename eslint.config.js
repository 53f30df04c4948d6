// @ts-check
/**
 * ESLint (flat config): typescript-eslint's type-checked rules over the packages' sources (every file there belongs to
 * a package's tsconfig), its plain rules over tests, scripts and benchmarks. Layout is Prettier's business
 * (`npm run format`), so no rule here is about it. `npm run lint` runs with `--max-warnings 0` inside `npm test`.
 */
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/generated/**',
      'bench/.generated/**',
      'fixtures/**',
      'packages/validator/test/golden/**',
      '**/.skein/**',
      'reports/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['packages/*/src/**/*.ts', 'packages/*/src/**/*.cts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    rules: {
      // A leading underscore marks a parameter or binding kept on purpose (a signature, a destructured rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // `catch {}` is how the code says "a failure here changes nothing"; other empty blocks are still errors.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Route handlers and hooks implement async interfaces; one without an `await` is not a defect.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read untyped JSON answers and reach into internals.
    files: ['test/**/*.ts', 'packages/*/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // webpack loads the stub loader as CommonJS.
    files: ['**/*.cts', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
  },
);
