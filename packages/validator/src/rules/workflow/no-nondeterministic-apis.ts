/**
 * `workflow/no-nondeterministic-apis` (SPEC rule 12): APIs Temporal's workflow sandbox replaces with
 * throwing stubs because their behaviour depends on the garbage collector: `WeakRef` and
 * `FinalizationRegistry` (they throw `DeterminismViolationError` at run time).
 */
import type { FileRule, RuleMeta } from '../../types.js';
import { visitGlobalReferences } from '../util/visitors.js';

export const meta: RuleMeta = {
  id: 'workflow/no-nondeterministic-apis',
  severity: 'error',
  description: 'Workflow code does not use APIs the workflow sandbox forbids as non-deterministic (`WeakRef`, `FinalizationRegistry`).',
  specRule: 12,
  docs: { path: 'docs/rules/workflow/no-nondeterministic-apis.md' },
  messages: {
    forbidden: 'Workflow code uses `{{name}}`, which throws DeterminismViolationError in the workflow sandbox (garbage collection is not deterministic).',
  },
  hints: {
    forbidden: 'Use a `Map` or `WeakMap` with explicit cleanup instead of `{{name}}`.',
  },
};

const FORBIDDEN = new Set(['WeakRef', 'FinalizationRegistry']);

export const rule: FileRule = {
  kind: 'file',
  meta,
  appliesTo: ['workflow', 'workflow-code'],
  create(context) {
    return visitGlobalReferences(FORBIDDEN, (path) => {
      context.report({ node: path.node, messageId: 'forbidden', data: { name: path.node.name } });
    });
  },
};
