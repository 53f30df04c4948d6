/**
 * The file-system layer: Node's kinds of entries, error codes, what the session cache remembers, and the confinement
 * the validator reads through (a package's own files never lead outside it; its dependencies and missing files
 * behave as they do on disk).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cachingFileSystem, confineFileSystem, errorCode, nodeFileSystem, type FileSystem } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { tempProject } from './tmp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A temporary folder outside any project, holding `secret.js`. */
function outsideFolder(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'skein-outside-')));
  writeFileSync(join(dir, 'secret.js'), 'export const s = 1;\n');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function project(files: Record<string, string>, links: Record<string, string> = {}): string {
  const t = tempProject(files, links);
  cleanups.push(t.cleanup);
  return t.root;
}

/** What reading `path` does: `read` or the error code. */
function outcome(call: () => unknown): string {
  try {
    call();
    return 'read';
  } catch (error) {
    return errorCode(error);
  }
}

describe('errorCode', () => {
  it('answers the Node-style code of an error, EUNKNOWN for anything else', () => {
    expect(errorCode(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(errorCode(new Error('x'))).toBe('EUNKNOWN');
    expect(errorCode({ code: 2 })).toBe('EUNKNOWN');
    expect(errorCode(null)).toBe('EUNKNOWN');
    expect(errorCode(undefined)).toBe('EUNKNOWN');
  });
});

describe('nodeFileSystem', () => {
  it('tells files, folders, symlinks and other entries (devices) apart', () => {
    const root = project({ 'a/x.js': 'abc' }, { 'link.js': 'a/x.js' });
    expect(nodeFileSystem.stat(join(root, 'a/x.js'))).toEqual({ kind: 'file', size: 3 });
    expect(nodeFileSystem.stat(join(root, 'a')).kind).toBe('directory');
    expect(nodeFileSystem.stat(join(root, 'link.js')).kind).toBe('file');
    expect(nodeFileSystem.stat('/dev/null').kind).toBe('other');
    expect(
      nodeFileSystem
        .readdir(root)
        .map((e) => `${e.name}:${e.kind}`)
        .sort(),
    ).toEqual(['a:directory', 'link.js:symlink']);
    expect(nodeFileSystem.readdir(join(root, 'a'))).toEqual([{ name: 'x.js', kind: 'file' }]);
    expect(nodeFileSystem.readdir('/dev').find((e) => e.name === 'null')?.kind).toBe('other');
    expect(nodeFileSystem.realpath(join(root, 'link.js'))).toBe(join(root, 'a/x.js'));
    expect(nodeFileSystem.readFile(join(root, 'link.js'))).toBe('abc');
  });
});

describe('cachingFileSystem', () => {
  it('remembers JSON reads (several readers ask for package.json) but reads a source file each time it is asked', () => {
    const files: Record<string, string> = { '/p/package.json': '{}', '/p/a.js': 'one' };
    const base = memoryFileSystem(files);
    const reads: string[] = [];
    const fs = cachingFileSystem({ ...base, readFile: (p) => (reads.push(p), base.readFile(p)) });
    expect(fs.readFile('/p/package.json')).toBe('{}');
    files['/p/package.json'] = '{"changed":true}';
    expect(fs.readFile('/p/package.json')).toBe('{}');
    expect(fs.readFile('/p/a.js')).toBe('one');
    expect(fs.readFile('/p/a.js')).toBe('one');
    expect(reads).toEqual(['/p/package.json', '/p/a.js', '/p/a.js']);
  });

  it('does not derive the real path of `file/` from a listing: a file is not a folder', () => {
    const fs = cachingFileSystem(memoryFileSystem({ '/p/a/x.js': '' }));
    fs.readdir('/p/a');
    expect(fs.realpath('/p/a/x.js')).toBe('/p/a/x.js');
    expect(outcome(() => fs.realpath('/p/a/x.js/'))).toBe('ENOENT');
  });
});

describe('confineFileSystem', () => {
  it('refuses a symlinked file or folder of the package that leads outside, naming the real target; follows one that stays inside', () => {
    const outside = outsideFolder();
    const root = project(
      { 'pkg/own.js': 'own', 'pkg/package.json': '{}' },
      { 'pkg/out': outside, 'pkg/steps.js': join(outside, 'secret.js'), 'pkg/alias.js': 'own.js' },
    );
    const pkg = join(root, 'pkg');
    const fs = confineFileSystem(nodeFileSystem, [pkg]);
    expect(outcome(() => fs.readFile(join(pkg, 'steps.js')))).toBe('EOUTSIDE');
    expect(outcome(() => fs.stat(join(pkg, 'out/secret.js')))).toBe('EOUTSIDE');
    expect(outcome(() => fs.readdir(join(pkg, 'out')))).toBe('EOUTSIDE');
    let target: unknown;
    try {
      fs.readFile(join(pkg, 'steps.js'));
    } catch (error) {
      target = (error as { target?: unknown }).target;
    }
    expect(target).toBe(join(outside, 'secret.js'));
    expect(fs.readFile(join(pkg, 'alias.js'))).toBe('own');
    expect(fs.realpath(join(pkg, 'alias.js'))).toBe(join(pkg, 'own.js'));
    expect(
      fs
        .readdir(pkg)
        .map((e) => `${e.name}:${e.kind}`)
        .sort(),
    ).toEqual(['alias.js:symlink', 'out:symlink', 'own.js:file', 'package.json:file', 'steps.js:symlink']);
  });

  it('refuses a file in a folder below a symlink that leads outside (the folder is listed as a plain one there)', () => {
    const outside = outsideFolder();
    mkdirSync(join(outside, 'sub'));
    writeFileSync(join(outside, 'sub', 'deep.js'), 'deep');
    const root = project({ 'pkg/own.js': '' }, { 'pkg/out': outside });
    const pkg = join(root, 'pkg');
    const fs = confineFileSystem(nodeFileSystem, [pkg]);
    expect(outcome(() => fs.readFile(join(pkg, 'out', 'sub', 'deep.js')))).toBe('EOUTSIDE');
    expect(outcome(() => fs.readdir(join(pkg, 'out', 'sub')))).toBe('EOUTSIDE');
  });

  it('judges a path that is not normalized (`.`, `..`, doubled or trailing separators) as the path it names', () => {
    const outside = outsideFolder();
    const root = project({ 'pkg/own.js': 'own', 'pkg/a/x.js': 'x' }, { 'pkg/steps.js': join(outside, 'secret.js') });
    const pkg = join(root, 'pkg');
    const fs = confineFileSystem(nodeFileSystem, [pkg]);
    expect(outcome(() => fs.readFile(`${pkg}/a/../steps.js`))).toBe('EOUTSIDE');
    expect(outcome(() => fs.readFile(`${pkg}/./steps.js`))).toBe('EOUTSIDE');
    expect(outcome(() => fs.readFile(`${pkg}//steps.js`))).toBe('EOUTSIDE');
    expect(fs.readFile(`${pkg}/a/../own.js`)).toBe('own');
    expect(fs.readdir(`${pkg}/a/`).map((e) => e.name)).toEqual(['x.js']);
    expect(fs.readdir(`${pkg}/a/../a`).map((e) => e.name)).toEqual(['x.js']);
  });

  it('keeps dependencies readable wherever their links lead (node_modules of the package), but not a folder merely named like it', () => {
    const outside = outsideFolder();
    const root = project({ 'pkg/own.js': '' }, { 'pkg/node_modules/dep': outside, 'pkg/node_modules_old': outside });
    const pkg = join(root, 'pkg');
    const fs = confineFileSystem(nodeFileSystem, [`${pkg}/`]);
    expect(fs.readFile(join(pkg, 'node_modules/dep/secret.js'))).toContain('export');
    expect(outcome(() => fs.readFile(join(pkg, 'node_modules_old/secret.js')))).toBe('EOUTSIDE');
  });

  it('confines a package installed in a node_modules folder (the root itself lies below one)', () => {
    const outside = outsideFolder();
    const root = project(
      { 'node_modules/flows/index.js': '' },
      { 'node_modules/flows/steps.js': join(outside, 'secret.js'), 'node_modules/flows/node_modules_old': outside },
    );
    const pkg = join(root, 'node_modules/flows');
    const fs = confineFileSystem(nodeFileSystem, [pkg]);
    expect(outcome(() => fs.readFile(join(pkg, 'steps.js')))).toBe('EOUTSIDE');
    expect(outcome(() => fs.readFile(join(pkg, 'node_modules_old/secret.js')))).toBe('EOUTSIDE');
    expect(fs.readFile(join(pkg, 'index.js'))).toBe('');
  });

  it('leaves paths outside every root alone, even one whose name starts like a root', () => {
    const root = project({ 'p/a.js': 'a', 'p2/b.js': 'b' });
    const fs = confineFileSystem(nodeFileSystem, [join(root, 'p')]);
    expect(fs.readFile(join(root, 'p2/b.js'))).toBe('b');
    expect(fs.readFile(join(root, 'p/a.js'))).toBe('a');
    expect(fs.stat(join(root, 'p')).kind).toBe('directory');
  });

  it('reports missing files and dangling symlinks as missing (ENOENT), not as leaving the package', () => {
    const root = project({ 'pkg/a.js': '' }, { 'pkg/dangling.js': 'gone.js' });
    const pkg = join(root, 'pkg');
    const fs: FileSystem = confineFileSystem(nodeFileSystem, [pkg]);
    expect(outcome(() => fs.readFile(join(pkg, 'missing/x.js')))).toBe('ENOENT');
    expect(outcome(() => fs.readFile(join(pkg, 'dangling.js')))).toBe('ENOENT');
    expect(outcome(() => fs.readFile(join(pkg, 'a.js/x.js')))).toBe('ENOTDIR');
  });
});

describe('what the file-system layers ask of the disk', () => {
  /** Wraps `fs`, logging every call as `method path`. */
  function logging(fs: FileSystem, log: string[]): FileSystem {
    return {
      readFile: (p) => (log.push(`readFile ${p}`), fs.readFile(p)),
      stat: (p) => (log.push(`stat ${p}`), fs.stat(p)),
      realpath: (p) => (log.push(`realpath ${p}`), fs.realpath(p)),
      readdir: (p) => (log.push(`readdir ${p}`), fs.readdir(p)),
    };
  }

  it('the session cache asks stat, readdir and realpath once per path, failures included', () => {
    const log: string[] = [];
    const fs = cachingFileSystem(logging(memoryFileSystem({ '/p/a/x.js': '', '/p/a/y.js': '' }), log));
    for (let i = 0; i < 2; i++) {
      fs.stat('/p/a/x.js');
      fs.readdir('/p/a');
      fs.realpath('/p/a/x.js');
      fs.realpath('/p/a/y.js');
      expect(outcome(() => fs.stat('/p/gone.js'))).toBe('ENOENT');
      expect(outcome(() => fs.readdir('/p/gone'))).toBe('ENOENT');
    }
    expect(log).toEqual(['stat /p/a/x.js', 'readdir /p/a', 'realpath /p/a', 'stat /p/gone.js', 'readdir /p/gone']);
  });

  it('confinement lists each folder once and asks realpath only below a symlink, once per folder (and for the target it names when it refuses a path)', () => {
    const outside = outsideFolder();
    const root = project({ 'pkg/a/x.js': '', 'pkg/a/y.js': '', 'lib/z.js': '' }, { 'pkg/l': '../lib', 'pkg/out': outside });
    const pkg = join(root, 'pkg');
    const log: string[] = [];
    const fs = confineFileSystem(logging(nodeFileSystem, log), [pkg]);
    for (let i = 0; i < 2; i++) {
      fs.readFile(join(pkg, 'a/x.js'));
      fs.readFile(join(pkg, 'a/y.js'));
      fs.readdir(join(pkg, 'a'));
      expect(outcome(() => fs.readFile(join(pkg, 'l/z.js')))).toBe('EOUTSIDE');
      expect(outcome(() => fs.readFile(join(pkg, 'out/secret.js')))).toBe('EOUTSIDE');
    }
    const rel = (line: string) => line.replace(root, '');
    expect(log.filter((l) => !l.startsWith('readFile')).map(rel)).toEqual([
      'readdir /pkg',
      'readdir /pkg/a',
      'realpath /pkg/l',
      'realpath /pkg/l/z.js',
      'realpath /pkg/out',
      'realpath /pkg/out/secret.js',
      'realpath /pkg/l/z.js',
      'realpath /pkg/out/secret.js',
    ]);
  });
});
