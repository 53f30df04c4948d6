/**
 * `workflow/no-nondeterministic-apis` (SPEC rule 12): APIs Temporal's workflow sandbox replaces with
 * throwing stubs because their behaviour depends on the garbage collector: `WeakRef` and
 * `FinalizationRegistry` (they throw `DeterminismViolationError` at run time), however reached (`globalThis.WeakRef` too).
 */
import type { FileRule, RuleMeta } from '../../types.js';
import { ruleMeta } from '../../engine/rule-meta.js';
import { globalNamesPattern, visitGlobalReferences } from '../util/visitors.js';

export const meta: RuleMeta = ruleMeta('workflow/no-nondeterministic-apis', {
  messages: {
    forbidden: 'Workflow code uses `{{name}}`, which throws DeterminismViolationError in the workflow sandbox (garbage collection is not deterministic).',
  },
  hints: {
    forbidden: 'Use a `Map` or `WeakMap` with explicit cleanup instead of `{{name}}`.',
  },
});

const FORBIDDEN = new Set(['WeakRef', 'FinalizationRegistry']);

export const rule: FileRule = {
  kind: 'file',
  meta,
  appliesTo: ['workflow', 'workflow-code'],
  words: globalNamesPattern(FORBIDDEN),
  create(context) {
    return visitGlobalReferences(FORBIDDEN, (path, name) => {
      context.report({ node: path.node, messageId: 'forbidden', data: { name } });
    });
  },
};
