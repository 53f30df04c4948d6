/**
 * `conventions/misplaced-factory-call` (package rule 1): a step, an evaluator or a workflow made by calling a factory
 * (a top-level function of the project that returns `step({ name, … })` or the like, named by its argument) belongs
 * where a `step()` written out would: in a steps or evaluators file, or a workflow file. Made in a helper or lib file
 * (`export const toEuro = pricedStep('toEuro', 0.5)` in `src/lib/euro.ts`), or a step made in a workflow file, it is
 * never registered, and every run fails at its call (a steps file that re-exports it registers nothing either).
 * `conventions/misplaced-definition` finds the calls written out; this rule finds the factory calls, in every own
 * source file that is not a steps or evaluators file (the files `misplaced-definition` reads), by the facts discovery
 * links from the factory's module. Reported at the call.
 */
import * as path from 'node:path';
import { isTestFile, sourceStem } from '@skein/discovery';
import { createRule } from '../../create-rule.js';
import { targetFor } from './misplaced-definition.js';

export const rule = createRule({
  meta: {
    id: 'conventions/misplaced-factory-call',
    severity: 'error',
    docs: {
      description: 'A step, evaluator or workflow made by a factory call outside a steps/evaluators or workflow file; it is not registered where it is made.',
      packageRule: 1,
    },
    messages: {
      activity: {
        message:
          '{{factory}}() makes the {{kind}} `{{name}}` in {{file}}, which is not {{what}}; it is never registered as an activity and calling it fails at run time.',
        hint: 'Call {{factory}}() in {{place}} and import it from there.',
      },
      workflow: {
        message: '{{factory}}() makes the workflow `{{name}}` in {{file}}, which is not a workflow file; it is never registered.',
        hint: 'Call {{factory}}() in {{target}}, as its default export (one workflow per folder).',
      },
    },
  },
  check(context) {
    const root = context.manifest.root;
    const workflowDirs = new Set(context.manifest.workflows.map((w) => path.dirname(w.file)));
    const seen = new Set<string>();
    for (const pkg of context.packages) {
      for (const file of pkg.files) {
        const role = context.classify(file);
        if ((role !== null && role !== 'workflow') || seen.has(file) || isTestFile(file) || sourceStem(path.basename(file)) === undefined) continue;
        seen.add(file);
        for (const definition of context.factoryMadeDefinitions(file)) {
          const kind = definition.callee;
          if (kind === 'wrapper') continue; // a wrapper's kind is its file's: here, none
          if (role === 'workflow' && kind === 'workflow') continue; // where it belongs
          const shown = path.relative(root, file) || file;
          const target = path.relative(root, targetFor(file, kind));
          const name = definition.name.ok ? definition.name.value : '(not static)';
          const loc = { line: definition.position.line, column: definition.position.column };
          if (kind === 'workflow') {
            context.report({ file, loc, messageId: 'workflow', data: { factory: definition.calleeName, name, file: shown, target } });
            continue;
          }
          // Beside a workflow, its own steps file is the place; elsewhere (a lib folder) only a shared folder registers it.
          const place = workflowDirs.has(path.dirname(file))
            ? `${target} (or in shared/${kind}s/ to share it between workflows)`
            : `a file of shared/${kind}s/ (or in the ${kind}s file beside the workflow that calls it)`;
          const what = kind === 'step' ? 'a steps file' : 'an evaluators file';
          context.report({ file, loc, messageId: 'activity', data: { factory: definition.calleeName, kind, name, what, file: shown, place } });
        }
      }
    }
  },
});
