/**
 * `definitions/name-format` (CONTRACT "Names"): workflow, alias, step and evaluator names match
 * `^[A-Za-z_][A-Za-z0-9_]*$` (`NAME_PATTERN` from `@skein/core`). Checks the statically known names of
 * `workflow()`, `step()` and `evaluator()` calls; `$catalog` is left to `definitions/reserved-name`.
 * Supersedes discovery's `workflow/invalid-name` and `activity/invalid-name` on the same line.
 */
import { CATALOG_WORKFLOW_TYPE, NAME_PATTERN } from '@skein/core';
import type { FileRule, RuleMeta } from '../../types.js';
import { visitDefinitionNames } from '../util/visitors.js';

export const meta: RuleMeta = {
  id: 'definitions/name-format',
  severity: 'error',
  description: 'Workflow, alias, step and evaluator names match ^[A-Za-z_][A-Za-z0-9_]*$.',
  specRule: 7,
  docs: { path: 'docs/rules/definitions/name-format.md' },
  messages: {
    invalid: 'The {{what}} name "{{name}}" does not match ^[A-Za-z_][A-Za-z0-9_]*$.',
  },
  hints: {
    invalid: 'Use letters, digits and underscores only, not starting with a digit (for example "{{suggestion}}").',
  },
};

/** A valid name close to `name`, for the hint. */
export function suggestName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  return !s ? 'my_name' : /^[0-9]/.test(s) ? `_${s}` : s;
}

export const rule: FileRule = {
  kind: 'file',
  meta,
  supersedes: ['workflow/invalid-name', 'activity/invalid-name'],
  appliesTo: ['workflow', 'steps', 'evaluators', 'shared-steps', 'shared-evaluators'],
  create(context) {
    return visitDefinitionNames((d) => {
      if (d.name === CATALOG_WORKFLOW_TYPE || NAME_PATTERN.test(d.name)) return;
      context.report({ node: d.node, messageId: 'invalid', data: { what: d.what, name: d.name, suggestion: suggestName(d.name) } });
    });
  },
};
