/**
 * `discover()` at its edges: a root that cannot be read, package mode without a package.json or with an entry that
 * does not resolve, the one registered definition of each workflow file, re-exports that name a workflow package
 * by a bare path, and which installed packages package mode and `localOnly` consult.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { discover, type Manifest } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { EXPOSE, packageJson, tempProject, workflowJs } from './tmp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const run = (files: Record<string, string>, mode: 'package' | 'project' = 'package', extra: { localOnly?: boolean } = {}): Promise<Manifest> =>
  discover('/p', { fs: memoryFileSystem(files), ceiling: '/p', mode, ...extra });
const briefs = (m: Manifest) => m.diagnostics.map((d) => `${d.ruleId} ${d.file.slice(3)}:${d.line}:${d.column}`);
const ENTRY = { exports: './index.js' };

describe('a root that cannot be read', () => {
  it.each(['project', 'package'] as const)('answers an empty %s manifest with the finding', async (mode) => {
    const m = await discover('/nowhere', { fs: memoryFileSystem({ '/p/package.json': '{}' }), mode });
    expect(m).toEqual({
      root: '/nowhere',
      mode,
      workflows: [],
      sharedActivities: [],
      packages: [],
      diagnostics: [expect.objectContaining({ ruleId: 'fs/unreadable', severity: 'error', file: '/nowhere' })],
      filesRead: 0,
    });
  });

  it('reports a root that is a symlink loop as fs/symlink-loop', async () => {
    const t = tempProject({}, { loop: 'loop' });
    cleanups.push(t.cleanup);
    const m = await discover(`${t.root}/loop`, { ceiling: t.root });
    expect(m.diagnostics.map((d) => d.ruleId)).toEqual(['fs/symlink-loop']);
    expect(m.workflows).toEqual([]);
  });
});

describe('package mode', () => {
  it('without a package.json: the missing manifest, not a flag problem; the package is named after its folder', async () => {
    const m = await run({ '/p/index.js': "export { default as greet } from './greet/workflow.js';\n", '/p/greet/workflow.js': workflowJs('greet') });
    expect(m.mode).toBe('package');
    expect(briefs(m)).toEqual(['package/missing-manifest package.json:1:1']);
    expect(m.workflows.map((w) => `${w.name} ${w.package?.name}`)).toEqual(['greet p']);
  });

  it('an entry that does not resolve is entry/not-found at the key that names it ("main" or "exports"), its one finding', async () => {
    const pkg = (extra: Record<string, unknown>) => ({
      '/p/package.json': JSON.stringify({ name: 'p', version: '1.0.0', ...EXPOSE, ...extra }, null, 2),
      '/p/greet/workflow.js': workflowJs('greet'),
    });
    const main = await run(pkg({ main: './gone.js' }));
    expect(briefs(main)).toEqual(['entry/not-found package.json:9:3']);
    expect(main.workflows).toEqual([]);
    const exp = await run(pkg({ exports: './gone.js' }));
    expect(briefs(exp)).toEqual(['entry/not-found package.json:9:3']);
    expect(exp.diagnostics[0]!.messageId).toBe('unresolved');
    // Its target in a top folder that does not exist: the package is not built yet, and the hint says to build it.
    const unbuilt = await run(pkg({ exports: { '.': { import: './dist/index.js' } } }));
    expect(unbuilt.diagnostics.map((d) => [d.ruleId, d.messageId])).toEqual([['entry/not-found', 'unbuilt']]);
    expect(unbuilt.diagnostics[0]!.hint).toMatch(/^Build it first .* from dist\/\.$/);
  });

  it('registers the first definition of a workflow file only, and a workflow re-exported twice once', async () => {
    const m = await run({
      '/p/package.json': packageJson('p', { ...EXPOSE, ...ENTRY }),
      '/p/index.js': [
        "export { second } from './two/workflow.js';",
        "export { default as once, default as again } from './greet/workflow.js';",
        "export { default as first } from './two/workflow.js';",
        '',
      ].join('\n'),
      '/p/greet/workflow.js': workflowJs('greet'),
      '/p/two/workflow.js':
        "import { workflow } from '@skein/core';\nexport default workflow({ name: 'one', fn: async (x) => x });\nexport const second = workflow({ name: 'two', fn: async (x) => x });\n",
    });
    expect(briefs(m)).toEqual(['workflow/multiple-definitions two/workflow.js:3:23']);
    expect(m.workflows.map((w) => `${w.name} ${w.exportName} ${w.file.slice(3)}`)).toEqual(['greet once greet/workflow.js', 'one first two/workflow.js']);
  });

  it('takes one definition exported under two names (a named export and the default) for one workflow, not several', async () => {
    const m = await run({
      '/p/package.json': packageJson('p', { ...EXPOSE, ...ENTRY }),
      '/p/index.js': "export { default as b } from './b/workflow.js';\nexport { c } from './c/workflow.js';\n",
      '/p/b/workflow.js': "import { workflow } from '@skein/core';\nexport const b = workflow({ name: 'b', fn: async (x) => x });\nexport default b;\n",
      '/p/c/workflow.js': "import { workflow } from '@skein/core';\nconst c = workflow({ name: 'c', fn: async (x) => x });\nexport { c, c as default };\n",
    });
    expect(briefs(m)).toEqual([]);
    expect(m.workflows.map((w) => `${w.name} ${w.file.slice(3)}`)).toEqual(['b b/workflow.js', 'c c/workflow.js']);
  });

  it('warns about re-exports of workflows by a bare path (reexport/non-relative), not about other bare re-exports', async () => {
    const m = await run({
      '/p/package.json': packageJson('p', { ...EXPOSE, ...ENTRY }),
      '/p/index.js': [
        "export { default as greet } from './greet/workflow.js';",
        "export { a } from 'lib/workflow';",
        "export { b } from 'lib/workflow.mjs';",
        "export { c } from 'lib/sub/workflow.ts';",
        "export { d } from 'lib/workflow-helpers.js';",
        "export { e } from 'lib/myworkflow.js';",
        "export { f } from 'lib/workflow.json';",
        '',
      ].join('\n'),
      '/p/greet/workflow.js': workflowJs('greet'),
    });
    expect(briefs(m)).toEqual(['reexport/non-relative index.js:2:19', 'reexport/non-relative index.js:3:19', 'reexport/non-relative index.js:4:19']);
  });

  it('with localOnly, consults no installed package for the import checks', async () => {
    const files = {
      '/p/package.json': packageJson('p', { ...EXPOSE, ...ENTRY }),
      '/p/index.js': "export { default as greet } from './greet/workflow.js';\n",
      '/p/greet/workflow.js':
        "import { workflow } from '@skein/core';\nimport { other } from 'flows';\nexport default workflow({ name: 'greet', fn: async (x) => other(x) });\n",
      '/p/node_modules/flows/package.json': packageJson('flows', ENTRY),
      '/p/node_modules/flows/index.js': "export { default as other } from './other/workflow.js';\n",
      '/p/node_modules/flows/other/workflow.js': workflowJs('other'),
    };
    expect(briefs(await run(files))).toEqual(['package/no-expose-flag greet/workflow.js:2:10']);
    expect(briefs(await run(files, 'package', { localOnly: true }))).toEqual([]);
  });
});

describe('project mode', () => {
  it('never lists the project itself as an installed package, even when it is exposed and linked into its own node_modules', async () => {
    const t = tempProject(
      {
        'package.json': packageJson('self', { ...EXPOSE, ...ENTRY }),
        'index.js': "export { default as greet } from './greet/workflow.js';\n",
        'greet/workflow.js': workflowJs('greet'),
      },
      { 'node_modules/self': '..' },
    );
    cleanups.push(t.cleanup);
    const m = await discover(t.root, { ceiling: t.root, mode: 'project' });
    expect(m.packages).toEqual([]);
    expect(m.workflows.map((w) => `${w.name} ${w.package?.name ?? 'local'}`)).toEqual(['greet local']);
    expect(m.diagnostics).toEqual([]);
  });
});
