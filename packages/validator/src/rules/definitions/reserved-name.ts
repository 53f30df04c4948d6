/**
 * `definitions/reserved-name` (CONTRACT "Names"): `$catalog` is the workflow type of the per-catalog
 * registry workflow; no workflow, alias, step or evaluator may be named so. Supersedes discovery's
 * `workflow/invalid-name` and `activity/invalid-name` on the same line.
 */
import { CATALOG_WORKFLOW_TYPE } from '@skein/core';
import type { FileRule, RuleMeta } from '../../types.js';
import { visitDefinitionNames } from '../util/visitors.js';

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
    return visitDefinitionNames((d) => {
      if (d.name === CATALOG_WORKFLOW_TYPE) context.report({ node: d.node, messageId: 'reserved', data: { what: d.what, name: d.name } });
    });
  },
};
