import { describe, expect, it } from 'vitest';
import { briefs, discoverFixture, rel, workflowSummary } from './helpers.js';

describe('names read statically (package rules 2, 7, 10)', () => {
  it('reads literals, template literals and top-level const strings; reports the rest at the offending node', async () => {
    const m = await discoverFixture('names');
    expect(briefs(m)).toEqual([
      'activity/invalid-name aliases/steps.js:6:33',
      'activity/non-static-name aliases/steps.js:7:35',
      'workflow/invalid-name aliases/workflow.js:7:25',
      'workflow/non-static-name aliases/workflow.js:7:38',
      'workflow/non-static-name aliases/workflow.js:7:47',
      'workflow/non-static-name dynamic/workflow.js:6:9',
      'workflow/no-definition empty/workflow.js:1:1',
      'workflow/invalid-name invalid/workflow.js:4:9',
      'workflow/invalid-name reserved/workflow.js:3:33',
      'workflow/non-static-name spread/workflow.js:5:25',
      'workflow/multiple-definitions twice/workflow.js:4:23',
    ]);
    expect(workflowSummary(m)).toEqual([
      'with_aliases <- (local):default (aliases/workflow.js)',
      'const_named <- (local):default (consts/workflow.js)',
      'local_binding <- (local):default (local-binding/workflow.js)',
      'via_namespace <- (local):default (namespace-core/workflow.js)',
      'first <- (local):first (twice/workflow.js)',
    ]);
    const byName = Object.fromEntries(m.workflows.map((w) => [w.name, w]));
    expect(byName.const_named!.aliases).toEqual(['const_alias', 'literal_alias']);
    expect(byName.with_aliases!.aliases).toEqual(['ok_alias']);
    // The default-exported step is left to the validator (package rule 9); the two bad names are not registered.
    expect(byName.with_aliases!.activities.map((a) => `${a.name}:${a.exportName} ${rel(m, a.file)}:${a.line}:${a.column}`)).toEqual([
      'from_const:one aliases/steps.js:5:20',
    ]);
    const reserved = m.diagnostics.find((d) => d.file.endsWith('reserved/workflow.js'))!;
    expect(reserved.message).toBe("The workflow name '$catalog' is reserved for the per-catalog registry workflow.");
    const invalid = m.diagnostics.find((d) => d.file.endsWith('invalid/workflow.js'))!;
    expect(invalid.message).toBe("The workflow name 'bad-name' does not match ^[A-Za-z_][A-Za-z0-9_]*$.");
    expect(invalid.packageRule).toBe(7);
  });
});

describe('namespaces (package rules 7, 8, 10)', () => {
  it('reports equal workflow names and aliases, shared activity overrides (first wins), scoped-vs-shared and same-scope duplicates', async () => {
    const m = await discoverFixture('namespaces');
    expect(briefs(m)).toEqual([
      'names/scoped-shadows-shared greet/steps.js:3:20',
      'names/duplicate-activity greet/steps.js:5:22',
      'names/duplicate-workflow node_modules/pkg-a/greet/workflow.js:3:16',
      'names/shared-activity-overridden node_modules/pkg-a/shared/steps/fmt.js:3:20',
      'names/scoped-shadows-shared node_modules/pkg-b/hail/evaluators.js:3:22',
      'names/duplicate-workflow node_modules/pkg-b/hail/workflow.js:3:16',
      'names/shared-activity-overridden node_modules/pkg-b/shared/evaluators/score.js:3:22',
      'names/duplicate-activity node_modules/pkg-b/shared/steps/two.js:3:22',
    ]);
    const d = (rule: string, file: string) => m.diagnostics.find((x) => x.ruleId === rule && x.file.endsWith(file))!;
    expect(d('names/duplicate-workflow', 'pkg-a/greet/workflow.js').message).toBe(
      `'greet' is workflow 'greet' of package pkg-a (${m.root}/node_modules/pkg-a/greet/workflow.js) and also workflow 'greet' of the project (${m.root}/greet/workflow.js); workflow names and aliases share one catalog namespace.`,
    );
    expect(d('names/duplicate-workflow', 'pkg-b/hail/workflow.js').message).toContain("also an alias of workflow 'salute' of package pkg-a");
    expect(d('names/shared-activity-overridden', 'pkg-a/shared/steps/fmt.js').message).toContain(`the first registration (${m.root}/shared/steps/fmt.js) wins`);
    expect(d('names/shared-activity-overridden', 'pkg-a/shared/steps/fmt.js').severity).toBe('warning');
    expect(d('names/scoped-shadows-shared', 'greet/steps.js').message).toContain("both would register as 'greet#log'");
    expect(d('names/scoped-shadows-shared', 'greet/steps.js').packageRule).toBe(8);

    expect(m.sharedActivities.map((a) => `${a.package?.name ?? '(local)'} ${a.name} ${rel(m, a.file)}`)).toEqual([
      '(local) fmt shared/steps/fmt.js',
      '(local) log shared/steps/log.js',
      'pkg-a score node_modules/pkg-a/shared/evaluators/score.js',
      'pkg-b same node_modules/pkg-b/shared/steps/one.js',
    ]);
    const local = m.workflows[0]!;
    expect(local.activities.map((a) => a.name)).toEqual(['log', 'dup']);
    expect(local.activityTypes).toEqual(['greet#dup', 'greet#fmt', 'greet#log', 'greet#same', 'greet#score']);
    expect(m.workflows.find((w) => w.name === 'salute')!.activityTypes).toEqual(['salute#fmt', 'salute#log', 'salute#same', 'salute#score']);
  });
});
