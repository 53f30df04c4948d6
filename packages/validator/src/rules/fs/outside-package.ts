/**
 * `fs/outside-package`: a symlink inside the package points outside it, or workflow code imports a path
 * (`../../x.js`) that leaves its package. The validator does not follow either: a published package must
 * be self-contained, and the validator never reads outside the package and its dependencies.
 */
import type { RuleMeta } from '../../types.js';
import { ruleMeta } from '../../engine/rule-meta.js';

export const meta: RuleMeta = ruleMeta('fs/outside-package', {
  messages: {
    symlink: 'The symlink {{file}} points outside the package (to {{target}}); it was not followed.',
    importPath: 'The import {{specifier}} leaves the package (it resolves to {{target}}); it was not followed.',
  },
  hints: {
    symlink: 'Replace the symlink with the file itself; published packages must be self-contained.',
    importPath: 'Import only files inside the package, or depend on the other package by name.',
  },
});
