/**
 * `steps/named-exports-only` (package rule 9): files of steps and evaluators use named exports only.
 * `export default`, `export *` (and `export * as ns`), and `module.exports = …` make the activity names
 * invisible to static discovery and fail validation at worker startup.
 */
import type { ExportNamedDeclaration, StringLiteral } from '@babel/types';
import { VISIT_SCOPE } from '@skein/discovery';
import { createRule } from '../../create-rule.js';
import { isModuleTopLevel } from '../util/ast.js';

// Export declarations sit at module level; the `module.exports` assignment counts only there (isModuleTopLevel).
const SCOPE = {
  ExportDefaultDeclaration: 'module',
  ExportAllDeclaration: 'module',
  ExportNamespaceSpecifier: 'module',
  AssignmentExpression: 'module',
} as const;

export const rule = createRule({
  meta: {
    id: 'steps/named-exports-only',
    severity: 'error',
    docs: { description: 'Files of steps and evaluators export each step or evaluator by name; no default export, no `export *`.', packageRule: 9 },
    messages: {
      default: {
        message: 'Default export in a {{role}} file; steps and evaluators must be named exports.',
        hint: 'Write `export const myStep = step({ name: "myStep", ... })` for each step instead of a default export.',
      },
      exportAll: {
        message: '`export * from {{source}}` in a {{role}} file; steps and evaluators must be named exports.',
        hint: 'Re-export each step by name: `export { stepA, stepB } from {{source}}`.',
      },
      exportNamespace: {
        message: '`export * as {{name}}` in a {{role}} file; steps and evaluators must be named exports.',
        hint: 'Re-export each step by name: `export { stepA, stepB } from {{source}}`.',
      },
      commonjs: {
        message: '`module.exports = …` in a {{role}} file replaces the exports with one value; steps and evaluators must be named exports.',
        hint: 'Use named exports: `export const myStep = step({ ... })` (or `exports.myStep = step({ ... })`).',
      },
    },
  },
  appliesTo: ['steps', 'evaluators', 'shared-steps', 'shared-evaluators'],
  create(context) {
    const role = context.role.replace('shared-', 'shared ');
    return {
      ExportDefaultDeclaration(path) {
        context.report({ node: path.node, messageId: 'default', data: { role } });
      },
      ExportAllDeclaration(path) {
        if (path.node.exportKind === 'type') return;
        context.report({ node: path.node, messageId: 'exportAll', data: { role, source: JSON.stringify(path.node.source.value) } });
      },
      ExportNamespaceSpecifier(path) {
        // Only `export * as ns from 'x'` holds a namespace specifier, so its parent always has a source.
        const source = JSON.stringify(((path.parent as ExportNamedDeclaration).source as StringLiteral).value);
        const name = path.node.exported.type === 'Identifier' ? path.node.exported.name : path.node.exported.value;
        context.report({ node: path.parent, messageId: 'exportNamespace', data: { role, name, source } });
      },
      AssignmentExpression(path) {
        const left = path.node.left;
        if (
          left.type === 'MemberExpression' &&
          left.object.type === 'Identifier' &&
          left.object.name === 'module' &&
          !left.computed &&
          left.property.type === 'Identifier' &&
          left.property.name === 'exports' &&
          !path.scope.hasBinding('module', { noGlobals: true }) &&
          isModuleTopLevel(path)
        ) {
          context.report({ node: path.node, messageId: 'commonjs', data: { role } });
        }
      },
      [VISIT_SCOPE]: SCOPE,
    };
  },
});
