/**
 * `loadHookFiles`: the root project's hook files imported at start, and a file that cannot be loaded named with the
 * place in it that threw.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadHookFiles } from '../../src/interceptors/hook-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project folder holding `files` (relative path → text) and a package.json with `skein`. */
function project(skein: unknown, files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skein-hooks-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'hooks-test', type: 'module', skein }));
  for (const [rel, text] of Object.entries(files)) writeFileSync(path.join(dir, rel), text);
  return dir;
}

describe('loadHookFiles', () => {
  it('imports each listed file and returns their paths', async () => {
    const dir = project({ hookFiles: ['./a.js', 'b.js'] }, { 'a.js': 'globalThis.__hookA = 1;\n', 'b.js': 'export {};\n' });
    expect(await loadHookFiles(dir)).toEqual([path.join(dir, 'a.js'), path.join(dir, 'b.js')]);
    expect((globalThis as { __hookA?: number }).__hookA).toBe(1);
  });

  it('names the file, the error and the line and column that threw while it loaded', async () => {
    const dir = project({ hookFiles: ['./hooks.js'] }, { 'hooks.js': "const a = 1;\n\nthrow new Error('no billing key');\n" });
    const file = path.join(dir, 'hooks.js');
    await expect(loadHookFiles(dir)).rejects.toThrow(`Cannot load hook file ${file}: no billing key (at ${file}:3:7)`);
  });

  it('refuses a malformed list and a file outside the project', async () => {
    await expect(loadHookFiles(project({ hookFiles: './hooks.js' }, {}))).rejects.toThrow('"skein.hookFiles" must be an array of relative paths');
    await expect(loadHookFiles(project({ hookFiles: ['../elsewhere.js'] }, {}))).rejects.toThrow('hook file "../elsewhere.js" is outside the project');
  });

  it('loads nothing without hookFiles', async () => {
    expect(await loadHookFiles(project({}, {}))).toEqual([]);
  });
});
