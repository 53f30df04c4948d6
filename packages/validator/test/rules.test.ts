/**
 * Every rule against its good and bad fixture packages (`fixtures/validator/<rule-id>/{valid,invalid}`):
 * the valid package has no findings at all; the invalid one has exactly the listed findings (rule id,
 * file, line, column).
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../src/index.js';
import { fixture, summarize } from './helpers.js';

interface Case {
  rule: string;
  invalid: string[];
  options?: { maxFileBytes: number };
  /**
   * A project (no expose flag) also sees the exposed packages of the repository's own node_modules, which
   * belong to other fixtures: only findings inside the fixture count.
   */
  project?: boolean;
}

const CASES: Case[] = [
  {
    rule: 'steps/named-exports-only',
    invalid: ['steps/named-exports-only hello/steps.js:4:1', 'steps/named-exports-only hello/steps.js:5:1', 'steps/named-exports-only hello/steps.js:6:1'],
  },
  {
    rule: 'steps/import-style',
    invalid: [
      'steps/import-style hello/workflow.js:2:8',
      'steps/import-style hello/workflow.js:3:8',
      'steps/import-style hello/workflow.js:4:18',
      'steps/import-style hello/workflow.js:8:95',
    ],
  },
  {
    rule: 'steps/no-top-level-call',
    invalid: ['steps/no-top-level-call hello/steps.js:8:1', 'steps/no-top-level-call hello/workflow.js:4:16', 'steps/no-top-level-call hello/workflow.js:8:1'],
  },
  {
    rule: 'workflow/no-node-modules',
    invalid: [
      'workflow/no-node-modules hello/format.js:1:30',
      'workflow/no-node-modules hello/format.js:2:16',
      'workflow/no-node-modules hello/workflow.js:4:21',
    ],
  },
  {
    rule: 'workflow/no-node-globals',
    invalid: [
      'workflow/no-node-globals hello/workflow.js:7:5',
      'workflow/no-node-globals hello/workflow.js:8:18',
      'workflow/no-node-globals hello/workflow.js:9:17',
      'workflow/no-node-globals hello/workflow.js:10:23',
      'workflow/no-node-globals hello/workflow.js:11:26',
    ],
  },
  {
    rule: 'workflow/declared-schedules',
    invalid: [
      'workflow/declared-schedules hello/workflow.js:9:11',
      'workflow/declared-schedules hello/workflow.js:9:34',
      'workflow/declared-schedules hello/workflow.js:10:27',
      'workflow/declared-schedules hello/workflow.js:11:26',
      'workflow/declared-schedules hello/workflow.js:12:11',
      'workflow/declared-schedules hello/workflow.js:12:26',
    ],
  },
  {
    rule: 'workflow/no-nondeterministic-apis',
    invalid: ['workflow/no-nondeterministic-apis hello/workflow.js:7:21', 'workflow/no-nondeterministic-apis hello/workflow.js:8:26'],
  },
  { rule: 'package/not-exposed', invalid: ['package/not-exposed package.json:11:7'] },
  { rule: 'conventions/no-workflows', invalid: ['conventions/unreachable-workflow hello/workflow.js:1:1', 'conventions/no-workflows package.json:1:1'] },
  {
    rule: 'conventions/misplaced-definition',
    invalid: ['conventions/misplaced-definition hello/utils.js:3:22', 'conventions/misplaced-definition lib.js:3:16'],
  },
  {
    rule: 'conventions/misplaced-factory-call',
    invalid: [
      'conventions/misplaced-factory-call hello/rates.js:3:23',
      'conventions/misplaced-factory-call hello/rates.js:4:25',
      'conventions/misplaced-factory-call lib/euro.js:3:24',
      'conventions/misplaced-factory-call lib/yen.js:3:22',
      'conventions/misplaced-factory-call second/workflow.js:6:25',
    ],
  },
  { rule: 'definitions/shared-folder-name', invalid: ['definitions/shared-folder-name shared/workflow.js:1:1'] },
  { rule: 'packaging/core-peer-dependency', invalid: ['packaging/core-peer-dependency package.json:16:5'] },
  { rule: 'packaging/zod-peer-dependency', invalid: ['packaging/zod-peer-dependency hello/workflow.d.ts:1:24'] },
  { rule: 'packaging/javascript-sources', invalid: ['packaging/javascript-sources hello/evaluators.ts:1:1'] },
  { rule: 'packaging/type-declarations', invalid: ['packaging/type-declarations package.json:1:1'] },
  { rule: 'fs/outside-package', invalid: ['fs/outside-package hello/workflow.js:3:24'] },
  {
    rule: 'imports/missing-export',
    invalid: [
      'imports/missing-export hello/lib/format.js:1:10',
      'imports/missing-export hello/steps.js:2:10',
      'imports/missing-export hello/workflow.js:3:10',
      'imports/missing-export hello/workflow.js:4:8',
      'imports/missing-export hello/workflow.js:5:20',
    ],
  },
  { rule: 'parse/syntax-error', invalid: ['parse/syntax-error hello/helper.js:2:24'] },
  { rule: 'fs/file-too-large', invalid: ['fs/file-too-large hello/table.js:1:1'], options: { maxFileBytes: 4096 } },
  // Discovery's findings (package rules 1-4, 7, 10) reach the report unchanged.
  { rule: 'names/duplicate-activity', invalid: ['names/duplicate-activity hello/evaluators.js:3:22'] },
  { rule: 'reexport/cycle', invalid: ['reexport/cycle index.js:4:10'] },
  {
    rule: 'discovery',
    invalid: ['conventions/unreachable-workflow hello/workflow.js:1:1', 'reexport/commonjs index.js:1:1', 'conventions/no-workflows package.json:1:1'],
  },
  { rule: 'discovery-project', invalid: ['package/no-expose-flag hello/workflow.js:3:10', 'names/duplicate-workflow hello/workflow.js:5:16'], project: true },
];

