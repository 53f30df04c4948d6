/**
 * `packaging/javascript-sources` (SPEC rule 5): published workflow, steps and evaluators files are
 * JavaScript. A TypeScript source (`greet/workflow.ts`) whose built `.js` sibling is missing means the
 * package was published without building it; the worker would find no workflow there.
 */
import * as path from 'node:path';
import type { ProjectRule, RuleMeta } from '../../types.js';
import { ruleMeta } from '../../engine/rule-meta.js';
import { isDeclarationFile } from './declaration-imports.js';

export const meta: RuleMeta = ruleMeta('packaging/javascript-sources', {
  messages: {
    unbuilt: '{{file}} is TypeScript and {{js}} is missing; published {{role}} files must be JavaScript.',
  },
  hints: {
    unbuilt: 'Build the package before publishing (for example `tsc` with `outDir` unset or pointing at the published folder) so {{js}} exists.',
  },
});

const TS_TO_JS: Record<string, string> = { '.ts': '.js', '.mts': '.mjs', '.cts': '.cjs' };

export const rule: ProjectRule = {
  kind: 'project',
  meta,
  check(context) {
    for (const pkg of context.packages) {
      if (!pkg.published) continue;
      const files = new Set(pkg.publishedFiles);
      for (const file of pkg.publishedFiles) {
        const ext = path.extname(file);
        const jsExt = TS_TO_JS[ext];
        if (jsExt === undefined || isDeclarationFile(file)) continue;
        const js = file.slice(0, -ext.length) + jsExt;
        const role = context.classify(js);
        if (role === null || files.has(js)) continue;
        context.report({
          file,
          loc: { line: 1, column: 1 },
          messageId: 'unbuilt',
          data: { file: path.relative(pkg.root, file), js: path.relative(pkg.root, js), role: role.replace('shared-', 'shared ') },
        });
      }
    }
  },
};
