/**
 * `fs/outside-package`: a symlink inside the package points outside it, or workflow code imports a path
 * (`../../x.js`) that leaves its package. The validator does not follow either: a published package must
 * be self-contained, and the validator never reads outside the package and its dependencies.
 */
import type { RuleMeta } from '../../types.js';

export const meta: RuleMeta = {
  id: 'fs/outside-package',
  severity: 'error',
  description: 'Files and imports of a workflow package stay inside the package (no symlink or `..` path leaving it).',
  docs: { path: 'docs/rules/fs/outside-package.md' },
  messages: {
    symlink: 'The symlink {{file}} points outside the package (to {{target}}); it was not followed.',
    importPath: 'The import {{specifier}} leaves the package (it resolves to {{target}}); it was not followed.',
  },
  hints: {
    symlink: 'Replace the symlink with the file itself; published packages must be self-contained.',
    importPath: 'Import only files inside the package, or depend on the other package by name.',
  },
};
