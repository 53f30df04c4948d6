/**
 * Package mode (package rule 4, strictly): the root judged as the installed package a worker would
 * see. A missing, misspelt or non-boolean expose flag is an error with the fix; zero workflows is an error that says
 * why. `auto` picks package mode only when package.json sets or misspells the flag. Nothing is written anywhere.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { discover, type Manifest } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { EXPOSE, packageJson, tempProject, workflowJs } from './tmp.js';

const ENTRY = { exports: './index.js' };
const files = (json: string, extra: Record<string, string> = {}) => ({
  '/p/package.json': json,
  '/p/index.js': "export { default as greet } from './greet/workflow.js';\n",
  '/p/greet/workflow.js': workflowJs('greet'),
  ...extra,
});
const run = (f: Record<string, string>, mode: 'package' | 'project' | 'auto' = 'package'): Promise<Manifest> =>
  discover('/p', { fs: memoryFileSystem(f), ceiling: '/p', mode });
const briefs = (m: Manifest) => m.diagnostics.map((d) => `${d.ruleId} ${d.severity} ${d.file.slice(3)}:${d.line}:${d.column}`);

describe('the expose flag in package mode', () => {
  it('accepts the boolean true: the workflows the entry reaches, no finding', async () => {
    const m = await run(files(packageJson('p', { ...EXPOSE, ...ENTRY })));
    expect(m.mode).toBe('package');
    expect(briefs(m)).toEqual([]);
    expect(m.workflows.map((w) => `${w.name} ${w.package?.name}`)).toEqual(['greet p']);
  });

  it.each([
    ['missing', {}, /has no "skein" key/, '"name"'],
    ['the string "true"', { skein: { workflows: { expose: 'true' } } }, /"expose" is "true", not the boolean true/, '"expose"'],
    ['misspelt "skien"', { skien: { workflows: { expose: true } } }, /"skien" looks like a misspelling of "skein"/, '"skien"'],
    ['misspelt "workflow"', { skein: { workflow: { expose: true } } }, /"workflow" looks like a misspelling of "workflows"/, '"workflow"'],
    ['misspelt "exposed"', { skein: { workflows: { exposed: true } } }, /"exposed" looks like a misspelling of "expose"/, '"exposed"'],
  ])('reports a flag that is %s as package/not-exposed, an error with the fix, at the offending key', async (_what, flag, message, key) => {
    const json = JSON.stringify({ name: 'p', version: '1.0.0', ...ENTRY, ...flag }, null, 2);
    const line = json.split('\n').findIndex((l) => l.includes(key)) + 1;
    const m = await run(files(json));
    const d = m.diagnostics.find((x) => x.ruleId === 'package/not-exposed');
    expect(d).toMatchObject({ severity: 'error', packageRule: 4, file: '/p/package.json', line });
    expect(d?.message).toMatch(message);
    expect(d?.hint).toContain('"skein": { "workflows": { "expose": true } }');
    // Still judged as the package it means to be: its workflows are found.
    expect(m.workflows.map((w) => w.name)).toEqual(['greet']);
  });
});

describe('auto mode', () => {
  it('judges a root that sets or misspells the flag as a package', async () => {
    expect((await run(files(packageJson('p', { ...EXPOSE, ...ENTRY })), 'auto')).mode).toBe('package');
    expect((await run(files(packageJson('p', { skien: { workflows: { expose: true } }, ...ENTRY })), 'auto')).mode).toBe('package');
    expect((await run(files(packageJson('p', { skein: { workflows: { expose: 'yes' } }, ...ENTRY })), 'auto')).mode).toBe('package');
  });

  it('judges a root with no flag, or a skein key holding only project settings, as a project', async () => {
    expect((await run(files(packageJson('p')), 'auto')).mode).toBe('project');
    const hooks = await run(files(packageJson('p', { skein: { hookFiles: ['./hooks.js'] } })), 'auto');
    expect(hooks.mode).toBe('project');
    expect(briefs(hooks)).toEqual([]);
  });
});

describe('zero workflows is an error that says why', () => {
  it('no workflow file at all', async () => {
    const m = await run({ '/p/package.json': packageJson('p', { ...EXPOSE, ...ENTRY }), '/p/index.js': 'export const version = 1;\n' });
    expect(briefs(m)).toEqual(['conventions/no-workflows error package.json:1:1']);
    expect(m.diagnostics[0]!.message).toMatch(/no workflow file \(workflow\.ts, workflow\.mts, workflow\.js or workflow\.mjs\) was found/);
  });

  it('workflow files that the entry does not reach', async () => {
    const m = await run(files(packageJson('p', { ...EXPOSE, ...ENTRY }), { '/p/index.js': 'export const version = 1;\n' }));
    expect(briefs(m)).toEqual(['conventions/unreachable-workflow warning greet/workflow.js:1:1', 'conventions/no-workflows error package.json:1:1']);
    expect(m.diagnostics[1]!.message).toMatch(/its 1 workflow file\(s\) are not reachable from the package entry/);
  });

  it("names the re-export to write relative to the entry's own folder", async () => {
    const m = await run({
      '/p/package.json': packageJson('p', { ...EXPOSE, exports: './dist/index.js' }),
      '/p/dist/index.js': "export { default as greet } from './greet/workflow.js';\n",
      '/p/dist/greet/workflow.js': workflowJs('greet'),
      '/p/dist/helper_fn/workflow.js': workflowJs('helper_fn'),
    });
    expect(briefs(m)).toEqual(['conventions/unreachable-workflow warning dist/helper_fn/workflow.js:1:1']);
    expect(m.diagnostics[0]!.hint).toBe("Re-export it from the package entry: export { default as <name> } from './helper_fn/workflow.js'.");
  });

  it('a project too', async () => {
    const m = await run({ '/p/package.json': packageJson('p') }, 'project');
    expect(briefs(m)).toEqual(['conventions/no-workflows error package.json:1:1']);
    expect(m.diagnostics[0]!.message).toMatch(/^The project serves no workflow/);
  });
});

describe('nothing is written', () => {
  it('package mode on a real directory leaves the OS temp folder as it was (no host project)', async () => {
    const t = tempProject(files(packageJson('p', { ...EXPOSE, ...ENTRY })) as Record<string, string>);
    // A temp folder of this test's own (other test files write to the shared one meanwhile).
    const own = mkdtempSync(path.join(tmpdir(), 'skein-discovery-tmp-'));
    vi.stubEnv('TMPDIR', own);
    try {
      expect(tmpdir()).toBe(own);
      const m = await discover(t.root, { mode: 'package', ceiling: t.root });
      expect(m.workflows).toHaveLength(0); // the files above are keyed /p/...: written under <root>/p, nothing at the root
      expect(readdirSync(own)).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
      rmSync(own, { recursive: true, force: true });
      t.cleanup();
    }
  });
});

describe('installed packages in package mode', () => {
  const withImport = (extra: Record<string, string>) =>
    files(packageJson('p', { ...EXPOSE, ...ENTRY }), {
      '/p/greet/workflow.js':
        "import { workflow } from '@skein/core';\nimport { other } from 'flows';\nexport default workflow({ name: 'greet', fn: async (x) => other(x) });\n",
      ...extra,
    });
  const flows = (json: Record<string, unknown>) => ({
    '/p/node_modules/flows/package.json': packageJson('flows', { exports: './index.js', ...json }),
    '/p/node_modules/flows/index.js': "export { default as other } from './other/workflow.js';\n",
    '/p/node_modules/flows/other/workflow.js': "import { workflow } from '@skein/core';\nexport default workflow({ name: 'other', fn: async (x) => x });\n",
  });

  it('answers the import checks of workflow code: a workflow imported from an installed package without the flag is package/no-expose-flag', async () => {
    const m = await run(withImport(flows({})));
    expect(briefs(m)).toEqual(['package/no-expose-flag warning greet/workflow.js:2:10']);
    expect(m.packages).toEqual([]);
  });

  it('reads only the packages workflow code imports, not every package of node_modules', async () => {
    const fs = memoryFileSystem(withImport({ ...flows(EXPOSE), '/p/node_modules/unrelated/package.json': '{ not json' }));
    const read: string[] = [];
    const m = await discover('/p', { fs: { ...fs, readFile: (path) => (read.push(path), fs.readFile(path)) }, ceiling: '/p', mode: 'package' });
    expect(briefs(m)).toEqual([]);
    expect(read.filter((f) => f.includes('node_modules'))).toEqual(['/p/node_modules/flows/package.json']);
  });
});
