/**
 * `workflow/no-node-globals` (package rule 12): workflow code runs in Temporal's deterministic sandbox, where
 * Node's globals do not exist. Flags references to `process` (including `process.env` reads and writes),
 * `__dirname`, `__filename`, Node's other globals the sandbox lacks (`Buffer`, `setImmediate`, `setInterval`,
 * `queueMicrotask`, `structuredClone`, `performance`, `crypto`, `atob`, ...), `require` with a computed specifier, and
 * the I/O globals `fetch`,
 * `XMLHttpRequest` and `WebSocket`, in workflow files and the files they import; read directly, through `globalThis`
 * (`globalThis.process.env`, `globalThis['fetch']`) or Node's alias of it, `global` (`global.process.env`), or taken
 * out of either by destructuring (`const { process: { env } } = globalThis`). Not inside the `fn` of a `step({...})` or
 * `evaluator({...})` call (a step factory in a helper file that workflow code also imports): that body runs in Node, as
 * an activity, and is never evaluated in the sandbox.
 */
import type { MemberExpression, Node, ObjectPattern, OptionalMemberExpression } from '@babel/types';
import { VISIT_SCOPE, type RulePath, type RuleVisitor } from '@skein/discovery';
import { createRule } from '../../create-rule.js';
import { coreBindings, insideActivityBody, programOf, type CoreBindings } from '../util/ast.js';
import { globalNamesPattern, visitGlobalReferences, type GlobalReference } from '../util/visitors.js';

/**
 * Node's globals that the sandbox (a fresh V8 context: the language's built-ins, plus what Temporal puts there:
 * `setTimeout`, `URL`, `TextEncoder`, `AbortController`, `console`...) does not have, so a reference throws a
 * ReferenceError when the workflow runs.
 */
const NODE_GLOBALS = new Set([
  'process',
  '__dirname',
  '__filename',
  'Buffer',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'queueMicrotask',
  'structuredClone',
  'performance',
  'crypto',
  'atob',
  'btoa',
]);
const IO_GLOBALS = new Set(['fetch', 'XMLHttpRequest', 'WebSocket']);
const FLAGGED_GLOBALS = new Set([...NODE_GLOBALS, ...IO_GLOBALS, 'require']);
/** Objects whose members are the globals: `globalThis`, and Node's `global` (absent from the sandbox too). */
const GLOBAL_OBJECTS = new Set(['globalThis', 'global']);
/** Every function of the visitor acts only where the file's text spells one of the flagged names. */
const WORDS = globalNamesPattern(FLAGGED_GLOBALS);
const SCOPE = { Identifier: WORDS, MemberExpression: WORDS, OptionalMemberExpression: WORDS, VariableDeclarator: WORDS, AssignmentExpression: WORDS } as const;

/** True for `globalThis` or `global` not declared in the file (the real global object). */
function isGlobalObject(node: Node | null | undefined, path: RulePath): boolean {
  return node?.type === 'Identifier' && GLOBAL_OBJECTS.has(node.name) && !path.scope.hasBinding(node.name, { noGlobals: true });
}

/** True for a member expression, optional or not (`delete process.env?.X` deletes from `process.env` too). */
function isMember(node: Node | null | undefined): node is MemberExpression | OptionalMemberExpression {
  return node?.type === 'MemberExpression' || node?.type === 'OptionalMemberExpression';
}

/** The flagged names an object pattern takes out of the global object (`{ process, fetch: f }`), with their keys. */
function destructured(pattern: ObjectPattern): { key: Node; name: string }[] {
  const out: { key: Node; name: string }[] = [];
  for (const p of pattern.properties) {
    if (p.type !== 'ObjectProperty') continue;
    const name = !p.computed && p.key.type === 'Identifier' ? p.key.name : p.key.type === 'StringLiteral' ? p.key.value : undefined;
    if (name !== undefined && name !== 'require' && FLAGGED_GLOBALS.has(name)) out.push({ key: p.key, name });
  }
  return out;
}

