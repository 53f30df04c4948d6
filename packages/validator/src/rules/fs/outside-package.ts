/**
 * `fs/outside-package`: a symlink inside the package points outside it, or workflow code imports a path
 * (`../../x.js`) that leaves its package. The validator does not follow either: a published package must
 * be self-contained, and the validator never reads outside the package and its dependencies.
 */
import { defineRuleMeta } from '../../create-rule.js';

export const meta = defineRuleMeta({
  id: 'fs/outside-package',
  severity: 'error',
  docs: { description: 'Files and imports of a workflow package stay inside the package (no symlink or `..` path leaving it).' },
  messages: {
    symlink: {
      message: 'The symlink {{file}} points outside the package (to {{target}}); it was not followed.',
      hint: 'Replace the symlink with the file itself; published packages must be self-contained.',
    },
    importPath: {
      message: 'The import {{specifier}} leaves the package (it resolves to {{target}}); it was not followed.',
      hint: 'Import only files inside the package, or depend on the other package by name.',
    },
  },
});
