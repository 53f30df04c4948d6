/**
 * `packaging/type-declarations` (package rule 5, a recommendation): published workflow, steps and evaluators
 * files come with `.d.ts` declarations so callers get typed inputs and outputs. One warning per package,
 * at package.json, counting the files without a declaration.
 */
import * as path from 'node:path';
import { createRule } from '../../create-rule.js';

export const rule = createRule({
  meta: {
    id: 'packaging/type-declarations',
    severity: 'warning',
    docs: { description: 'Published workflow, steps and evaluators files have `.d.ts` declarations next to them.', packageRule: 5 },
    messages: {
      missing: {
        message: '{{count}} of {{total}} workflow, steps and evaluators files of {{package}} have no .d.ts declaration (first: {{first}}).',
        hint: 'Publish declarations: set `"declaration": true` in tsconfig.json (or write .d.ts files) and include them in "files".',
      },
    },
  },
  check(context) {
    for (const pkg of context.packages) {
      if (!pkg.published) continue;
      const files = new Set(pkg.publishedFiles);
      const published = pkg.publishedFiles.filter((f) => f.endsWith('.js') && context.classify(f) !== null);
      const missing = published.filter((f) => !files.has(f.replace(/\.js$/, '.d.ts')));
      if (missing.length === 0) continue;
      context.report({
        file: pkg.packageJsonPath,
        loc: { line: 1, column: 1 },
        messageId: 'missing',
        data: {
          count: String(missing.length),
          total: String(published.length),
          package: typeof pkg.packageJson.name === 'string' ? pkg.packageJson.name : path.basename(pkg.root),
          first: path.relative(pkg.root, missing[0] as string),
        },
      });
    }
  },
});
