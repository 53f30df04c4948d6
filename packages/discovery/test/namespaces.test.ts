/**
 * The catalog namespaces (namespaces.ts; package rules 7, 8 and 10), on entries built in memory: workflow names and
 * aliases share one namespace (the later registration is reported), shared activities resolve first-wins across
 * sources, a workflow-scoped activity may not share a shared activity's name, names are unique within one scope, and
 * each workflow's activity types are its own activities and every shared one, sorted, each once.
 */
import { describe, expect, it } from 'vitest';
import { Diagnostics, type ActivityEntry, type PackageRef, type WorkflowEntry } from '../src/index.js';
import { checkWorkflowNames, resolveActivities } from '../src/namespaces.js';

const PKG: PackageRef = { name: 'pkg', version: '1.0.0', root: '/p/node_modules/pkg' };

function wf(name: string, aliases: string[] = [], activities: ActivityEntry[] = [], pkg: PackageRef | null = null): WorkflowEntry {
  return {
    name,
    aliases,
    file: `/p/${name}/workflow.js`,
    line: 2,
    column: 16,
    package: pkg,
    exportName: 'default',
    localExport: 'default',
    activities,
    activityTypes: [],
  };
}

function act(name: string, file: string, line = 3, shared = false): ActivityEntry {
  return { name, exportName: name, kind: 'step', shared, file, line, column: 14 };
}

const found = (d: Diagnostics) => d.sorted().map((x) => `${x.ruleId} ${x.file}:${x.line}:${x.column}`);

describe('workflow names and aliases (package rule 7)', () => {
  it('reports a name or alias taken earlier, on the later workflow, once per clashing key', () => {
    const d = new Diagnostics();
    checkWorkflowNames([wf('a', ['x']), wf('b', ['a']), wf('x'), wf('c', ['y', 'y2']), wf('y2', [], [], PKG)], d);
    expect(found(d)).toEqual([
      'names/duplicate-workflow /p/b/workflow.js:2:16',
      'names/duplicate-workflow /p/x/workflow.js:2:16',
      'names/duplicate-workflow /p/y2/workflow.js:2:16',
    ]);
    const messages = d.sorted().map((x) => x.message);
    expect(messages[0]).toContain("'a' is an alias of workflow 'b'");
    expect(messages[0]).toContain("also workflow 'a' of the project");
    expect(messages[1]).toContain("'x' is workflow 'x'");
    expect(messages[1]).toContain("also an alias of workflow 'a'");
    expect(messages[2]).toContain("workflow 'y2' of package pkg");
  });

  it('does not report a workflow whose alias repeats its own name or alias', () => {
    const d = new Diagnostics();
    checkWorkflowNames([wf('a', ['a', 'b', 'b'])], d);
    expect(found(d)).toEqual([]);
  });
});

describe('activities (package rules 8 and 10)', () => {
  it('keeps the first shared registration of a name, reports the later ones, and gives the winner its package', () => {
    const d = new Diagnostics();
    const shared = resolveActivities(
      [],
      [
        { package: null, activities: [act('fmt', '/p/shared/steps/fmt.js', 3, true)] },
        {
          package: PKG,
          activities: [act('fmt', '/p/node_modules/pkg/shared/steps/fmt.js', 4, true), act('log', '/p/node_modules/pkg/shared/steps/log.js', 5, true)],
        },
      ],
      d,
    );
    expect(found(d)).toEqual(['names/shared-activity-overridden /p/node_modules/pkg/shared/steps/fmt.js:4:14']);
    expect(d.sorted()[0]?.severity).toBe('warning');
    expect(shared.map((a) => `${a.name} ${a.package?.name ?? '(project)'} ${a.file} shared=${a.shared}`)).toEqual([
      'fmt (project) /p/shared/steps/fmt.js shared=true',
      'log pkg /p/node_modules/pkg/shared/steps/log.js shared=true',
    ]);
  });

  it('reports duplicates within one source and within one workflow, keeping the first of each name', () => {
    const d = new Diagnostics();
    const w = wf('w', [], [act('one', '/p/w/steps.js', 3), act('one', '/p/w/steps.js', 7), act('two', '/p/w/steps.js', 9)]);
    const shared = resolveActivities(
      [w],
      [{ package: null, activities: [act('s', '/p/shared/steps/a.js', 3, true), act('s', '/p/shared/steps/b.js', 4, true)] }],
      d,
    );
    expect(found(d)).toEqual(['names/duplicate-activity /p/shared/steps/b.js:4:14', 'names/duplicate-activity /p/w/steps.js:7:14']);
    expect(shared.map((a) => a.file)).toEqual(['/p/shared/steps/a.js']);
    expect(w.activities.map((a) => `${a.name}:${a.line}`)).toEqual(['one:3', 'two:9']);
  });

  it('reports a workflow activity named like a shared one (both would register as one activity type)', () => {
    const d = new Diagnostics();
    const w = wf('w', [], [act('log', '/p/w/steps.js', 3), act('mine', '/p/w/steps.js', 5)]);
    resolveActivities([w], [{ package: PKG, activities: [act('log', '/p/node_modules/pkg/shared/steps/log.js', 2, true)] }], d);
    expect(found(d)).toEqual(['names/scoped-shadows-shared /p/w/steps.js:3:14']);
    expect(d.sorted()[0]?.message).toContain("'w#log'");
  });

  it('gives each workflow its own activities and every shared one as sorted activity types, each once', () => {
    const d = new Diagnostics();
    const w = wf('w', [], [act('m', '/p/w/steps.js', 3), act('b', '/p/w/steps.js', 4), act('z', '/p/w/steps.js', 5), act('d', '/p/w/steps.js', 6)]);
    const v = wf('v');
    const shared = ['c', 'a', 'm', 'y', 'zz'].map((n, i) => act(n, `/p/shared/steps/${n}.js`, i + 1, true));
    resolveActivities([w, v], [{ package: null, activities: shared }], d);
    expect(w.activityTypes).toEqual(['w#a', 'w#b', 'w#c', 'w#d', 'w#m', 'w#y', 'w#z', 'w#zz']);
    expect(v.activityTypes).toEqual(['v#a', 'v#c', 'v#m', 'v#y', 'v#zz']);
    const only = wf('only', [], [act('q', '/p/only/steps.js', 3), act('p', '/p/only/steps.js', 4)]);
    resolveActivities([only], [], new Diagnostics());
    expect(only.activityTypes).toEqual(['only#p', 'only#q']);
  });
});
