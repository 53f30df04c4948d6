/**
 * `definitions/shared-folder-name` (package rule 1): `shared/` holds package-level shared steps and evaluators
 * (`shared/steps/*.js`, `shared/evaluators/*.js`); a workflow folder named `shared` would mix a workflow's
 * own activities with the package's shared ones.
 */
import * as path from 'node:path';
import { createRule } from '../../create-rule.js';

export const rule = createRule({
  meta: {
    id: 'definitions/shared-folder-name',
    severity: 'error',
    docs: { description: 'No workflow folder is named `shared`; that folder is reserved for shared steps and evaluators.', packageRule: 1 },
    messages: {
      sharedFolder: {
        message: 'The workflow file {{file}} is in a folder named "shared", which is reserved for shared steps and evaluators.',
        hint: 'Move the workflow to a folder named after it (for example "{{suggestion}}/workflow.js").',
      },
    },
  },
  check(context) {
    const files = new Set<string>();
    for (const wf of context.manifest.workflows) files.add(wf.file);
    for (const pkg of context.packages) for (const f of pkg.files) if (context.classify(f) === 'workflow') files.add(f);
    for (const file of [...files].sort()) {
      if (path.basename(path.dirname(file)) !== 'shared') continue;
      context.report({
        file,
        loc: { line: 1, column: 1 },
        messageId: 'sharedFolder',
        data: {
          file: path.relative(context.manifest.root, file) || file,
          suggestion: path.join(path.dirname(path.dirname(path.relative(context.manifest.root, file))), 'my_workflow'),
        },
      });
    }
  },
});
