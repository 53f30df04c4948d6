import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest, WorkflowEntry } from '@skein/discovery';
import { bundleWorkflows } from '../src/bundle/bundle.js';
import { WorkerStartupError } from '../src/errors.js';
import { loadProject } from '../src/load.js';

const root = path.resolve(import.meta.dirname, '../../../fixtures/projects/bundle-condition');

function manifestOf(name: string): Manifest {
  const wf: WorkflowEntry = {
    name, aliases: [], file: `${root}/${name}/workflow.js`, line: 1, column: 1, package: null, exportName: 'default', activities: [], activityTypes: [],
  };
  return { root, workflows: [wf], sharedActivities: [], packages: [], diagnostics: [], filesRead: 0 };
}

describe('workflow bundle (SPEC rule 12)', () => {
  it("resolves a dependency through its skein-workflow-bundle export condition", async () => {
    const bundle = await bundleWorkflows(await loadProject(manifestOf('where')));
    expect(bundle.code).toContain('workflow-safe entry');
    expect(bundle.code).not.toContain('node entry on');
  }, 120_000);

  it('surfaces the real cause when bundling fails', async () => {
    // The worker imports the module first (it fails there in Node too), so bundle from a project that loads.
    const project = await loadProject(manifestOf('where'));
    project.workflows[0]!.entry.file = `${root}/broken/workflow.js`;
    const err = await bundleWorkflows(project).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerStartupError);
    expect((err as Error).message).toMatch(/^Bundling workflow code failed:/);
    expect((err as Error).message).toContain("Can't resolve 'not-installed-anywhere'");
  }, 120_000);
});
