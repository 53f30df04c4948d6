/**
 * `versioning/unprovable-change`: an `auto-upgrade` workflow changed where its command shape is partial (a construct
 * the analysis cannot follow), so whether recorded runs still replay cannot be decided statically. Reported at the
 * construct that stopped the analysis; `skein replay` against real histories decides it.
 */
import { createRule } from '../../create-rule.js';
import { versioningVerdicts } from '../../versioning/check.js';

export const rule = createRule({
  meta: {
    id: 'versioning/unprovable-change',
    severity: 'warning',
    docs: { description: 'A change to an auto-upgrade workflow that the static comparison cannot judge is checked by replaying real histories.' },
    messages: {
      unprovable: {
        message: 'Workflow "{{workflow}}" is auto-upgrade and changed where its commands cannot be derived statically: {{construct}}{{part}}.',
        hint: 'Replay histories of its open runs against the new code (`skein replay`) before deploying, or guard the change with `patched()`.',
      },
    },
  },
  check(context) {
    for (const v of versioningVerdicts(context)) {
      if (v.verdict.verdict !== 'unprovable') continue;
      const { verdict } = v;
      context.report({
        file: v.absolute(verdict.at.file),
        loc: { line: verdict.at.line, column: verdict.at.column },
        messageId: 'unprovable',
        data: { workflow: v.workflow, construct: verdict.construct, part: verdict.part === 'fn' ? '' : ` (in its ${verdict.part})` },
      });
    }
  },
});
