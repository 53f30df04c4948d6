/**
 * Small AST helpers shared by rules: what `@skein/core` bindings a file has, which calls define a step or
 * evaluator, and whether code runs at module top level.
 */
import type { CallExpression, Program } from '@babel/types';
import type { RulePath } from '@skein/discovery';
import type { FileRole, ResolvedImport } from '../../types.js';

/** Specifiers of the authoring package (`@skein/core` and its subpaths). */
export function isCoreSpecifier(specifier: string): boolean {
  return specifier === '@skein/core' || specifier.startsWith('@skein/core/');
}

/** True for the roles whose files define steps or evaluators (package rule 9). */
export function isActivityRole(role: FileRole | null | undefined): boolean {
  return role === 'steps' || role === 'evaluators' || role === 'shared-steps' || role === 'shared-evaluators';
}

/** True when an import resolved to a steps or evaluators file. */
export function isActivityImport(resolved: ResolvedImport): boolean {
  return resolved.kind === 'file' && isActivityRole(resolved.role);
}

/** What an import of an activity file brings: `evaluator` for an evaluators file (shared or not), else `step`. */
export function activityKindOf(resolved: ResolvedImport): 'step' | 'evaluator' {
  return resolved.kind === 'file' && (resolved.role === 'evaluators' || resolved.role === 'shared-evaluators') ? 'evaluator' : 'step';
}

/** Local names under which a file imports `step`, `evaluator` and `workflow` from `@skein/core`. */
export interface CoreBindings {
  /** local name → imported name (`step`, `evaluator`, `workflow`). */
  named: Map<string, string>;
  /** local names of `import * as core from '@skein/core'` or `const core = require('@skein/core')`. */
  namespaces: Set<string>;
}

/** Collects the `@skein/core` bindings declared at the top of a program. */
export function coreBindings(program: Program): CoreBindings {
  const named = new Map<string, string>();
  const namespaces = new Set<string>();
  for (const stmt of program.body) {
    if (stmt.type === 'ImportDeclaration' && isCoreSpecifier(stmt.source.value) && stmt.importKind !== 'type') {
      for (const s of stmt.specifiers) {
        if (s.type === 'ImportSpecifier') named.set(s.local.name, s.imported.type === 'Identifier' ? s.imported.name : s.imported.value);
        else if (s.type === 'ImportNamespaceSpecifier') namespaces.add(s.local.name);
      }
    } else if (stmt.type === 'VariableDeclaration') {
      for (const d of stmt.declarations) {
        const init = d.init;
        if (!init || init.type !== 'CallExpression' || init.callee.type !== 'Identifier' || init.callee.name !== 'require') continue;
        const arg = init.arguments[0];
        if (arg?.type !== 'StringLiteral' || !isCoreSpecifier(arg.value)) continue;
        if (d.id.type === 'Identifier') namespaces.add(d.id.name);
        else if (d.id.type === 'ObjectPattern') {
          for (const p of d.id.properties) {
            if (p.type === 'ObjectProperty' && p.key.type === 'Identifier' && p.value.type === 'Identifier') named.set(p.value.name, p.key.name);
          }
        }
      }
    }
  }
  return { named, namespaces };
}

/**
 * Which `@skein/core` definition function a call invokes (`step`, `evaluator`, `workflow`), or null.
 * Recognizes `step(...)`, a renamed import, and `core.step(...)` on a namespace import.
 */
export function definitionKind(call: CallExpression, bindings: CoreBindings, path: RulePath): string | null {
  const callee = call.callee;
  if (callee.type === 'Identifier') {
    const imported = bindings.named.get(callee.name);
    if (imported === undefined) return null;
    const binding = path.scope.getBinding(callee.name);
    return binding && binding.scope.path.isProgram() ? imported : null;
  }
  if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && bindings.namespaces.has(callee.object.name)) {
    if (callee.property.type === 'Identifier' && !callee.computed) return callee.property.name;
    if (callee.property.type === 'StringLiteral') return callee.property.value;
  }
  return null;
}

/**
 * True when `path` runs when the module is evaluated: not inside any function, nor in the initializer of a
 * non-static class field (which runs when an instance is created).
 */
export function isModuleTopLevel(path: RulePath): boolean {
  if (path.getFunctionParent() !== null) return false;
  for (let p = path.parentPath; p; p = p.parentPath) {
    const n = p.node;
    if ((n.type === 'ClassProperty' || n.type === 'ClassPrivateProperty' || n.type === 'ClassAccessorProperty') && !n.static) return false;
  }
  return true;
}

/**
 * True when `path` is inside the function given as `fn` to a `step({...})` or `evaluator({...})` call of
 * `@skein/core` (`fn: async () => ...`, `fn: function () {...}` or `fn() {...}`): an activity's body.
 * @param bindings the file's `@skein/core` imports, asked only when a `fn` of some call is met.
 */
export function insideActivityBody(path: RulePath, bindings: () => CoreBindings): boolean {
  for (let p: RulePath | null = path.parentPath; p; p = p.parentPath) {
    const fn = p.node;
    if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression' && fn.type !== 'ObjectMethod') continue;
    const property = fn.type === 'ObjectMethod' ? fn : p.parent;
    if ((property.type !== 'ObjectProperty' && property.type !== 'ObjectMethod') || property.computed) continue;
    if (property.key.type !== 'Identifier' || property.key.name !== 'fn') continue;
    if (property.type === 'ObjectProperty' && property.value !== fn) continue;
    const object = fn.type === 'ObjectMethod' ? p.parentPath : p.parentPath?.parentPath;
    const call = object?.parentPath;
    if (!object || !call || object.node.type !== 'ObjectExpression' || call.node.type !== 'CallExpression' || call.node.arguments[0] !== object.node) continue;
    const kind = definitionKind(call.node, bindings(), call);
    if (kind === 'step' || kind === 'evaluator') return true;
  }
  return false;
}

/** The program `path` belongs to. */
export function programOf(path: RulePath): Program {
  let p: RulePath = path;
  while (p.parentPath) p = p.parentPath;
  return p.node as Program;
}
