/**
 * `steps/no-nested-call` (package rule 9): the `fn` of a step or evaluator does not call a step, an evaluator or a
 * workflow. Inside an activity such a call is a plain function call: the callee gets no activity of its own (no
 * retries, no timeout, no node in the run's trace), and a workflow runs whole inside the activity, outside the
 * sandbox and without durability. Covers, in steps and evaluators files, the steps and evaluators the file defines
 * with `step()`/`evaluator()`, those it imports by name from other steps or evaluators files (not a function such a
 * file declares: a helper), and the workflows it imports from workflow files; called directly by name anywhere inside
 * a definition's `fn` (in a callback too). A warning, as in the system Skein re-implements.
 */
import type { Identifier, ImportDeclaration } from '@babel/types';
import { VISIT_SCOPE } from '@skein/discovery';
import { createRule } from '../../create-rule.js';
import { activityKindOf, coreBindings, definitionKind, insideActivityBody, isActivityImport, type CoreBindings } from '../util/ast.js';

/** What a binding holds that an activity's `fn` must not call, and where an imported one comes from. */
interface Callee {
  kind: 'step' | 'evaluator' | 'workflow';
  from?: { specifier: string; imported: string };
}

const SCOPE = { Program: 'module' } as const; // calls are visited everywhere: they sit inside functions

export const rule = createRule({
  meta: {
    id: 'steps/no-nested-call',
    severity: 'warning',
    docs: { description: "A step's or evaluator's fn calls a step, an evaluator or a workflow.", packageRule: 9 },
    messages: {
      activity: {
        message:
          'The {{kind}} `{{name}}` is called inside the fn of {{within}}: there it runs as a plain function inside this activity, with no activity of its own (no retries, no timeout, no node in the trace).',
        hint: 'Call `{{name}}` from the workflow, or move the code both need into a plain function that both call.',
      },
      workflow: {
        message:
          'The workflow `{{name}}` is called inside the fn of {{within}}: it would run whole inside this activity, outside the workflow sandbox and without its durability.',
        hint: 'Call `{{name}}` from a workflow (as a child workflow), not from a step or evaluator.',
      },
    },
  },
  appliesTo: ['steps', 'evaluators', 'shared-steps', 'shared-evaluators'],
  create(context) {
    /** Binding identifiers (declaration nodes) of what a `fn` must not call. */
    const callees = new Map<Identifier, Callee>();
    let bindings: CoreBindings | undefined;
    const within = context.role === 'evaluators' || context.role === 'shared-evaluators' ? 'an evaluator' : 'a step';
    const fromImport = (stmt: ImportDeclaration): void => {
      if (stmt.importKind === 'type') return;
      const resolved = context.resolve(stmt.source.value);
      const workflowFile = resolved.kind === 'file' && resolved.role === 'workflow';
      if (!workflowFile && !isActivityImport(resolved)) return;
      for (const s of stmt.specifiers) {
        if (s.type === 'ImportNamespaceSpecifier' || (s.type === 'ImportSpecifier' && s.importKind === 'type')) continue;
        const imported = s.type === 'ImportDefaultSpecifier' ? 'default' : s.imported.type === 'Identifier' ? s.imported.name : s.imported.value;
        // A workflow file's workflow is its default export; its other exports are helpers.
        if (workflowFile) {
          if (imported === 'default') callees.set(s.local, { kind: 'workflow' });
        } else callees.set(s.local, { kind: activityKindOf(resolved), from: { specifier: stmt.source.value, imported } });
      }
    };
    return {
      Program(path) {
        bindings = coreBindings(path.node);
        for (const stmt of path.node.body) {
          if (stmt.type === 'ImportDeclaration') fromImport(stmt);
          const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
          if (decl?.type !== 'VariableDeclaration') continue;
          for (const d of decl.declarations) {
            if (d.id.type !== 'Identifier' || d.init?.type !== 'CallExpression') continue;
            const kind = definitionKind(d.init, bindings, path);
            if (kind === 'step' || kind === 'evaluator') callees.set(d.id, { kind });
          }
        }
      },
      CallExpression(path) {
        const callee = path.node.callee;
        if (callees.size === 0 || callee.type !== 'Identifier') return;
        const binding = path.scope.getBinding(callee.name);
        const target = binding && callees.get(binding.identifier);
        if (!target) return;
        // A function the steps file declares (a helper, a factory of steps) is not a step.
        if (target.from && context.exportKind(target.from.specifier, target.from.imported) === 'function') return;
        if (!insideActivityBody(path, () => bindings!)) return;
        if (target.kind === 'workflow') context.report({ node: path.node, messageId: 'workflow', data: { name: callee.name, within } });
        else context.report({ node: path.node, messageId: 'activity', data: { kind: target.kind, name: callee.name, within } });
      },
      [VISIT_SCOPE]: SCOPE,
    };
  },
});
