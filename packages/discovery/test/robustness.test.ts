import { afterEach, describe, expect, it } from 'vitest';
import { discover } from '../src/index.js';
import { briefs, discoverFixture, workflowSummary } from './helpers.js';
import { memoryFileSystem } from './memfs.js';
import { EXPOSE, packageJson, tempProject, workflowJs } from './tmp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('robustness: bad files are diagnostics, never exceptions', () => {
  it('reports syntax errors with positions, oversized files, broken and missing package.json files', async () => {
    const m = await discoverFixture('robustness', { maxFileBytes: 3000 });
    expect(briefs(m)).toEqual([
      'fs/file-too-large big/workflow.js:1:1',
      'parse/syntax-error broken/workflow.js:5:23',
      'package/invalid-json node_modules/array-json/package.json:1:1',
      'package/invalid-json node_modules/bad-json/package.json:4:1',
      'parse/syntax-error node_modules/good/bad-barrel.js:2:14',
      'package/missing-manifest node_modules/no-manifest/package.json:1:1',
      'parse/syntax-error recovering/workflow.js:4:7',
    ]);
    const d = (file: string) => m.diagnostics.find((x) => x.file.endsWith(file))!;
    expect(d('big/workflow.js').message).toContain('is 3120 bytes, over the 3000-byte cap');
    expect(d('broken/workflow.js').message).toBe(`Syntax error in ${m.root}/broken/workflow.js: Unexpected token.`);
    expect(d('recovering/workflow.js').message).toContain("Identifier 'a' has already been declared");
    expect(d('bad-json/package.json').message).toContain('is not valid JSON');
    // A recoverable syntax error still yields the workflow; the good package survives its broken barrel.
    expect(workflowSummary(m)).toEqual(['recovering <- (local):default (recovering/workflow.js)', 'good <- good:good (node_modules/good/g/workflow.js)']);
  });

  it('parses files under the default 1 MiB cap', async () => {
    const m = await discoverFixture('robustness');
    expect(briefs(m)).not.toContain('fs/file-too-large big/workflow.js:1:1');
    expect(m.workflows.map((w) => w.name)).toContain('big');
  });

  it('reports symlink loops in the project and in node_modules, and walks a directory reached twice only once', async () => {
    const t = tempProject(
      {
        'package.json': packageJson('loops'),
        'real/workflow.js': workflowJs('real'),
        'node_modules/ok/package.json': packageJson('ok', EXPOSE),
        'node_modules/ok/index.js': "export { default as inner } from './inner/workflow.js';\n",
        'node_modules/ok/inner/workflow.js': workflowJs('inner'),
      },
      { 'real/back': '..', alias: 'real', 'node_modules/cyclic': 'cyclic', 'node_modules/ok/inner/up': '..' },
    );
    cleanups.push(t.cleanup);
    const m = await discover(t.root, { ceiling: t.root });
    expect(briefs(m)).toEqual(['fs/symlink-loop node_modules/cyclic:1:1', 'fs/symlink-loop node_modules/ok/inner/up:1:1', 'fs/symlink-loop real/back:1:1']);
    expect(m.diagnostics.map((d) => d.severity)).toEqual(['warning', 'warning', 'warning']);
    expect(workflowSummary(m)).toEqual(['real <- (local):default (real/workflow.js)', 'inner <- ok:inner (node_modules/ok/inner/workflow.js)']);
  });

  it('skips dist and dot-directories when looking for local workflows', async () => {
    const t = tempProject({
      'package.json': packageJson('p'),
      'dist/a/workflow.js': workflowJs('built'),
      '.hidden/workflow.js': workflowJs('hidden'),
      'src/workflow.js': workflowJs('src'),
    });
    cleanups.push(t.cleanup);
    const m = await discover(t.root, { ceiling: t.root });
    expect(workflowSummary(m)).toEqual(['src <- (local):default (src/workflow.js)']);
  });

  it('reports unreadable files and directories through the FileSystem interface', async () => {
    const fs = memoryFileSystem(
      {
        '/p/package.json': packageJson('p'),
        '/p/a/workflow.js': workflowJs('a'),
        '/p/b/workflow.js': workflowJs('b'),
        '/p/locked/x/workflow.js': workflowJs('x'),
        '/p/node_modules/locked-pkg/package.json': packageJson('locked-pkg', EXPOSE),
      },
      ['/p/b/workflow.js', '/p/locked', '/p/node_modules/locked-pkg/package.json'],
    );
    const m = await discover('/p', { fs, ceiling: '/p' });
    expect(briefs(m)).toEqual(['fs/unreadable b/workflow.js:1:1', 'fs/unreadable locked:1:1', 'package/invalid-json node_modules/locked-pkg/package.json:1:1']);
    expect(m.diagnostics[0]!.message).toBe('Cannot read /p/b/workflow.js (EACCES).');
    expect(workflowSummary(m)).toEqual(['a <- (local):default (a/workflow.js)']);
  });

  it('runs entirely on an in-memory file system', async () => {
    const fs = memoryFileSystem({
      '/mem/package.json': packageJson('mem'),
      '/mem/node_modules/@m/flows/package.json': packageJson('@m/flows', { ...EXPOSE, exports: './index.js' }),
      '/mem/node_modules/@m/flows/index.js': "export { default as f } from './f/workflow.js';\n",
      '/mem/node_modules/@m/flows/f/workflow.js': workflowJs('f'),
      '/mem/node_modules/@m/flows/shared/steps/s.js': "import { step } from '@skein/core';\nexport const s = step({ name: 's', fn: async (x) => x });\n",
    });
    const m = await discover('/mem', { fs, ceiling: '/mem' });
    expect(m.diagnostics).toEqual([]);
    expect(workflowSummary(m)).toEqual(['f <- @m/flows:f (node_modules/@m/flows/f/workflow.js)']);
    expect(m.workflows[0]!.activityTypes).toEqual(['f#s']);
    expect(m.filesRead).toBe(3);
  });

  it('reports a missing project root and a project without package.json instead of throwing', async () => {
    const missing = await discover('/definitely/not/here', { ceiling: '/definitely' });
    expect(missing.diagnostics.map((d) => `${d.ruleId} ${d.file}`)).toEqual(['fs/unreadable /definitely/not/here']);
    expect(missing.workflows).toEqual([]);
    const fs = memoryFileSystem({ '/bare/w/workflow.js': workflowJs('w') });
    const bare = await discover('/bare', { fs, ceiling: '/bare' });
    expect(briefs(bare)).toEqual(['package/missing-manifest package.json:1:1']);
    expect(bare.workflows.map((w) => w.name)).toEqual(['w']);
  });
});
