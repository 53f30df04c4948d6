/**
 * `packaging/javascript-sources` (package rule 5): published workflow, steps and evaluators files are
 * JavaScript. A TypeScript source (`greet/workflow.ts`) whose built `.js` sibling is missing means the
 * package was published without building it; the worker would find no workflow there.
 */
import * as path from 'node:path';
import { createRule } from '../../create-rule.js';
import { isDeclarationFile } from '@skein/discovery';

const TS_TO_JS: Record<string, string> = { '.ts': '.js', '.mts': '.mjs', '.cts': '.cjs' };

export const rule = createRule({
  meta: {
    id: 'packaging/javascript-sources',
    severity: 'error',
    docs: { description: 'Published workflow, steps and evaluators files are JavaScript; a `.ts` source needs its built `.js`.', packageRule: 5 },
    messages: {
      unbuilt: {
        message: '{{file}} is TypeScript and {{js}} is missing; published {{role}} files must be JavaScript.',
        hint: 'Build the package before publishing (for example `tsc` with `outDir` unset or pointing at the published folder) so {{js}} exists.',
      },
    },
  },
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
});
