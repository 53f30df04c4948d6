/**
 * `packaging/zod-peer-dependency` (package rule 5): when a published package's declaration files import `zod`,
 * its users' types must come from the same zod as the worker's, so `zod` must be a peer dependency.
 * Reported at the first zod import of the first declaration file, per package.
 */
import * as path from 'node:path';
import { createRule } from '../../create-rule.js';
import { isDeclarationFile } from '@skein/discovery';
import { declarationImports } from './declaration-imports.js';
import { dependencyFields } from './package-json.js';

const isZod = (specifier: string) => specifier === 'zod' || specifier.startsWith('zod/');

export const rule = createRule({
  meta: {
    id: 'packaging/zod-peer-dependency',
    severity: 'error',
    docs: { description: 'A published package whose declaration files import `zod` lists `zod` in `peerDependencies`.', packageRule: 5 },
    messages: {
      notPeer: {
        message: '{{file}} imports "{{specifier}}" but {{package}} does not list "zod" in "peerDependencies"{{where}}.',
        hint: 'Add `"peerDependencies": { "zod": "^4" }` to package.json (and remove it from "dependencies").',
      },
    },
  },
  async check(context) {
    for (const pkg of context.packages) {
      if (!pkg.published) continue;
      const fields = dependencyFields(pkg.packageJson);
      if (fields.peerDependencies.zod !== undefined) continue;
      for (const file of pkg.publishedFiles.filter(isDeclarationFile)) {
        const text = context.readText(file);
        if (text === null || !text.includes('zod')) continue;
        const hit = (await declarationImports(text)).find((i) => isZod(i.specifier));
        if (!hit) continue;
        const where = fields.dependencies.zod !== undefined ? ' (it is a regular dependency)' : '';
        context.report({
          file,
          loc: { line: hit.line, column: hit.column },
          messageId: 'notPeer',
          data: {
            file: path.relative(pkg.root, file),
            specifier: hit.specifier,
            package: typeof pkg.packageJson.name === 'string' ? pkg.packageJson.name : 'the package',
            where,
          },
        });
        break;
      }
    }
  },
});
