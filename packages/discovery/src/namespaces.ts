/**
 * The catalog namespaces (package rules 7, 8 and 10).
 *
 * Registration order, which decides every "which one wins": the project's own registrations first, then each
 * exposed package in package-name order; within one source, files in path order. The FIRST registration of a
 * shared activity name wins (so the project's own shared activities always win); later ones are reported as
 * `names/shared-activity-overridden` and left out of `Manifest.sharedActivities`.
 */
import { activityType } from '@skein/names';
import type { Diagnostics } from './diagnostics.js';
import type { ActivityEntry, PackageRef, SharedActivityEntry, WorkflowEntry } from './types.js';

/** The shared activities one source (the project, or one package) provides. */
export interface SharedSource {
  package: PackageRef | null;
  activities: ActivityEntry[];
}

function owner(pkg: PackageRef | null): string {
  return pkg ? `package ${pkg.name}` : 'the project';
}

function describe(a: { kind: string; name: string; file: string; line: number }): string {
  return `${a.kind} '${a.name}' (${a.file}:${a.line})`;
}

/** Reports equal names within one scope (`names/duplicate-activity`); returns the first of each name. */
function uniqueInScope(activities: ActivityEntry[], scope: string, diagnostics: Diagnostics): ActivityEntry[] {
  const byName = new Map<string, ActivityEntry>();
  for (const a of activities) {
    const first = byName.get(a.name);
    if (!first) {
      byName.set(a.name, a);
      continue;
    }
    diagnostics.report(
      'names/duplicate-activity',
      'duplicate',
      a.file,
      { line: a.line, column: a.column },
      { activity: describe(a), first: describe(first), scope },
    );
  }
  return [...byName.values()];
}

/**
 * Reports workflow name and alias collisions (`names/duplicate-workflow`, on the later registration, naming both
 * files). `workflows` must be in registration order.
 */
export function checkWorkflowNames(workflows: WorkflowEntry[], diagnostics: Diagnostics): void {
  const taken = new Map<string, WorkflowEntry>();
  for (const w of workflows) {
    for (const key of [w.name, ...w.aliases]) {
      const first = taken.get(key);
      if (!first) {
        taken.set(key, w);
        continue;
      }
      if (first === w) continue;
      const what = (e: WorkflowEntry) => (key === e.name ? 'workflow' : 'an alias of workflow');
      diagnostics.report(
        'names/duplicate-workflow',
        'duplicate',
        w.file,
        { line: w.line, column: w.column },
        {
          key,
          what: what(w),
          name: w.name,
          owner: owner(w.package),
          file: w.file,
          firstWhat: what(first),
          firstName: first.name,
          firstOwner: owner(first.package),
          firstFile: first.file,
        },
      );
    }
  }
}

/**
 * Resolves shared activities across sources (first registration wins), checks workflow-scoped activities
 * against them (`names/scoped-shadows-shared`), and fills each workflow's `activityTypes` (package rule 10).
 * @returns the winning shared activities, in registration order.
 */
export function resolveActivities(workflows: WorkflowEntry[], sources: SharedSource[], diagnostics: Diagnostics): SharedActivityEntry[] {
  const winners = new Map<string, SharedActivityEntry>();
  for (const source of sources) {
    for (const a of uniqueInScope(source.activities, `the shared activities of ${owner(source.package)}`, diagnostics)) {
      const first = winners.get(a.name);
      if (!first) {
        winners.set(a.name, { ...a, shared: true, package: source.package });
        continue;
      }
      diagnostics.report(
        'names/shared-activity-overridden',
        'overridden',
        a.file,
        { line: a.line, column: a.column },
        {
          activity: describe(a),
          owner: owner(source.package),
          first: describe(first),
          firstOwner: owner(first.package),
          firstFile: first.file,
        },
      );
    }
  }
  const sharedNames = [...winners.keys()].sort();
  for (const w of workflows) {
    w.activities = uniqueInScope(w.activities, `workflow '${w.name}'`, diagnostics);
    for (const a of w.activities) {
      const shared = winners.get(a.name);
      if (!shared) continue;
      diagnostics.report(
        'names/scoped-shadows-shared',
        'shadows',
        a.file,
        { line: a.line, column: a.column },
        {
          activity: describe(a),
          workflow: w.name,
          shared: describe(shared),
          owner: owner(shared.package),
          type: activityType(w.name, a.name),
        },
      );
    }
    w.activityTypes = activityTypesOf(w.name, w.activities, sharedNames);
  }
  return [...winners.values()];
}

/** `<workflow>#<activity>` for the workflow's own activities and every shared name, sorted (merge of sorted lists). */
function activityTypesOf(workflow: string, own: ActivityEntry[], sharedNames: readonly string[]): string[] {
  const mine = [...new Set(own.map((a) => a.name))].sort();
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < mine.length || j < sharedNames.length) {
    const a = mine[i];
    const b = sharedNames[j];
    const next = b === undefined || (a !== undefined && a <= b) ? (i++, a as string) : (j++, b);
    if (a !== undefined && b !== undefined && a === b) j++;
    out.push(activityType(workflow, next));
  }
  return out;
}
