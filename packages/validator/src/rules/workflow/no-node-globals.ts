/**
 * `workflow/no-node-globals` (package rule 12): workflow code runs in Temporal's deterministic sandbox, where
 * Node's globals do not exist. Flags references to `process` (including `process.env` reads and writes),
 * `__dirname`, `__filename`, `require` with a computed specifier, and the I/O globals `fetch`,
 * `XMLHttpRequest` and `WebSocket`, in workflow files and the files they import; read directly or through `globalThis`
 * (`globalThis.process.env`, `globalThis['fetch']`).
 */
import { createRule } from '../../create-rule.js';
import { globalNamesPattern, visitGlobalReferences } from '../util/visitors.js';

const NODE_GLOBALS = new Set(['process', '__dirname', '__filename']);
const IO_GLOBALS = new Set(['fetch', 'XMLHttpRequest', 'WebSocket']);
const FLAGGED_GLOBALS = new Set([...NODE_GLOBALS, ...IO_GLOBALS, 'require']);

export const rule = createRule({
  meta: {
    id: 'workflow/no-node-globals',
    severity: 'error',
    docs: { description: 'Workflow code does not use Node-only globals (`process`, `__dirname`, dynamic `require`) or I/O globals.', packageRule: 12 },
    messages: {
      processEnvWrite: { message: 'Workflow code writes `process.env`; `process` does not exist in the workflow sandbox.', hint: 'Read configuration in a step and pass it to the workflow as input.' },
      nodeGlobal: { message: 'Workflow code uses the Node global `{{name}}`, which does not exist in the workflow sandbox.', hint: 'Move code that needs `{{name}}` into a step (steps run in Node), and pass the result to the workflow.' },
      ioGlobal: { message: 'Workflow code calls `{{name}}`; workflow code cannot do I/O.', hint: 'Do the request in a step: `export const fetchIt = step({ name: "fetchIt", fn: ... })`.' },
      dynamicRequire: { message: 'Workflow code calls `require()` with a computed specifier; it cannot be bundled for the workflow sandbox.', hint: 'Use a static `import` of a workflow-safe module.' },
    },
  },
  appliesTo: ['workflow', 'workflow-code'],
  words: globalNamesPattern(FLAGGED_GLOBALS),
  create(context) {
    return visitGlobalReferences(FLAGGED_GLOBALS, (path, name) => {
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
        parent.type === 'MemberExpression' &&
        parent.object === path.node &&
        !parent.computed &&
        parent.property.type === 'Identifier' &&
        parent.property.name === 'env' &&
        keyPath?.node.type === 'MemberExpression' &&
        keyPath.node.object === parent &&
        isWriteTarget(keyPath.parent, keyPath.node);
      context.report({ node: path.node, messageId: isEnvWrite ? 'processEnvWrite' : 'nodeGlobal', data: { name } });
    });
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
