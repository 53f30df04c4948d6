import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest, WorkflowEntry } from '@skein/discovery';
import { activityFileTest, bundleWorkflows } from '../src/bundle/bundle.js';
import { WorkerStartupError } from '../src/check/errors.js';
import { loadProject } from '../src/host/load.js';

const root = path.resolve(import.meta.dirname, '../../../fixtures/projects/bundle-condition');

function manifestOf(name: string): Manifest {
  const wf: WorkflowEntry = {
    name,
    aliases: [],
    file: `${root}/${name}/workflow.js`,
    line: 1,
    column: 1,
    package: null,
    exportName: 'default',
    activities: [],
    activityTypes: [],
  };
  return { root, workflows: [wf], sharedActivities: [], packages: [], diagnostics: [], filesRead: 0 };
}

describe('workflow bundle (SPEC rule 12)', () => {
  it('resolves a dependency through its skein-workflow-bundle export condition', async () => {
    const bundle = await bundleWorkflows(await loadProject(manifestOf('where')), { cacheDir: false });
    expect(bundle.code).toContain('workflow-safe entry');
    expect(bundle.code).not.toContain('node entry on');
  }, 120_000);

  it('surfaces the real cause when bundling fails', async () => {
    // The worker imports the module first (it fails there in Node too), so bundle from a project that loads.
    const project = await loadProject(manifestOf('where'));
    project.workflows[0]!.entry.file = `${root}/broken/workflow.js`;
    const err = await bundleWorkflows(project, { cacheDir: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerStartupError);
    expect((err as Error).message).toMatch(/^Bundling workflow code failed:/);
    expect((err as Error).message).toContain("Can't resolve 'not-installed-anywhere'");
  }, 120_000);
});

describe('activityFileTest', () => {
  it("stubs the project's and exposed packages' activity files, never a dependency's own steps.js", async () => {
    const project = await loadProject(manifestOf('where'));
    project.manifest.packages = [{ name: 'exposed', version: '1.0.0', root: `${root}/node_modules/exposed` }];
    const test = activityFileTest(project, new Map([[`${root}/listed/steps.js`, []]]));
    expect(test(`${root}/listed/steps.js`)).toBe(true);
    expect(test(`${root}/other/steps.js`)).toBe(true);
    expect(test(`${root}/shared/steps/x.js`)).toBe(true);
    expect(test(`${root}/node_modules/exposed/flow/evaluators.js`)).toBe(true);
    expect(test(`${root}/node_modules/dual-lib/lib/steps.js`)).toBe(false);
    expect(test(`${root}/node_modules/exposed/node_modules/dep/steps.js`)).toBe(false);
    expect(test(`${root}/where/workflow.js`)).toBe(false);
    expect(test(`/elsewhere/steps.js`)).toBe(false);
  });
});
