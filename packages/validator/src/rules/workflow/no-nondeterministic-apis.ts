/**
 * `workflow/no-nondeterministic-apis` (package rule 12): APIs Temporal's workflow sandbox replaces with
 * throwing stubs because their behaviour depends on the garbage collector: `WeakRef` and
 * `FinalizationRegistry` (they throw `DeterminismViolationError` at run time), however reached (`globalThis.WeakRef` too).
 */
import { createRule } from '../../create-rule.js';
import { globalNamesPattern, visitGlobalReferences } from '../util/visitors.js';

const FORBIDDEN = new Set(['WeakRef', 'FinalizationRegistry']);

export const rule = createRule({
  meta: {
    id: 'workflow/no-nondeterministic-apis',
    severity: 'error',
    docs: {
      description: 'Workflow code does not use APIs the workflow sandbox forbids as non-deterministic (`WeakRef`, `FinalizationRegistry`).',
      packageRule: 12,
    },
    messages: {
      forbidden: {
        message: 'Workflow code uses `{{name}}`, which throws DeterminismViolationError in the workflow sandbox (garbage collection is not deterministic).',
        hint: 'Use a `Map` or `WeakMap` with explicit cleanup instead of `{{name}}`.',
      },
    },
  },
  appliesTo: ['workflow', 'workflow-code'],
  words: globalNamesPattern(FORBIDDEN),
  create(context) {
    return visitGlobalReferences(FORBIDDEN, (path, name) => {
      context.report({ node: path.node, messageId: 'forbidden', data: { name } });
    });
  },
});
