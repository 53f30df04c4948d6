/**
 * `conventions/misplaced-definition` (package rule 1): `step()` / `evaluator()` belong in steps and
 * evaluators files, `workflow()` in a workflow file. Anywhere else the definition is never registered: a step in
 * `utils.ts` fails inside the bundle at run time, a workflow in `shared/common.ts` never exists. Reported at the
 * call, with the file to move it to. Only `@skein/core` calls made while the module loads count (a wrapper factory
 * such as `verify(config)` calls `evaluator()` inside a function, and defines nothing itself; the calls of such a
 * factory take their kind from their file); test files are never looked at.
 */
import * as path from 'node:path';
import { VISIT_SCOPE } from '@skein/discovery';
import type { CodeRole, ResolvedImport } from '../../types.js';
import { createRule } from '../../create-rule.js';
import { isModuleTopLevel } from '../util/ast.js';
import { visitDefinitionCalls } from '../util/visitors.js';

const ACTIVITY_ROLES: ReadonlySet<CodeRole> = new Set(['steps', 'evaluators', 'shared-steps', 'shared-evaluators']);

/**
 * The file a definition of `kind` found in `file` belongs in: for a file nested below a `steps/` (`evaluators/`)
 * folder, that folder itself (folders are one level deep); otherwise `<dir>/steps.ts`, `<dir>/evaluators.ts`,
 * `<dir>/workflow.ts`, with the file's own extension.
 */
export function targetFor(file: string, kind: string): string {
  const ext = /\.[mc]?[jt]s$/.exec(file)?.[0] ?? '.js';
  const base = kind === 'workflow' ? 'workflow' : `${kind}s`;
  const parts = path.dirname(file).split(path.sep);
  const folder = parts.lastIndexOf(base);
  if (kind !== 'workflow' && folder >= 0) return path.join(parts.slice(0, folder + 1).join(path.sep), path.basename(file));
  return path.join(path.dirname(file), `${base}${ext}`);
}

/** True when the folder of the checked file holds a workflow file (asked through the resolver, so a cached run asks again). */
function besideAWorkflow(context: { file: string; role: CodeRole; resolve(specifier: string): ResolvedImport }): boolean {
  if (context.role === 'workflow') return true;
  const resolved = context.resolve(`./${path.basename(targetFor(context.file, 'workflow'))}`);
  return resolved.kind === 'file' && resolved.role === 'workflow';
}

const SCOPE = { Program: 'module', CallExpression: 'module' } as const; // only calls made while the module loads count

export const rule = createRule({
  meta: {
    id: 'conventions/misplaced-definition',
    severity: 'error',
    docs: {
      description: 'A step() or evaluator() outside a steps/evaluators file, or a workflow() outside a workflow file; it is not registered where it is.',
      packageRule: 1,
    },
    messages: {
      activity: {
        message: '{{kind}}() is defined in {{file}}, which is not {{what}}; it is never registered as an activity and calling it fails at run time.',
        hint: 'Move it to {{target}} (or to shared/{{kind}}s/ to share it between workflows) and import it from there.',
      },
      activityNoWorkflow: {
        message: '{{kind}}() is defined in {{file}}, which is not {{what}}; it is never registered as an activity and calling it fails at run time.',
        hint: "Move it to the {{kind}}s file beside the workflow that calls it ({{kind}}s{{ext}} in that workflow's folder), or to shared/{{kind}}s/ to share it between workflows, and import it from there.",
      },
      workflow: {
        message: 'workflow() is defined in {{file}}, which is not a workflow file; it is never registered.',
        hint: 'Move it to {{target}} as its default export (one workflow per folder).',
      },
    },
  },
  appliesTo: ['workflow', 'workflow-code', 'steps', 'evaluators', 'shared-steps', 'shared-evaluators', 'other'],
  create(context) {
    const visitor = visitDefinitionCalls(['workflow', 'step', 'evaluator'], (callPath, kind) => {
      if (kind === 'workflow' ? context.role === 'workflow' : ACTIVITY_ROLES.has(context.role)) return; // where it belongs
      if (!isModuleTopLevel(callPath)) return; // a factory that forwards to step()/workflow() defines nothing by itself
      const file = path.relative(context.packageRoot, context.file) || context.file;
      if (kind === 'workflow') {
        context.report({
          node: callPath.node,
          messageId: 'workflow',
          data: { file, target: path.relative(context.packageRoot, targetFor(context.file, kind)) },
        });
        return;
      }
      const target = targetFor(context.file, kind);
      const what = kind === 'step' ? 'a steps file' : 'an evaluators file';
      // A steps file is a workflow's only beside its workflow file: in a folder without one (`src/lib/`), the file
      // beside would be no workflow's, and moving the definition there would trade this finding for another.
      if (path.dirname(target) === path.dirname(context.file) && !besideAWorkflow(context)) {
        const ext = path.extname(target);
        context.report({ node: callPath.node, messageId: 'activityNoWorkflow', data: { kind, what, file, ext } });
        return;
      }
      context.report({ node: callPath.node, messageId: 'activity', data: { kind, what, file, target: path.relative(context.packageRoot, target) } });
    });
    visitor[VISIT_SCOPE] = SCOPE;
    return visitor;
  },
});