/** The findings of a case, limited to the fixture for project cases. */
function findings(report: Awaited<ReturnType<typeof validate>>, project: boolean | undefined): string[] {
  return summarize(report).filter((line) => !project || !line.split(' ')[1]?.startsWith('..'));
}

describe.each(CASES)('$rule', ({ rule, invalid, options, project }) => {
  it('accepts the valid fixture with no findings', async () => {
    const report = await validate(fixture(`${rule}/valid`), options);
    expect(findings(report, project)).toEqual([]);
    if (!project) expect(report.errorCount + report.warningCount).toBe(0);
    expect(report.manifest.workflows.length).toBeGreaterThan(0);
  });

  it('reports exactly the expected findings in the invalid fixture', async () => {
    const report = await validate(fixture(`${rule}/invalid`), options);
    expect(findings(report, project)).toEqual(invalid);
    if (!project) expect(report.errorCount + report.warningCount).toBe(invalid.length);
    expect(report.errorCount).toBe(report.diagnostics.filter((d) => d.severity === 'error').length);
  });
});

describe('finding contents', () => {
  it('rule 12 names the import chain and the fix', async () => {
    const report = await validate(fixture('workflow/no-node-modules/invalid'));
    const [fsImport, , dependency] = report.diagnostics;
    expect(fsImport?.message).toContain('hello/workflow.js → hello/helper.js → hello/format.js → fs');
    expect(fsImport?.hint).toMatch(/step/);
    expect(fsImport?.packageRule).toBe(12);
    expect(dependency?.message).toContain('"left-pad-fs"');
    expect(dependency?.message).toContain('node_modules/left-pad-fs/util.js → fs');
    expect(dependency?.hint).toContain('skein-workflow-bundle');
  });

  it('type-declarations is a warning, the others errors', async () => {
    const report = await validate(fixture('packaging/type-declarations/invalid'));
    expect(report).toMatchObject({ errorCount: 0, warningCount: 1 });
    expect(report.diagnostics[0]).toMatchObject({ severity: 'warning', packageRule: 5, messageId: 'missing' });
  });

  it('carries the manifest: workflows, activities and activity types (package rule 10)', async () => {
    const report = await validate(fixture('definitions/shared-folder-name/valid'));
    const hello = report.manifest.workflows.find((w) => w.name === 'hello');
    expect(hello?.activities.map((a) => a.name)).toEqual(['greet']);
    expect(hello?.activityTypes).toEqual(['hello#greet']);
  });
});
