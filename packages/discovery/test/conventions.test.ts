import { describe, expect, it } from 'vitest';
import { classifyFile } from '../src/index.js';
import { briefs, discoverFixture, rel, workflowSummary } from './helpers.js';

describe('classifyFile (package rule 1, decided only here)', () => {
  it.each([
    ['/a/b/workflow.js', 'workflow'],
    ['/a/b/steps.js', 'steps'],
    ['/a/b/steps/x.js', 'steps'],
    ['/a/b/evaluators.js', 'evaluators'],
    ['/a/b/evaluators/x.js', 'evaluators'],
    ['/a/shared/steps/x.js', 'shared-steps'],
    ['/a/shared/evaluators/x.js', 'shared-evaluators'],
    ['/a/shared/steps/steps.js', 'shared-steps'],
    ['/a/steps/workflow.js', 'workflow'],
    ['C:\\p\\b\\steps\\x.js', 'steps'],
    ['C:\\p\\shared\\evaluators\\x.js', 'shared-evaluators'],
  ] as const)('%s → %s', (file, role) => {
    expect(classifyFile(file)).toBe(role);
  });

  it.each([
    '/a/b/steps/sub/x.js',
    '/a/b/steps/x.d.ts',
    '/a/b/steps/x.test.ts',
    '/a/b/__tests__/workflow.ts',
    '/a/b/workflow.spec.js',
    '/a/b/steps/x.cjs',
    '/a/b/index.js',
    '/a/b/workflow.d.ts',
    '/a/b/steps/x.js.map',
    '/a/b/shared/x.js',
    '/a/b/my-steps.js',
  ])('%s → null', (file) => {
    expect(classifyFile(file)).toBeNull();
  });
});

describe('file conventions in a project', () => {
  it('collects .js activity files, warns on anything else in convention folders, and skips dot-directories', async () => {
    const m = await discoverFixture('conventions');
    expect(briefs(m)).toEqual([
      'activity/kind-mismatch flow/evaluators.js:5:22',
      'conventions/unexpected-file flow/steps/README.md:1:1',
      'conventions/unexpected-file shared/steps/notes.txt:1:1',
    ]);
    expect(m.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
    // `.cache/x/workflow.js` is under a dot-directory; `inline` is defined outside a workflow.js: not registered
    // (the validator reports it as conventions/misplaced-definition).
    expect(workflowSummary(m)).toEqual([
      'flow <- (local):default (flow/workflow.js)',
      'proper <- misplaced:proper (node_modules/misplaced/proper/workflow.js)',
    ]);
    const flow = m.workflows[0]!;
    expect(flow.activities.map((a) => `${a.kind}:${a.name} ${rel(m, a.file)}:${a.line}:${a.column}`)).toEqual([
      'step:a flow/steps/a.js:3:18',
      // A folder nested in the workflow's steps folder is walked too, after the folder's own files.
      'step:deep flow/steps/nested/deep.js:3:21',
      'evaluator:judge flow/evaluators.js:4:22',
      'step:wrong flow/evaluators.js:5:22',
      'evaluator:extra flow/evaluators/extra.js:3:22',
    ]);
    // A folder nested in a shared folder is walked: `shared/evaluators/old/e2.js` is a shared evaluator.
    expect(m.sharedActivities.map((a) => `${a.kind}:${a.name} ${rel(m, a.file)}`)).toEqual([
      'step:s shared/steps/s.js',
      'evaluator:e shared/evaluators/e.js',
      'evaluator:e2 shared/evaluators/old/e2.js',
    ]);
    expect(m.diagnostics.find((d) => d.ruleId === 'conventions/unexpected-file')!.packageRule).toBe(1);
  });
});
