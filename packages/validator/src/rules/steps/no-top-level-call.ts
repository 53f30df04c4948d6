/**
 * `steps/no-top-level-call` (package rule 9): a step or evaluator is never called while a module is being
 * evaluated. Such a call would run an activity at import time, outside any workflow. Covers steps imported
 * by name (import or destructured `require`) and steps defined in the same file with `step()`/`evaluator()`,
 * called directly, or through a function of the same module that a top-level statement calls (a declared function,
 * a top-level `const` holding one, an immediately invoked one), followed through the module's functions it calls.
 * A namespace import of a steps or evaluators file (`import * as steps from './steps.js'`, or a whole `require`) is
 * covered too: `steps.fetchItem()` calls the step `fetchItem` (reported beside `steps/import-style`'s finding on the
 * import itself: changing the import to named ones leaves the call).
 */
import type { Identifier, MemberExpression, Node } from '@babel/types';
import { patternIdentifiers, VISIT_SCOPE, VISITOR_KEYS, type Binding, type Scope } from '@skein/discovery';
import { createRule } from '../../create-rule.js';
import { activityKindOf, coreBindings, definitionKind, isActivityImport, isModuleTopLevel } from '../util/ast.js';

const isDefinitionKind = (k: string | null): k is 'step' | 'evaluator' => k === 'step' || k === 'evaluator';

const SCOPE = { Program: 'module', CallExpression: 'module' } as const; // a call inside a function is never reported

type FunctionNode = Extract<Node, { type: 'FunctionDeclaration' | 'FunctionExpression' | 'ArrowFunctionExpression' }>;

const isFunctionNode = (node: Node | null | undefined): node is FunctionNode =>
  node?.type === 'FunctionDeclaration' || node?.type === 'FunctionExpression' || node?.type === 'ArrowFunctionExpression';

/** Nodes whose body runs later than the code around them (or never): a call inside one does not run with it. */
const DEFERRED = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
  'ClassBody',
]);

/** The child nodes of `node`, in source order (the walk's own `VISITOR_KEYS`). */
function childNodes(node: Node): Node[] {
  const out: Node[] = [];
  for (const key of VISITOR_KEYS[node.type] ?? []) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value as (Node | null)[]) if (item) out.push(item);
    } else if (value && typeof value === 'object') out.push(value as Node);
  }
  return out;
}

