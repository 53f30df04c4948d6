/**
 * Project rules run on a hand-made context (manifest, packages, classify, readText), for the inputs no fixture
 * separates: where the files a rule looks at come from, and a file that cannot be read.
 */
import { classifyFile, type Manifest } from '@skein/discovery';
import { describe, expect, it } from 'vitest';
import type { ModuleGraph } from '../src/graph/module-graph.js';
import { rule as sharedFolderName } from '../src/rules/definitions/shared-folder-name.js';
import { rule as corePeerDependency } from '../src/rules/packaging/core-peer-dependency.js';
import { rule as seedSettingsKey } from '../src/rules/packaging/seed-settings-key.js';
import { rule as zodPeerDependency } from '../src/rules/packaging/zod-peer-dependency.js';
import type { PackageInfo, ProjectRule, ProjectRuleContext } from '../src/types.js';

const ROOT = '/p';

function manifest(workflowFiles: string[] = []): Manifest {
  return {
    root: ROOT,
    mode: 'package',
    workflows: workflowFiles.map((file) => ({ name: 'w', file })),
    sharedActivities: [],
    packages: [],
    diagnostics: [],
    filesRead: 0,
  } as unknown as Manifest;
}

function pkg(files: string[], extra: Partial<PackageInfo> = {}): PackageInfo {
  return {
    root: ROOT,
    packageJsonPath: `${ROOT}/package.json`,
    packageJsonText: '{}',
    packageJson: { name: 'p' },
    files,
    publishedFiles: files,
    published: true,
    ...extra,
  };
}

/** `file:line:column messageId` of each finding, in report order. */
async function run<M extends string>(
  rule: ProjectRule<M>,
  context: { manifest?: Manifest; packages?: PackageInfo[]; texts?: Record<string, string | null> },
): Promise<{ found: string[]; data: Record<string, string>[] }> {
  const found: string[] = [];
  const data: Record<string, string>[] = [];
  const texts = context.texts ?? {};
  const ctx: ProjectRuleContext<M> = {
    manifest: context.manifest ?? manifest(),
    packages: context.packages ?? [],
    graph: { entries: [], get: () => undefined } as unknown as ModuleGraph,
    classify: classifyFile,
    readText: (file) => texts[file] ?? null,
    factoryMadeDefinitions: () => [],
    report: (d) => {
      found.push(`${d.file.slice(ROOT.length + 1)}:${d.loc?.line}:${d.loc?.column} ${d.messageId}`);
      data.push(d.data ?? {});
    },
  };
  await rule.check(ctx);
  return { found, data };
}

describe('definitions/shared-folder-name', () => {
  it('reports a registered workflow in shared/ that no package lists', async () => {
    const { found } = await run(sharedFolderName, { manifest: manifest([`${ROOT}/shared/workflow.js`]) });
    expect(found).toEqual(['shared/workflow.js:1:1 sharedFolder']);
  });

  it("reports a package's workflow file in shared/ that registers no workflow, and only workflow files", async () => {
    const files = [`${ROOT}/hello/workflow.js`, `${ROOT}/shared/steps/greet.js`, `${ROOT}/shared/workflow.js`, `${ROOT}/shared/util.js`];
    const { found } = await run(sharedFolderName, { packages: [pkg(files)] });
    expect(found).toEqual(['shared/workflow.js:1:1 sharedFolder']);
  });

  it('reports a file found both ways once', async () => {
    const file = `${ROOT}/shared/workflow.js`;
    const { found } = await run(sharedFolderName, { manifest: manifest([file]), packages: [pkg([file])] });
    expect(found).toEqual(['shared/workflow.js:1:1 sharedFolder']);
  });
});

describe('packaging/zod-peer-dependency', () => {
  const dts = `${ROOT}/hello/workflow.d.ts`;
  const zodImport = "import type { z } from 'zod';\n";

  it('says nothing extra when zod is not a regular dependency either', async () => {
    const { found, data } = await run(zodPeerDependency, { packages: [pkg([dts])], texts: { [dts]: zodImport } });
    expect(found).toEqual(['hello/workflow.d.ts:1:24 notPeer']);
    expect(data[0]).toEqual({ file: 'hello/workflow.d.ts', specifier: 'zod', package: 'p', where: '' });
  });

  it('skips a declaration file that cannot be read and goes on to the next', async () => {
    const other = `${ROOT}/hello/steps.d.ts`;
    const { found } = await run(zodPeerDependency, { packages: [pkg([dts, other])], texts: { [dts]: null, [other]: zodImport } });
    expect(found).toEqual(['hello/steps.d.ts:1:24 notPeer']);
  });

  it('does not apply to a package that is not published', async () => {
    const { found } = await run(zodPeerDependency, { packages: [pkg([dts], { published: false })], texts: { [dts]: zodImport } });
    expect(found).toEqual([]);
  });
});

describe('packaging/core-peer-dependency', () => {
  it('calls a package without a name "The package"', async () => {
    const packageJson = { dependencies: { '@skein/core': '^0.1.0' } };
    const packageJsonText = JSON.stringify(packageJson, null, 2);
    const { found, data } = await run(corePeerDependency, { packages: [pkg([], { packageJson, packageJsonText })] });
    expect(found).toEqual(['package.json:3:5 regularDependency']);
    expect(data[0]).toEqual({ package: 'The package', field: 'dependencies', range: '^0.1.0' });
  });
});

describe('packaging/seed-settings-key', () => {
  const text = (json: object) => `${JSON.stringify(json, null, 2)}\n`;
  const withKey = (json: Record<string, unknown>, root = ROOT) =>
    pkg([], { root, packageJsonPath: `${root}/package.json`, packageJson: json, packageJsonText: text(json), published: false });

  it('names each lost setting and the key to use, at the key, published or not', async () => {
    const json = { name: 'flows', outputai: { hookFiles: ['./hooks.js'], workflows: { expose: true } } };
    const { found, data } = await run(seedSettingsKey, { packages: [withKey(json)] });
    expect(found).toEqual(['package.json:3:3 seedKey']);
    expect(data[0]).toEqual({
      package: 'flows',
      key: 'skein',
      settings: 'hookFiles, workflows',
      effect: 'its hook files are not loaded and its workflows are not exposed',
      merge: '',
    });
  });

  it('claims only what is lost: hook files of the served project, a flag that exposed', async () => {
    // A discovered package's hook files are never loaded, whatever its key; an expose flag that was not `true` exposed nothing.
    const dependency = { name: 'dep', outputai: { hookFiles: ['./h.js'], workflows: { expose: false } } };
    const { data } = await run(seedSettingsKey, { packages: [withKey(dependency, '/p/node_modules/dep')] });
    expect(data[0]).toMatchObject({ settings: 'hookFiles, workflows', effect: 'nothing in it takes effect' });
  });

  it('asks to merge into a "skein" key already there, and reports an empty or odd key too', async () => {
    const both = await run(seedSettingsKey, { packages: [withKey({ skein: { hookFiles: [] }, outputai: { workflows: { expose: true } } })] });
    expect(both.data[0]).toMatchObject({
      package: 'The package',
      effect: 'its workflows are not exposed',
      merge: ', merging its settings into the "skein" key already there',
    });
    const odd = await run(seedSettingsKey, { packages: [withKey({ name: 'x', outputai: true })] });
    expect(odd.data[0]).toMatchObject({ settings: 'no settings', effect: 'nothing in it takes effect' });
  });

  it('says nothing without the key', async () => {
    expect((await run(seedSettingsKey, { packages: [withKey({ name: 'x', skein: { hookFiles: ['./h.js'] } })] })).found).toEqual([]);
  });
});
