/**
 * `packaging/core-peer-dependency` (SPEC rule 5): a published workflow package lists `@skein/core` in
 * `peerDependencies`, so the worker's single copy of the authoring API is shared. A regular dependency
 * (a second copy) or no declaration at all is an error.
 */
import { jsonKeyPosition } from '@skein/discovery';
import type { ProjectRule, RuleMeta } from '../../types.js';
import { ruleMeta } from '../../engine/rule-meta.js';
import { dependencyFields } from './package-json.js';

export const CORE_PACKAGE = '@skein/core';

export const meta: RuleMeta = ruleMeta('packaging/core-peer-dependency', {
  messages: {
    regularDependency: '{{package}} lists "@skein/core" in "{{field}}"; it must be a peer dependency.',
    missing: '{{package}} does not declare "@skein/core" in "peerDependencies".',
  },
  hints: {
    regularDependency: 'Move it: `"peerDependencies": { "@skein/core": "{{range}}" }` (keep it in devDependencies for your tests).',
    missing: 'Add `"peerDependencies": { "@skein/core": "^0.1.0" }` to package.json.',
  },
});

export const rule: ProjectRule = {
  kind: 'project',
  meta,
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
};
