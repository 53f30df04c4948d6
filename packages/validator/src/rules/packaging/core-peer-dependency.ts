/**
 * `packaging/core-peer-dependency` (package rule 5): a published workflow package lists `@skein/core` in
 * `peerDependencies`, so the worker's single copy of the authoring API is shared. A regular dependency
 * (a second copy) or no declaration at all is an error.
 */
import { jsonKeyPosition } from '@skein/discovery';
import { createRule } from '../../create-rule.js';
import { dependencyFields } from './package-json.js';

export const CORE_PACKAGE = '@skein/core';

export const rule = createRule({
  meta: {
    id: 'packaging/core-peer-dependency',
    severity: 'error',
    docs: { description: 'A published workflow package declares `@skein/core` as a peer dependency, never a regular one.', packageRule: 5 },
    messages: {
      regularDependency: {
        message: '{{package}} lists "@skein/core" in "{{field}}"; it must be a peer dependency.',
        hint: 'Move it: `"peerDependencies": { "@skein/core": "{{range}}" }` (keep it in devDependencies for your tests).',
      },
      missing: {
        message: '{{package}} does not declare "@skein/core" in "peerDependencies".',
        hint: 'Add `"peerDependencies": { "@skein/core": "^0.1.0" }` to package.json.',
      },
    },
  },
  check(context) {
    for (const pkg of context.packages) {
      if (!pkg.published) continue;
      const fields = dependencyFields(pkg.packageJson);
      const name = typeof pkg.packageJson.name === 'string' ? pkg.packageJson.name : 'The package';
      let reported = false;
      for (const field of ['dependencies', 'optionalDependencies'] as const) {
        const range = fields[field][CORE_PACKAGE];
        if (range === undefined) continue;
        reported = true;
        context.report({
          file: pkg.packageJsonPath,
          loc: jsonKeyPosition(pkg.packageJsonText, field, CORE_PACKAGE),
          messageId: 'regularDependency',
          data: { package: name, field, range },
        });
      }
      if (!reported && fields.peerDependencies[CORE_PACKAGE] === undefined) {
        context.report({ file: pkg.packageJsonPath, loc: jsonKeyPosition(pkg.packageJsonText, 'name'), messageId: 'missing', data: { package: name } });
      }
    }
  },
});
