/**
 * `activities/scoped-shadows-shared` (SPEC rule 8): a workflow-scoped step or evaluator named like a shared
 * activity fails validation at worker startup, because both would register as `<workflow>#<name>`
 * (SPEC rule 10). Reported at the scoped activity, naming both files. Supersedes discovery's
 * `names/scoped-shadows-shared` finding at the same position.
 */
import * as path from 'node:path';
import type { ProjectRule, RuleMeta } from '../../types.js';

export const meta: RuleMeta = {
  id: 'activities/scoped-shadows-shared',
  severity: 'error',
  description: 'A workflow-scoped step or evaluator must not have the name of a shared activity.',
  specRule: 8,
  docs: { path: 'docs/rules/activities/scoped-shadows-shared.md' },
  messages: {
    shadows: 'The {{kind}} "{{name}}" of workflow "{{workflow}}" ({{scopedFile}}) has the same name as the shared {{sharedKind}} in {{sharedFile}}; both would register as "{{workflow}}#{{name}}".',
  },
  hints: {
    shadows: 'Rename one of them, or delete the scoped copy and call the shared activity.',
  },
};

export const rule: ProjectRule = {
  kind: 'project',
  meta,
  supersedes: ['names/scoped-shadows-shared'],
  check(context) {
    const shared = new Map(context.manifest.sharedActivities.map((a) => [a.name, a]));
    const rel = (f: string) => path.relative(context.manifest.root, f) || f;
    for (const wf of context.manifest.workflows) {
      for (const act of wf.activities) {
        const other = act.shared ? undefined : shared.get(act.name);
        if (!other || other.file === act.file) continue;
        context.report({
          file: act.file,
          loc: { line: act.line, column: act.column },
          messageId: 'shadows',
          data: { kind: act.kind, name: act.name, workflow: wf.name, scopedFile: rel(act.file), sharedKind: other.kind, sharedFile: rel(other.file) },
        });
      }
    }
  },
};