/** Names a function declares anywhere in it (parameters, variables, functions, classes, catch clauses): they may shadow a module binding. */
function declaredNames(fn: FunctionNode): Set<string> {
  const ids: Identifier[] = [];
  for (const param of fn.params) patternIdentifiers(param, ids);
  const visit = (n: Node): void => {
    if (n.type === 'VariableDeclarator') patternIdentifiers(n.id, ids);
    else if ((n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration') && n.id) ids.push(n.id);
    else if (n.type === 'CatchClause') patternIdentifiers(n.param, ids);
    for (const child of childNodes(n)) visit(child);
  };
  visit(fn.body);
  return new Set(ids.map((id) => id.name));
}

/**
 * The first step or evaluator that calling `fn` calls while it runs: in its own body (not in functions nested in it,
 * which run later if ever), or in a function of the module it calls there, followed the same way (each once). A
 * callee is looked up in the module scope, and only when `fn` declares no name like it (so a shadowing local is
 * never taken for the step). Undefined when there is none.
 */
function activityCallIn(fn: FunctionNode, moduleScope: Scope, activities: Activities, seen = new Set<Node>()): { name: string; kind: string } | undefined {
  // A generator's body runs when it is iterated, not when it is called.
  if (seen.has(fn) || fn.generator) return undefined;
  seen.add(fn);
  const shadowed = declaredNames(fn);
  // A named function expression's own name is the function inside it.
  if (fn.type === 'FunctionExpression' && fn.id) shadowed.add(fn.id.name);
  const visit = (n: Node): { name: string; kind: string } | undefined => {
    if (DEFERRED.has(n.type)) return undefined;
    if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && !shadowed.has(n.callee.name)) {
      const binding = moduleScope.getBinding(n.callee.name);
      const kind = binding && activities.of(binding.identifier);
      if (kind !== undefined) return { name: n.callee.name, kind };
      const callee = binding && functionOfBinding(binding);
      const through = callee && activityCallIn(callee, moduleScope, activities, seen);
      if (through) return through;
    }
    if (n.type === 'CallExpression' && n.callee.type === 'MemberExpression' && n.callee.object.type === 'Identifier' && !shadowed.has(n.callee.object.name)) {
      const found = activities.ofMember(n.callee, moduleScope.getBinding(n.callee.object.name));
      if (found) return found;
    }
    for (const child of childNodes(n)) {
      const found = visit(child);
      if (found) return found;
    }
    return undefined;
  };
  return visit(fn.body);
}

/** What a call's callee is: a binding holding a step or evaluator, or a member of a namespace of a steps or evaluators file. */
interface Activities {
  /** The kind (`step`, `evaluator`) of what the binding declared by `binding` holds, if it is one. */
  of(binding: Identifier): string | undefined;
  /** `ns.name` where `ns` (bound by `binding`) is a whole steps or evaluators module and its export `name` a step or evaluator. */
  ofMember(callee: MemberExpression, binding: Binding | undefined): { name: string; kind: string } | undefined;
}

/** The name a member expression reads when it is static (`a.b`, `a['b']`), else undefined. */
function memberName(callee: MemberExpression): string | undefined {
  if (!callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return callee.property.type === 'StringLiteral' ? callee.property.value : undefined;
}

/**
 * The function a binding holds for sure: a function declaration, or a `const` initialized with a function (a `let`
 * or `var` may hold another function by the time it is called).
 */
function functionOfBinding(binding: Binding): FunctionNode | undefined {
  const node = binding.path.node;
  if (node.type === 'FunctionDeclaration') return node;
  if (binding.kind === 'const' && node.type === 'VariableDeclarator' && isFunctionNode(node.init)) return node.init;
  return undefined;
}

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
      topLevelCallThrough: {
        message: 'The {{kind}} `{{name}}` is called at module top level through {{through}}; it would run when the module is loaded, outside any workflow.',
        hint: "Call {{through}} (and so `{{name}}(...)`) inside the workflow's `fn`, not while the module loads.",
      },
    },
  },
  appliesTo: ['workflow', 'workflow-code', 'steps', 'evaluators', 'shared-steps', 'shared-evaluators'],
  create(context) {
    /**
     * Binding identifiers (declaration nodes) that hold a step or evaluator → what it is; for an import of a steps or
     * evaluators file, the export it names, which is a step unless that file declares it as a function (a factory of
     * steps, a helper: calling it runs no activity). That question is asked only of a binding called while the module
     * loads (`activities.of`), so a file without such a call reads nothing of another file.
     */
    const activityBindings = new Map<Identifier, { kind: string; from?: { specifier: string; imported: string }; step?: boolean }>();
    /** Binding identifiers that hold a whole steps or evaluators module (a namespace import, a whole `require`). */
    const namespaceBindings = new Map<Identifier, { kind: string; specifier: string; steps: Map<string, boolean> }>();
    const activities: Activities = {
      of(id) {
        const binding = activityBindings.get(id);
        if (binding?.from) binding.step ??= context.exportKind(binding.from.specifier, binding.from.imported) !== 'function';
        return binding && binding.step !== false ? binding.kind : undefined;
      },
      ofMember(callee, binding) {
        const ns = binding && namespaceBindings.get(binding.identifier);
        const name = ns && memberName(callee);
        if (!ns || name === undefined) return undefined;
        let step = ns.steps.get(name);
        if (step === undefined) ns.steps.set(name, (step = context.exportKind(ns.specifier, name) !== 'function'));
        return step ? { name: `${(callee.object as Identifier).name}.${name}`, kind: ns.kind } : undefined;
      },
    };
    return {
      Program(path) {
        const bindings = coreBindings(path.node);
        const addPattern = (id: Node, kind: string, from?: { specifier: string; imported: string }) => {
          if (id.type === 'Identifier') activityBindings.set(id, from ? { kind, from } : { kind });
          else if (id.type === 'ObjectPattern') {
            for (const p of id.properties) if (p.type === 'ObjectProperty') addPattern(p.value, kind);
          }
        };
        for (const stmt of path.node.body) {
          if (stmt.type === 'ImportDeclaration' && stmt.importKind !== 'type') {
            const resolved = context.resolve(stmt.source.value);
            if (isActivityImport(resolved)) {
              const kind = activityKindOf(resolved);
              for (const s of stmt.specifiers) {
                if (s.type === 'ImportNamespaceSpecifier') namespaceBindings.set(s.local, { kind, specifier: stmt.source.value, steps: new Map() });
                if (s.type !== 'ImportSpecifier' || s.importKind === 'type') continue;
                const imported = s.imported.type === 'Identifier' ? s.imported.name : s.imported.value;
                addPattern(s.local, kind, { specifier: stmt.source.value, imported });
              }
            }
          }
          const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
          if (decl?.type !== 'VariableDeclaration') continue;
          for (const d of decl.declarations) {
            const init = d.init;
            if (init?.type !== 'CallExpression') continue;
            const kind = definitionKind(init, bindings, path);
            if (isDefinitionKind(kind)) {
              addPattern(d.id, kind);
              continue;
            }
            // `require('./steps.js')` of a steps or evaluators file: whole (a namespace) or destructured.
            const arg = init.arguments[0];
            if (init.callee.type !== 'Identifier' || init.callee.name !== 'require' || arg?.type !== 'StringLiteral') continue;
            const resolved = context.resolve(arg.value);
            if (!isActivityImport(resolved)) continue;
            const specifier = arg.value;
            if (d.id.type === 'Identifier') namespaceBindings.set(d.id, { kind: activityKindOf(resolved), specifier, steps: new Map() });
            else if (d.id.type === 'ObjectPattern') {
              const kind = activityKindOf(resolved);
              for (const p of d.id.properties) {
                if (p.type !== 'ObjectProperty') continue; // `...rest`: an object, never called itself
                const imported = p.key.type === 'Identifier' && !p.computed ? p.key.name : p.key.type === 'StringLiteral' ? p.key.value : undefined;
                addPattern(p.value, kind, imported === undefined ? undefined : { specifier, imported });
              }
            }
          }
        }
      },
      CallExpression(path) {
        const callee = path.node.callee;
        if (activityBindings.size === 0 && namespaceBindings.size === 0) return;
        if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier') {
          const binding = path.scope.getBinding(callee.object.name);
          const found = binding && isModuleTopLevel(path) ? activities.ofMember(callee, binding) : undefined;
          if (found) context.report({ node: path.node, messageId: 'topLevelCall', data: found });
        } else if (callee.type === 'Identifier') {
          const binding = path.scope.getBinding(callee.name);
          if (!binding || !isModuleTopLevel(path)) return;
          const kind = activities.of(binding.identifier);
          if (kind !== undefined) return void context.report({ node: path.node, messageId: 'topLevelCall', data: { kind, name: callee.name } });
          const fn = functionOfBinding(binding);
          const via = fn && activityCallIn(fn, binding.scope, activities);
          if (via) context.report({ node: path.node, messageId: 'topLevelCallThrough', data: { ...via, through: `\`${callee.name}()\`` } });
        } else if ((callee.type === 'ArrowFunctionExpression' || callee.type === 'FunctionExpression') && isModuleTopLevel(path)) {
          const via = activityCallIn(callee, path.scope, activities);
          if (via) context.report({ node: path.node, messageId: 'topLevelCallThrough', data: { ...via, through: 'a function called where it is defined' } });
        }
      },
      [VISIT_SCOPE]: SCOPE,
    };
  },
});