export const rule = createRule({
  meta: {
    id: 'workflow/no-node-globals',
    severity: 'error',
    docs: { description: 'Workflow code does not use Node-only globals (`process`, `__dirname`, dynamic `require`) or I/O globals.', packageRule: 12 },
    messages: {
      processEnvWrite: {
        message: 'Workflow code writes `process.env`; `process` does not exist in the workflow sandbox.',
        hint: 'Read configuration in a step and pass it to the workflow as input.',
      },
      nodeGlobal: {
        message: 'Workflow code uses the Node global `{{name}}`, which does not exist in the workflow sandbox.',
        hint: 'Move code that needs `{{name}}` into a step (steps run in Node), and pass the result to the workflow.',
      },
      ioGlobal: {
        message: 'Workflow code calls `{{name}}`; workflow code cannot do I/O.',
        hint: 'Do the request in a step: `export const fetchIt = step({ name: "fetchIt", fn: ... })`.',
      },
      dynamicRequire: {
        message: 'Workflow code calls `require()` with a computed specifier; it cannot be bundled for the workflow sandbox.',
        hint: 'Use a static `import` of a workflow-safe module.',
      },
    },
  },
  appliesTo: ['workflow', 'workflow-code'],
  words: globalNamesPattern(FLAGGED_GLOBALS),
  create(context) {
    // The file's `@skein/core` imports, read once, at its first reference (most files have none).
    let bindings: CoreBindings | undefined;
    const inActivityBody = (path: RulePath): boolean => insideActivityBody(path, () => (bindings ??= coreBindings(programOf(path))));
    const onReference = (path: GlobalReference, name: string): void => {
      if (inActivityBody(path)) return;
      const parent = path.parent;
      if (name === 'require') {
        if (parent.type === 'CallExpression' && parent.callee === path.node && parent.arguments[0]?.type !== 'StringLiteral') {
          context.report({ node: parent, messageId: 'dynamicRequire' });
        }
        return;
      }
      if (!NODE_GLOBALS.has(name)) {
        context.report({ node: path.node, messageId: 'ioGlobal', data: { name } });
        return;
      }
      const envPath = path.parentPath;
      const keyPath = envPath?.parentPath;
      const isEnvWrite =
        name === 'process' &&
        isMember(parent) &&
        parent.object === path.node &&
        !parent.computed &&
        parent.property.type === 'Identifier' &&
        parent.property.name === 'env' &&
        isMember(keyPath?.node) &&
        keyPath.node.object === parent &&
        isWriteTarget(keyPath.parent, keyPath.node);
      context.report({ node: path.node, messageId: isEnvWrite ? 'processEnvWrite' : 'nodeGlobal', data: { name } });
    };
    const base = visitGlobalReferences(FLAGGED_GLOBALS, onReference);
    /** `global.x` (and `global['x']`, `global?.x`): read as `globalThis.x` is. */
    const member = (path: RulePath<MemberExpression> | RulePath<OptionalMemberExpression>): void => {
      const { object, property, computed } = path.node;
      if (object.type !== 'Identifier' || object.name !== 'global') return;
      const name = computed ? (property.type === 'StringLiteral' ? property.value : undefined) : property.type === 'Identifier' ? property.name : undefined;
      if (name === undefined || !FLAGGED_GLOBALS.has(name) || !isGlobalObject(object, path)) return;
      if (path.parent.type === 'UnaryExpression' && path.parent.operator === 'typeof') return; // a feature test
      onReference(path, name);
    };
    /** `const { process } = globalThis` and `({ fetch } = global)`: each flagged name taken out is a use. */
    const takeOut = (pattern: Node, init: Node | null | undefined, path: RulePath<Node>): void => {
      if (pattern.type !== 'ObjectPattern' || !isGlobalObject(init, path) || inActivityBody(path)) return;
      for (const { key, name } of destructured(pattern))
        context.report({ node: key, messageId: NODE_GLOBALS.has(name) ? 'nodeGlobal' : 'ioGlobal', data: { name } });
    };
    const visitor: RuleVisitor = {
      Identifier: base.Identifier,
      MemberExpression(path) {
        base.MemberExpression?.(path);
        member(path);
      },
      OptionalMemberExpression(path) {
        base.OptionalMemberExpression?.(path);
        member(path);
      },
      VariableDeclarator: (path) => takeOut(path.node.id, path.node.init, path),
      AssignmentExpression: (path) => takeOut(path.node.left, path.node.right, path),
      [VISIT_SCOPE]: SCOPE,
    };
    return visitor;
  },
});

/**
 * True when `target` (a `process.env.X` member) is written by its parent `container`: the left side of an
 * assignment, or the operand of `++`/`--` or `delete` (their only operand, so no identity check is needed there;
 * only a unary expression has the operator `delete`).
 */
function isWriteTarget(container: unknown, target: unknown): boolean {
  const c = container as { type: string; left?: unknown; operator?: string };
  if (c.type === 'AssignmentExpression') return c.left === target;
  return c.type === 'UpdateExpression' || c.operator === 'delete';
}
