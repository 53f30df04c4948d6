/**
 * The session's caching file system works out real paths from folder listings (no `realpath` call per file), and
 * still asks the file system below for anything a listing cannot vouch for: symlinks, paths not in a listed folder,
 * non-normalized paths. Confinement still holds for paths below a symlink that leaves the root.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachingFileSystem, confineFileSystem, errorCode, nodeFileSystem, type DirEntry, type FileSystem } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { tempProject } from './tmp.js';

/** Wraps `fs`, counting `realpath` calls; `links` are reported as symlinks by `readdir` and resolve to their target. */
function counting(fs: FileSystem, links: Record<string, string> = {}): FileSystem & { realpaths: string[] } {
  const realpaths: string[] = [];
  return {
    realpaths,
    readFile: (p) => fs.readFile(links[p] ?? p),
    stat: (p) => fs.stat(links[p] ?? p),
    readdir: (p) => fs.readdir(p).map((e): DirEntry => (links[join(p, e.name)] ? { name: e.name, kind: 'symlink' } : e)),
    realpath: (p) => {
      realpaths.push(p);
      return links[p] ?? fs.realpath(normalize(p));
    },
  };
}

describe('cachingFileSystem real paths', () => {
  const files = { '/p/a/x.js': '', '/p/a/y.js': '', '/p/b/z.js': '', '/p/target.js': '' };

  it('derives the real path of a listed plain file from its folder, asking realpath once for the folder at most', () => {
    const base = counting(memoryFileSystem(files));
    const fs = cachingFileSystem(base);
    fs.readdir('/p');
    fs.readdir('/p/a');
    expect(fs.realpath('/p/a/x.js')).toBe('/p/a/x.js');
    expect(fs.realpath('/p/a/y.js')).toBe('/p/a/y.js');
    expect(fs.realpath('/p/a')).toBe('/p/a');
    expect(base.realpaths).toEqual(['/p']);
  });

  it('asks the file system for symlinks, unlisted folders and non-normalized paths', () => {
    const base = counting(memoryFileSystem({ ...files, '/p/a/link.js': '' }), { '/p/a/link.js': '/p/target.js' });
    const fs = cachingFileSystem(base);
    fs.readdir('/p/a');
    expect(fs.realpath('/p/a/link.js')).toBe('/p/target.js');
    expect(fs.realpath('/p/b/z.js')).toBe('/p/b/z.js');
    expect(fs.realpath('/p/a/../a/x.js')).toBe('/p/a/x.js');
    expect(base.realpaths).toEqual(['/p/a/link.js', '/p/b/z.js', '/p/a/../a/x.js']);
  });

  it('derives the real path of a file in a listed symlinked folder from the folder real path, not the path asked', () => {
    const project = tempProject({ 'lib/z.js': '' }, { 'pkg/l': '../lib' });
    try {
      const fs = cachingFileSystem(nodeFileSystem);
      expect(fs.readdir(join(project.root, 'pkg', 'l')).map((e) => `${e.name}:${e.kind}`)).toEqual(['z.js:file']);
      expect(fs.realpath(join(project.root, 'pkg', 'l', 'z.js'))).toBe(join(project.root, 'lib', 'z.js'));
    } finally {
      project.cleanup();
    }
  });

  it('derives the real path of a file in the file-system root from the root listing', () => {
    const base = counting(memoryFileSystem({ '/x.js': '' }));
    const fs = cachingFileSystem(base);
    fs.readdir('/');
    expect(fs.realpath('/x.js')).toBe('/x.js');
    expect(base.realpaths).toEqual(['/']);
  });

  it('remembers a failure and throws it again', () => {
    const base = counting(memoryFileSystem(files));
    const fs = cachingFileSystem(base);
    expect(() => fs.realpath('/p/missing.js')).toThrow();
    expect(() => fs.realpath('/p/missing.js')).toThrow();
    expect(base.realpaths).toEqual(['/p/missing.js']);
  });

  it('keeps confinement: a file below a listed symlink that leaves the root is EOUTSIDE, a plain one is its own real path', () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'skein-outside-')));
    writeFileSync(join(outside, 'secret.js'), 'export const s = 1;\n');
    const project = tempProject({ 'pkg/own.js': 'export const o = 1;\n' }, { 'pkg/out': outside });
    try {
      const fs = cachingFileSystem(confineFileSystem(nodeFileSystem, [project.root]));
      const pkg = join(project.root, 'pkg');
      expect(
        fs
          .readdir(pkg)
          .map((e) => `${e.name}:${e.kind}`)
          .sort(),
      ).toEqual(['out:symlink', 'own.js:file']);
      expect(fs.realpath(join(pkg, 'own.js'))).toBe(join(pkg, 'own.js'));
      const escape = (call: () => unknown) => {
        try {
          call();
          return 'read';
        } catch (error) {
          return errorCode(error);
        }
      };
      expect(escape(() => fs.realpath(join(pkg, 'out', 'secret.js')))).toBe('EOUTSIDE');
      expect(escape(() => fs.readFile(join(pkg, 'out', 'secret.js')))).toBe('EOUTSIDE');
      expect(escape(() => fs.readdir(join(pkg, 'out')))).toBe('EOUTSIDE');
    } finally {
      project.cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
