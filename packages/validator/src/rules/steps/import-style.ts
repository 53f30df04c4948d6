/**
 * `steps/import-style` (package rule 9): steps and evaluators are imported by name: named imports or
 * destructured `require`. Default imports (also `import { default as x }`), namespace imports, `export *`
 * re-exports, dynamic `import()` and non-destructured `require` (or one that takes `default`) of a steps or
 * evaluators file fail validation. In workflow code, each name imported from such a file is one of its steps or
 * evaluators: the workflow bundle replaces the file with stubs of those alone, so a helper or a constant imported
 * from it, or a name it does not export, fails to bundle.
 */
import type { Node } from '@babel/types';
import { IMPORT_CALL, isRequireCall, REQUIRE_WORD, VISIT_SCOPE } from '@skein/discovery';
import { createRule } from '../../create-rule.js';
import { isActivityImport } from '../util/ast.js';

const SCOPE = { ImportDeclaration: 'module', ExportAllDeclaration: 'module', ImportExpression: IMPORT_CALL, CallExpression: REQUIRE_WORD } as const;

export const rule = createRule({
  meta: {
    id: 'steps/import-style',
    severity: 'error',
    docs: { description: 'Steps and evaluators are imported only with named imports or destructured `require`.', packageRule: 9 },
    messages: {
      defaultImport: {
        message: 'Default import `{{name}}` of the steps or evaluators file {{source}}; import each step by name.',
        hint: 'Write `import { stepA, stepB } from {{source}}`.',
      },
      namespaceImport: {
        message: 'Namespace import `* as {{name}}` of the steps or evaluators file {{source}}; import each step by name.',
        hint: 'Write `import { stepA, stepB } from {{source}}`.',
      },
      exportAll: {
        message: '`export * from {{source}}` re-exports a steps or evaluators file without naming its steps.',
        hint: 'Write `export { stepA, stepB } from {{source}}`.',
      },
      dynamicImport: {
        message: 'Dynamic `import({{source}})` of a steps or evaluators file; import each step by name.',
        hint: 'Write a static `import { stepA } from {{source}}` at the top of the file.',
      },
      notActivity: {
        message:
          'Workflow code imports `{{name}}` from the steps or evaluators file {{source}}, which exports it as {{what}}, not a step or evaluator: the workflow bundle holds only the steps and evaluators of that file, so the import fails to bundle.',
        hint: 'Move `{{name}}` into a module of its own (a helper file beside the workflow) and import it from there; a steps file exports steps.',
      },
      missingExport: {
        message: 'Workflow code imports `{{name}}` from the steps or evaluators file {{source}}, which has no export of that name.',
        hint: 'Import a step {{source}} exports (check the spelling), or export `{{name}}` from it with `step({...})`.',
      },
      requireNotDestructured: {
        message: '`require({{source}})` of a steps or evaluators file is not destructured; require each step by name.',
        hint: 'Write `const { stepA, stepB } = require({{source}})`.',
      },
    },
  },
  appliesTo: ['workflow', 'workflow-code', 'steps', 'evaluators', 'shared-steps', 'shared-evaluators'],
  create(context) {
    const isActivity = (specifier: string) => isActivityImport(context.resolve(specifier));
    const inWorkflowCode = context.role === 'workflow' || context.role === 'workflow-code';
    return {
      ImportDeclaration(path) {
        const node = path.node;
        if (node.importKind === 'type' || !isActivity(node.source.value)) return;
        const source = JSON.stringify(node.source.value);
        for (const s of node.specifiers) {
          const isDefault =
            s.type === 'ImportDefaultSpecifier' ||
            (s.type === 'ImportSpecifier' && (s.imported.type === 'Identifier' ? s.imported.name : s.imported.value) === 'default');
          if (isDefault) context.report({ node: s, messageId: 'defaultImport', data: { name: s.local.name, source } });
          else if (s.type === 'ImportNamespaceSpecifier') context.report({ node: s, messageId: 'namespaceImport', data: { name: s.local.name, source } });
          else if (inWorkflowCode && s.importKind !== 'type') {
            // The sandbox imports a stub of the file holding only its steps and evaluators (the worker's bundle).
            const name = s.imported.type === 'Identifier' ? s.imported.name : s.imported.value;
            const kind = context.exportKind(node.source.value, name);
            if (kind === 'missing') context.report({ node: s, messageId: 'missingExport', data: { name, source } });
            else if (kind === 'function' || kind === 'value') {
              context.report({ node: s, messageId: 'notActivity', data: { name, source, what: kind === 'function' ? 'a function' : 'a value' } });
            }
          }
        }
      },
      ExportAllDeclaration(path) {
        if (path.node.exportKind === 'type' || !isActivity(path.node.source.value)) return;
        context.report({ node: path.node, messageId: 'exportAll', data: { source: JSON.stringify(path.node.source.value) } });
      },
      ImportExpression(path) {
        const src = path.node.source;
        if (src.type !== 'StringLiteral' || !isActivity(src.value)) return;
        context.report({ node: path.node, messageId: 'dynamicImport', data: { source: JSON.stringify(src.value) } });
      },
      CallExpression(path) {
        if (!isRequireCall(path)) return;
        const arg = path.node.arguments[0];
        if (arg?.type !== 'StringLiteral' || !isActivity(arg.value)) return;
        const parent = path.parent;
        // A call whose parent is a declarator is its initializer (the only expression a declarator holds).
        if (parent.type === 'VariableDeclarator' && parent.id.type === 'ObjectPattern') {
          const takesDefault = parent.id.properties.some((p) => p.type === 'ObjectProperty' && !p.computed && keyName(p.key) === 'default');
          if (!takesDefault) return;
        }
        context.report({ node: path.node, messageId: 'requireNotDestructured', data: { source: JSON.stringify(arg.value) } });
      },
      [VISIT_SCOPE]: SCOPE,
    };
  },
});

/** The name of a non-computed destructuring key (`default` and `'default'` alike). */
function keyName(key: Node): string | undefined {
  if (key.type === 'Identifier') return key.name;
  return key.type === 'StringLiteral' ? key.value : undefined;
}
