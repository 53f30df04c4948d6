/** `layoutOf` over in-memory projects: which side of a compiled project is judged, and which folders are skipped. */
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/layout.js';
import { memoryFileSystem } from './memfs.js';

const WF = "import { workflow } from '@skein/core';\nexport default workflow({ name: 'w', fn: async () => 1 });\n";
const layout = (files: Record<string, string>, entry?: string) => {
  const l = layoutOf(memoryFileSystem({ '/p/package.json': '{}', ...files }), '/p', entry);
  return { judged: l.judged, skipped: [...l.skipped].sort() };
};

describe('layoutOf: a compiled project is judged once', () => {
  it('no compiled folder: plain, nothing skipped', () => {
    expect(layout({ '/p/src/a/workflow.ts': WF })).toEqual({ judged: 'plain', skipped: [] });
  });

  it('src/ beside dist/ without a tsconfig: the sources, dist/ skipped', () => {
    expect(layout({ '/p/src/a/workflow.ts': WF, '/p/dist/a/workflow.js': WF })).toEqual({ judged: 'sources', skipped: ['/p/dist'] });
  });

  it('only dist/ (a production image): the compiled output', () => {
    expect(layout({ '/p/dist/a/workflow.js': WF })).toEqual({ judged: 'compiled', skipped: [] });
  });

  it('workflow files at the root beside dist/ (no src/): the root is the sources, dist/ skipped', () => {
    expect(layout({ '/p/a/workflow.js': WF, '/p/dist/a/workflow.js': WF })).toEqual({ judged: 'sources', skipped: ['/p/dist'] });
    // Only non-workflow files outside dist/: the compiled output is what there is to judge.
    expect(layout({ '/p/a/helper.js': 'export const x = 1;\n', '/p/dist/a/workflow.js': WF })).toEqual({ judged: 'compiled', skipped: [] });
  });

  it('tsconfig rootDir/outDir (JSONC: comments, trailing commas) decide the folders, not src/ and dist/', () => {
    const tsconfig = '{\n  // build\n  "compilerOptions": { "rootDir": "lib", "outDir": "build", },\n}\n';
    expect(layout({ '/p/tsconfig.json': tsconfig, '/p/lib/a/workflow.ts': WF, '/p/build/a/workflow.js': WF, '/p/dist/a/workflow.js': WF })).toEqual({
      judged: 'sources',
      skipped: ['/p/build'],
    });
    // rootDir holds no workflow file of its own yet: still the sources (the side is decided by the folders).
    expect(layout({ '/p/tsconfig.json': tsconfig, '/p/lib/util.ts': 'export const x = 1;\n', '/p/build/a/workflow.js': WF })).toEqual({
      judged: 'sources',
      skipped: ['/p/build'],
    });
    // outDir missing on disk: plain.
    expect(layout({ '/p/tsconfig.json': tsconfig, '/p/lib/a/workflow.ts': WF })).toEqual({ judged: 'plain', skipped: [] });
    // rootDir missing on disk: judged from outDir.
    expect(layout({ '/p/tsconfig.json': tsconfig, '/p/build/a/workflow.js': WF })).toEqual({ judged: 'compiled', skipped: [] });
  });

  it('an outDir without rootDir makes the root the sources', () => {
    const tsconfig = '{ "compilerOptions": { "outDir": "out" } }';
    expect(layout({ '/p/tsconfig.json': tsconfig, '/p/src/a/workflow.ts': WF, '/p/out/a/workflow.js': WF })).toEqual({
      judged: 'sources',
      skipped: ['/p/out'],
    });
  });

  it('an outDir that is the root itself is not a compiled folder', () => {
    expect(layout({ '/p/tsconfig.json': '{ "compilerOptions": { "outDir": "." } }', '/p/a/workflow.js': WF })).toEqual({ judged: 'plain', skipped: [] });
  });

  it('ignores non-string options and broken or absent compilerOptions', () => {
    const files = { '/p/src/a/workflow.ts': WF, '/p/dist/a/workflow.js': WF };
    expect(layout({ ...files, '/p/tsconfig.json': '{ "compilerOptions": { "rootDir": 1, "outDir": ["x"] } }' })).toEqual({
      judged: 'sources',
      skipped: ['/p/dist'],
    });
    expect(layout({ ...files, '/p/tsconfig.json': '"just a string"' })).toEqual({ judged: 'sources', skipped: ['/p/dist'] });
    expect(layout({ ...files, '/p/tsconfig.json': 'null' })).toEqual({ judged: 'sources', skipped: ['/p/dist'] });
    expect(layout({ ...files, '/p/tsconfig.json': '{ "compilerOptions": ' })).toEqual({ judged: 'sources', skipped: ['/p/dist'] });
  });

  it('a package whose entry lies in the compiled output is judged from it, its sources skipped', () => {
    const files = { '/p/src/a/workflow.ts': WF, '/p/dist/a/workflow.js': WF, '/p/dist/index.js': '' };
    expect(layout(files, '/p/dist/index.js')).toEqual({ judged: 'compiled', skipped: ['/p/src'] });
    // An entry among the sources: the sources.
    expect(layout({ ...files, '/p/src/index.ts': '' }, '/p/src/index.ts')).toEqual({ judged: 'sources', skipped: ['/p/dist'] });
    // Sources at the root (no src/): compiled, nothing skipped (the root cannot be skipped).
    expect(layout({ '/p/a/workflow.js': WF, '/p/dist/a/workflow.js': WF, '/p/dist/index.js': '' }, '/p/dist/index.js')).toEqual({
      judged: 'compiled',
      skipped: [],
    });
  });
});
