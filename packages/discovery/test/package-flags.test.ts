/**
 * Reading package.json files and the expose flag (package rule 4: strictly the boolean true): what counts as
 * exposed, what package mode says is wrong with a flag, which installed packages a project lists, and the names and
 * versions it gives them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkPackageFlag, Diagnostics, discover, exposeState, intendsWorkflowPackage, readManifest } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { EXPOSE, packageJson, tempProject, workflowJs } from './tmp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('exposeState', () => {
  it.each([
    [{ skein: { workflows: { expose: true } } }, 'exposed'],
    [{}, 'absent'],
    [{ skein: null }, 'absent'],
    [{ skein: 'yes' }, 'absent'],
    [{ skein: { workflows: null } }, 'absent'],
    [{ skein: { workflows: true } }, 'absent'],
    [{ skein: { workflows: {} } }, 'absent'],
    [{ skein: { workflows: { expose: 'true' } } }, 'invalid'],
    [{ skein: { workflows: { expose: false } } }, 'invalid'],
    [{ skein: { workflows: { expose: null } } }, 'invalid'],
  ])('%j is %s', (json, state) => {
    expect(exposeState(json)).toBe(state);
  });
});

describe('checkPackageFlag and intendsWorkflowPackage', () => {
  it.each([
    [{ skein: { workflows: { expose: true } } }, undefined, true],
    [{ name: 'p', main: 'index.js' }, undefined, false],
    [{ Skein: { workflows: { expose: true } } }, '"Skein" looks like a misspelling of "skein"', true],
    [{ skeins: {} }, '"skeins" looks like a misspelling of "skein"', true],
    [{ skeinab: {} }, '"skeinab" looks like a misspelling of "skein"', true],
    [{ skeinabc: {} }, undefined, false],
    [{ skein: null }, '"skein" is null, not an object', true],
    [{ skein: 'yes' }, '"skein" is "yes", not an object', true],
    [{ skein: {} }, '"skein" has no "workflows" key', false],
    [{ skein: { hookFiles: ['./hooks.js'] } }, '"skein" has no "workflows" key', false],
    [{ skein: { Workflows: {} } }, '"Workflows" looks like a misspelling of "workflows"', true],
    [{ skein: { workflows: 1 } }, '"workflows" is 1, not an object', true],
    [{ skein: { workflows: null } }, '"workflows" is null, not an object', true],
    [{ skein: { workflows: {} } }, '"workflows" has no "expose" key', true],
    [{ skein: { workflows: { EXPOSE: true } } }, '"EXPOSE" looks like a misspelling of "expose"', true],
    [{ skein: { workflows: { expose: 'true' } } }, '"expose" is "true", not the boolean true', true],
    [{ skein: { workflows: { expose: false } } }, '"expose" is false, not the boolean true', true],
  ])('%j: %s', (json, problem, intends) => {
    expect(checkPackageFlag(json)).toBe(problem);
    expect(intendsWorkflowPackage(json)).toBe(intends);
  });
});

describe('readManifest', () => {
  const read = (files: Record<string, string>, unreadable: string[] = []) => {
    const diagnostics = new Diagnostics();
    const result = readManifest(memoryFileSystem(files, unreadable), '/p', diagnostics);
    return { result, findings: diagnostics.sorted().map((d) => `${d.ruleId} ${d.severity} ${d.line}:${d.column}`) };
  };

  it('answers the parsed object and its text', () => {
    expect(read({ '/p/package.json': '{"name":"p"}' })).toEqual({ result: { ok: true, json: { name: 'p' }, text: '{"name":"p"}' }, findings: [] });
  });

  it('reports a missing package.json as missing, an unreadable one as unreadable, and a top level that is not an object', () => {
    expect(read({ '/p/x.js': '' })).toEqual({ result: { ok: false }, findings: ['package/missing-manifest warning 1:1'] });
    expect(read({ '/p/package.json': '{}' }, ['/p/package.json'])).toEqual({ result: { ok: false }, findings: ['package/invalid-json warning 1:1'] });
    for (const text of ['[]', 'null', '"p"', '3']) expect(read({ '/p/package.json': text }).findings).toEqual(['package/invalid-json warning 1:1']);
    expect(read({ '/p/package.json': '{\n  "name": "p",\n}' }).findings).toEqual(['package/invalid-json warning 3:1']);
  });

  it('reports the validated directory’s own broken package.json as an error: nothing of it can load', async () => {
    const diagnostics = new Diagnostics();
    expect(readManifest(memoryFileSystem({ '/p/package.json': '{\n  "name": "p",\n}' }), '/p', diagnostics, true)).toEqual({ ok: false });
    expect(diagnostics.sorted().map((d) => `${d.ruleId} ${d.severity} ${d.line}:${d.column}`)).toEqual(['package/invalid-root-json error 3:1']);
    const m = await discover('/p', {
      fs: memoryFileSystem({ '/p/package.json': '{ "name": "p", "type": "module", }', '/p/a/workflow.js': workflowJs('a') }),
      ceiling: '/p',
    });
    expect(m.diagnostics.map((d) => `${d.ruleId} ${d.severity}`)).toContain('package/invalid-root-json error');
    expect(m.diagnostics.find((d) => d.ruleId === 'package/invalid-root-json')!.message).toMatch(/Node cannot load any module of this project/);
  });
});

describe('installed packages', () => {
  const project = (files: Record<string, string>, links: Record<string, string> = {}) => {
    const t = tempProject({ 'package.json': packageJson('app'), 'app/workflow.js': workflowJs('app'), ...files }, links);
    cleanups.push(t.cleanup);
    return t.root;
  };

  it('names a package without a usable name after its folder (scoped too), and gives a missing version as 0.0.0', async () => {
    const flows = (json: Record<string, unknown>) => JSON.stringify({ ...json, ...EXPOSE, exports: './index.js' });
    const index = "export { default as w } from './w/workflow.js';\n";
    const root = project({
      'node_modules/nameless/package.json': flows({ version: '1.2.3' }),
      'node_modules/nameless/index.js': index,
      'node_modules/nameless/w/workflow.js': workflowJs('nameless_flow'),
      'node_modules/@scope/empty/package.json': flows({ name: '', version: 7 }),
      'node_modules/@scope/empty/index.js': index,
      'node_modules/@scope/empty/w/workflow.js': workflowJs('empty_flow'),
      'node_modules/numbered/package.json': flows({ name: 5 }),
      'node_modules/numbered/index.js': index,
      'node_modules/numbered/w/workflow.js': workflowJs('numbered_flow'),
    });
    const m = await discover(root, { ceiling: root });
    expect(m.diagnostics).toEqual([]);
    expect(m.packages.map((p) => `${p.name}@${p.version}`)).toEqual(['@scope/empty@0.0.0', 'nameless@1.2.3', 'numbered@0.0.0']);
  });

  it('warns about an installed package whose misspelt flag plainly means to expose workflows, and not about other keys', async () => {
    const t = tempProject({
      'package.json': packageJson('project'),
      'flows/workflow.js': workflowJs('own'),
      'node_modules/skien/package.json': JSON.stringify({ name: 'skien', version: '1.0.0', type: 'module', skien: { workflows: { expose: true } } }, null, 2),
      'node_modules/exposed/package.json': JSON.stringify(
        { name: 'exposed', version: '1.0.0', type: 'module', skein: { workflows: { exposed: true } } },
        null,
        2,
      ),
      // Keys near "skein" without a workflows object, and a skein key without workflows: someone else's settings.
      'node_modules/other/package.json': JSON.stringify({ name: 'other', version: '1.0.0', skin: { theme: 'dark' }, sein: 1 }),
      'node_modules/settings-only/package.json': JSON.stringify({ name: 'settings-only', version: '1.0.0', skein: { seedSettings: {} } }),
    });
    cleanups.push(t.cleanup);
    const m = await discover(t.root);
    expect(m.diagnostics.map((d) => `${d.ruleId} ${d.file.slice(t.root.length + 1)}:${d.line}:${d.column} ${d.message}`)).toEqual([
      `package/invalid-expose-flag node_modules/exposed/package.json:7:7 exposed's package.json: "exposed" looks like a misspelling of "expose"; its workflows are not discovered.`,
      `package/invalid-expose-flag node_modules/skien/package.json:5:3 skien's package.json: "skien" looks like a misspelling of "skein"; its workflows are not discovered.`,
    ]);
    expect(m.diagnostics[0]?.severity).toBe('warning');
    expect(m.diagnostics[0]?.hint).toBe('Write the flag as "skein": { "workflows": { "expose": true } }.');
  });

  it('is silent about what is not a package in node_modules: dot-folders, files, links to files, dangling links', async () => {
    const root = project(
      {
        'node_modules/.bin/tool': '#!/bin/sh\n',
        'node_modules/.package-lock.json': '{}',
        'node_modules/readme.md': '',
        'node_modules/dep/package.json': packageJson('dep'),
      },
      { 'node_modules/file-link': '../package.json', 'node_modules/dangling': '../nowhere' },
    );
    const m = await discover(root, { ceiling: root });
    expect(m.diagnostics).toEqual([]);
  });

  it('reports a folder of node_modules without package.json, and a symlink loop there', async () => {
    const root = project({ 'node_modules/broken/index.js': '' }, { 'node_modules/loop': 'loop' });
    const m = await discover(root, { ceiling: root });
    expect(m.diagnostics.map((d) => `${d.ruleId} ${d.file.slice(root.length + 1)}`)).toEqual([
      'package/missing-manifest node_modules/broken/package.json',
      'fs/symlink-loop node_modules/loop',
    ]);
  });

  it('lists a nameless package linked under two names once, under the first name in sorted order', async () => {
    const root = project(
      {
        'packages/flows/package.json': JSON.stringify({ ...EXPOSE, exports: './index.js' }),
        'packages/flows/index.js': "export { default as w } from './w/workflow.js';\n",
        'packages/flows/w/workflow.js': workflowJs('w'),
      },
      { 'node_modules/b': '../packages/flows', 'node_modules/a': '../packages/flows' },
    );
    const m = await discover(root, { ceiling: root });
    expect(m.packages.map((p) => p.name)).toEqual(['a']);
    expect(m.workflows.map((w) => w.name)).toEqual(['app', 'w']);
  });

  it('in package mode, finds an imported package in an ancestor node_modules (hoisted) and only under its own name', async () => {
    const unflagged = (name: string) => ({
      [`node_modules/${name}/package.json`]: JSON.stringify({ name: name === 'renamed' ? 'other' : name, version: '1.0.0', exports: './index.js' }),
      [`node_modules/${name}/index.js`]: "export { default as greet } from './greet/workflow.js';\n",
      [`node_modules/${name}/greet/workflow.js`]: workflowJs('greet'),
    });
    const root = project({
      ...unflagged('hoisted'),
      ...unflagged('renamed'),
      'pkg/package.json': packageJson('pkg', { ...EXPOSE, exports: './index.js' }),
      'pkg/index.js': "export { default as main } from './main/workflow.js';\n",
      'pkg/main/workflow.js':
        "import { workflow } from '@skein/core';\nimport { greet } from 'hoisted';\nimport { greet as g2 } from 'renamed';\nexport default workflow({ name: 'main', fn: async (x) => [greet, g2, x] });\n",
    });
    const m = await discover(`${root}/pkg`, { ceiling: root, mode: 'package' });
    expect(m.diagnostics.map((d) => `${d.ruleId} ${d.line}:${d.column}`)).toEqual(['package/no-expose-flag 2:10']);
  });
});
