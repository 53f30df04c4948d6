/**
 * `definitions/reserved-name` (CONTRACT "Names"): `$catalog` is the workflow type of the per-catalog
 * registry workflow; no workflow, alias, step or evaluator may be named so. Supersedes discovery's
 * `workflow/invalid-name` and `activity/invalid-name` on the same line.
 */
import { CATALOG_WORKFLOW_TYPE } from '@skein/core';
import type { FileRule, RuleMeta } from '../../types.js';
import { coreBindings, definitionKind, definitionNames, type CoreBindings } from '../util/ast.js';

export const meta: RuleMeta = {
  id: 'definitions/reserved-name',
  severity: 'error',
  description: 'The name `$catalog` is reserved for the per-catalog registry workflow.',
  specRule: 7,
  docs: { path: 'docs/rules/definitions/reserved-name.md' },
  messages: {
    reserved: 'The {{what}} name "{{name}}" is reserved for the catalog registry workflow.',
  },
  hints: {
    reserved: 'Choose another name; "{{name}}" is the workflow type the worker registers itself.',
  },
};

export const rule: FileRule = {
  kind: 'file',
  meta,
  supersedes: ['workflow/invalid-name', 'activity/invalid-name'],
  appliesTo: ['workflow', 'steps', 'evaluators', 'shared-steps', 'shared-evaluators'],
  create(context) {
    let bindings: CoreBindings = { named: new Map(), namespaces: new Set() };
    return {
      Program(path) {
        bindings = coreBindings(path.node);
      },
      CallExpression(path) {
        if (bindings.named.size === 0 && bindings.namespaces.size === 0) return;
        const kind = definitionKind(path.node, bindings, path);
        if (kind !== 'workflow' && kind !== 'step' && kind !== 'evaluator') return;
        for (const d of definitionNames(path.node, kind, path)) {
          if (d.name === CATALOG_WORKFLOW_TYPE) context.report({ node: d.node, messageId: 'reserved', data: { what: d.what, name: d.name } });
        }
      },
    };
  },
};
