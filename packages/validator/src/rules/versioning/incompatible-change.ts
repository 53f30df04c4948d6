/**
 * `versioning/incompatible-change`: an `auto-upgrade` workflow whose new code replays a run recorded by the baseline
 * build to a different command (a command inserted, removed or reordered before a point where a run can wait, an
 * activity or child type changed, a timer replaced by an activity). Reported at the first divergent call of the new
 * code. Runs only with a baseline (`--baseline`); see docs/versioning.md for the model.
 */
import { createRule } from '../../create-rule.js';
import { versioningVerdicts } from '../../versioning/check.js';

export const rule = createRule({
  meta: {
    id: 'versioning/incompatible-change',
    severity: 'error',
    docs: {
      description:
        'An auto-upgrade workflow keeps every run the baseline build recorded replayable: same commands, in the same order, up to each point a run can wait.',
    },
    messages: {
      incompatible: {
        message:
          'Workflow "{{workflow}}" is auto-upgrade in the baseline build, and its runs waiting there would replay {{newCommand}} here where their history holds {{oldCommand}} (recorded at {{oldAt}}){{part}}.',
        hint: "Guard the change with `if (patched('{{patchId}}')) { …new code… } else { …old code… }`. Making the workflow `pinned` now does not keep these runs on their build (a run follows the build that ran its last task): pin it in one release, and change it in a later one.",
      },
    },
  },
  check(context) {
    for (const v of versioningVerdicts(context)) {
      if (v.verdict.verdict !== 'incompatible') continue;
      const { verdict } = v;
      context.report({
        file: v.absolute(verdict.at.file),
        loc: { line: verdict.at.line, column: verdict.at.column },
        messageId: 'incompatible',
        data: {
          workflow: v.workflow,
          newCommand: verdict.newCommand ? describeCommand(verdict.newCommand) : 'no command (the code waits or ends)',
          oldCommand: verdict.old ? describeCommand(verdict.old) : 'no command at this point',
          oldAt: verdict.old ? `${verdict.old.at.file}:${verdict.old.at.line}:${verdict.old.at.column}` : 'the baseline',
          part: verdict.part === 'fn' ? '' : ` (in its ${verdict.part})`,
          patchId: `${v.workflow}-change`,
        },
      });
    }
  },
});

/**
 * `activity "x#y"` (`activity "x#y" with id "fetch"` when its options set one), `child workflow "y"`, `a timer`,
 * `continue-as-new`, `the patched("id") marker`.
 */
export function describeCommand(c: { command: string; type: string; activityId?: string }): string {
  switch (c.command) {
    case 'activity':
      return c.activityId === undefined ? `activity "${c.type}"` : `activity "${c.type}" with id "${c.activityId}"`;
    case 'child':
      return `child workflow "${c.type}"`;
    case 'timer':
      return 'a timer';
    case 'continue-as-new':
      return 'continue-as-new';
    case 'upsert':
      return c.type === 'memo' ? 'a memo upsert' : 'a search attributes upsert';
    default:
      return `the patched("${c.type}") marker`;
  }
}
