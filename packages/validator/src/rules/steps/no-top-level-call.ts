/**
 * `steps/no-top-level-call` (package rule 9): a step or evaluator is never called while a module is being
 * evaluated. Such a call would run an activity at import time, outside any workflow. Covers steps imported
 * by name (import or destructured `require`) and steps defined in the same file with `step()`/`evaluator()`.
 */
import type { Identifier, Node } from '@babel/types';
import { VISIT_SCOPE } from '@skein/discovery';
import type { ResolvedImport } from '../../types.js';
import { createRule } from '../../create-rule.js';
import { coreBindings, definitionKind, isActivityImport, isModuleTopLevel } from '../util/ast.js';

/** `step` for steps files, `evaluator` for evaluators files. */
function kindOfImport(resolved: ResolvedImport): string {
  return resolved.kind === 'file' && (resolved.role === 'evaluators' || resolved.role === 'shared-evaluators') ? 'evaluator' : 'step';
}

const isDefinitionKind = (k: string | null): k is 'step' | 'evaluator' => k === 'step' || k === 'evaluator';

const SCOPE = { Program: 'module', CallExpression: 'module' } as const; // a call inside a function is never reported

export const rule = createRule({
  meta: {
    id: 'steps/no-top-level-call',
    severity: 'error',
    docs: { description: 'Steps and evaluators are called only from inside a workflow function, never at module top level.', packageRule: 9 },
    messages: {
      topLevelCall: {
        message: 'The {{kind}} `{{name}}` is called at module top level; it would run when the module is loaded, outside any workflow.',
        hint: "Call `{{name}}(...)` inside the workflow's `fn` (or inside another function it calls).",
      },
    },
  },
  appliesTo: ['workflow', 'workflow-code', 'steps', 'evaluators', 'shared-steps', 'shared-evaluators'],
  create(context) {
    /** Binding identifiers (declaration nodes) that hold a step or evaluator → what it is. */
    const activityBindings = new Map<Identifier, string>();
    return {
      Program(path) {
        const bindings = coreBindings(path.node);
        const addPattern = (id: Node, kind: string) => {
          if (id.type === 'Identifier') activityBindings.set(id, kind);
          else if (id.type === 'ObjectPattern') {
            for (const p of id.properties) if (p.type === 'ObjectProperty') addPattern(p.value, kind);
          }
        };
        for (const stmt of path.node.body) {
          if (stmt.type === 'ImportDeclaration' && stmt.importKind !== 'type') {
            const resolved = context.resolve(stmt.source.value);
            if (isActivityImport(resolved)) {
              const kind = kindOfImport(resolved);
              for (const s of stmt.specifiers) if (s.type === 'ImportSpecifier' && s.importKind !== 'type') activityBindings.set(s.local, kind);
            }
          }
          const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
          if (decl?.type !== 'VariableDeclaration') continue;
          for (const d of decl.declarations) {
            const init = d.init;
            if (init?.type !== 'CallExpression') continue;
            const kind = definitionKind(init, bindings, path);
            if (isDefinitionKind(kind)) addPattern(d.id, kind);
            else if (
              init.callee.type === 'Identifier' &&
              init.callee.name === 'require' &&
              init.arguments[0]?.type === 'StringLiteral' &&
              d.id.type === 'ObjectPattern' &&
              isActivityImport(context.resolve(init.arguments[0].value))
            ) {
              addPattern(d.id, kindOfImport(context.resolve(init.arguments[0].value)));
            }
          }
        }
      },
      CallExpression(path) {
        const callee = path.node.callee;
        if (callee.type !== 'Identifier' || activityBindings.size === 0) return;
        const binding = path.scope.getBinding(callee.name);
        const kind = binding && activityBindings.get(binding.identifier);
        if (kind === undefined || !isModuleTopLevel(path)) return;
        context.report({ node: path.node, messageId: 'topLevelCall', data: { kind, name: callee.name } });
      },
      [VISIT_SCOPE]: SCOPE,
    };
  },
});
