/**
 * The directory walk: the wanted files under a root as real paths, sorted and unique; symlinks followed inside the
 * root and never out of it; loops and unreadable folders as findings, never exceptions.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { confineFileSystem, Diagnostics, nodeFileSystem, walkFiles, type FileSystem, type WalkOptions } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { tempProject } from './tmp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function walk(fs: FileSystem, root: string, options: Partial<WalkOptions> = {}) {
  const diagnostics = new Diagnostics();
  const outside: string[] = [];
  const files = walkFiles(
    fs,
    root,
    { skipDir: () => false, wantFile: (name) => name.endsWith('.js'), onOutside: (path, target) => void outside.push(`${path} -> ${target}`), ...options },
    diagnostics,
  );
  return { files, outside, findings: diagnostics.sorted().map((d) => `${d.ruleId} ${d.file}`) };
}

function outsideFolder(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'skein-outside-')));
  writeFileSync(join(dir, 'secret.js'), '');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('walkFiles', () => {
  it('lists the wanted files, sorted, skipping the folders asked (by name)', () => {
    const fs = memoryFileSystem({ '/p/b.js': '', '/p/a.js': '', '/p/x.md': '', '/p/sub/c.js': '', '/p/skip/d.js': '' });
    expect(walk(fs, '/p', { skipDir: (name) => name === 'skip' })).toEqual({ files: ['/p/a.js', '/p/b.js', '/p/sub/c.js'], outside: [], findings: [] });
  });

  it('walks from the file-system root, whose path already ends with the separator', () => {
    const fs = memoryFileSystem({ '/a.js': '', '/sub/b.js': '' });
    expect(walk(fs, '/')).toEqual({ files: ['/a.js', '/sub/b.js'], outside: [], findings: [] });
  });

  it('reports a root that cannot be read, and a folder that cannot be listed, and walks the rest', () => {
    expect(walk(memoryFileSystem({}), '/nowhere')).toEqual({ files: [], outside: [], findings: ['fs/unreadable /nowhere'] });
    const fs = memoryFileSystem({ '/p/a.js': '', '/p/locked/b.js': '' }, ['/p/locked']);
    expect(walk(fs, '/p')).toEqual({ files: ['/p/a.js'], outside: [], findings: ['fs/unreadable /p/locked'] });
  });

  it('follows symlinks inside the root to their real paths, once, and ignores dangling ones', () => {
    const t = tempProject(
      { 'real/a.js': '', 'other.txt': '', 'plain.txt': '' },
      {
        alias: 'real',
        'link.js': 'real/a.js',
        'dangling.js': 'gone.js',
        skipped: 'real',
        'text.js': 'other.txt',
        'unwanted.md': 'plain.txt',
        device: '/dev/null',
      },
    );
    cleanups.push(t.cleanup);
    const r = walk(nodeFileSystem, t.root, { skipDir: (_name, real) => real === join(t.root, 'nothing'), wantFile: (name) => name.endsWith('.js') });
    expect(r).toEqual({ files: [join(t.root, 'other.txt'), join(t.root, 'real/a.js')], outside: [], findings: [] });
  });

  it('skips a symlinked folder whose name or real path is skipped', () => {
    const t = tempProject({ 'real/a.js': '' }, { node_modules: 'real' });
    cleanups.push(t.cleanup);
    expect(walk(nodeFileSystem, t.root, { skipDir: (name, real) => name === 'node_modules' || real === join(t.root, 'real') }).files).toEqual([]);
    expect(walk(nodeFileSystem, t.root, { skipDir: (name) => name === 'real' }).files).toEqual([join(t.root, 'real/a.js')]);
  });

  it('never follows a symlink out of the root: files and folders outside are reported to onOutside', () => {
    const outside = outsideFolder();
    const t = tempProject({ 'a.js': '' }, { out: outside, 'steps.js': join(outside, 'secret.js') });
    cleanups.push(t.cleanup);
    const r = walk(nodeFileSystem, t.root);
    expect(r.files).toEqual([join(t.root, 'a.js')]);
    expect(r.outside.sort()).toEqual([`${join(t.root, 'out')} -> ${outside}`, `${join(t.root, 'steps.js')} -> ${join(outside, 'secret.js')}`]);
    expect(r.findings).toEqual([]);
  });

  it('needs no onOutside, and tells a sibling folder named like the root from the root', () => {
    const t = tempProject({ 'pkg/a.js': '', 'pkg2/b.js': '' }, { 'pkg/out': '../pkg2', 'pkg/b.js': '../pkg2/b.js' });
    cleanups.push(t.cleanup);
    const pkg = join(t.root, 'pkg');
    expect(walkFiles(nodeFileSystem, pkg, { skipDir: () => false, wantFile: () => true }, new Diagnostics())).toEqual([join(pkg, 'a.js')]);
    expect(walk(nodeFileSystem, pkg).outside.sort()).toEqual([
      `${join(pkg, 'b.js')} -> ${join(t.root, 'pkg2', 'b.js')}`,
      `${join(pkg, 'out')} -> ${join(t.root, 'pkg2')}`,
    ]);
  });

  it('reports a walk root that loops', () => {
    const t = tempProject({}, { loop: 'loop' });
    cleanups.push(t.cleanup);
    expect(walk(nodeFileSystem, join(t.root, 'loop')).findings).toEqual([`fs/symlink-loop ${join(t.root, 'loop')}`]);
  });

  it('passes on the target a confined file system names when it refuses a symlink', () => {
    const outside = outsideFolder();
    const t = tempProject({ 'pkg/a.js': '' }, { 'pkg/steps.js': join(outside, 'secret.js') });
    cleanups.push(t.cleanup);
    const pkg = join(t.root, 'pkg');
    const r = walk(confineFileSystem(nodeFileSystem, [pkg]), pkg);
    expect(r.files).toEqual([join(pkg, 'a.js')]);
    expect(r.outside).toEqual([`${join(pkg, 'steps.js')} -> ${join(outside, 'secret.js')}`]);
  });

  it('reports a symlink back to an ancestor and one that loops, and still walks the rest once', () => {
    const t = tempProject({ 'a/b.js': '' }, { 'a/up': '..', 'a/self': 'self', again: 'a' });
    cleanups.push(t.cleanup);
    const r = walk(nodeFileSystem, t.root);
    expect(r.files).toEqual([join(t.root, 'a/b.js')]);
    expect(r.findings).toEqual([`fs/symlink-loop ${join(t.root, 'a/self')}`, `fs/symlink-loop ${join(t.root, 'a/up')}`]);
  });
});
