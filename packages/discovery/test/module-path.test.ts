/**
 * Which file a relative import names (module-path.ts), over an in-memory file system: the path as
 * written, the `.ts` twin of a `.js`-style path (first from TypeScript, as a fallback from JavaScript), extensionless
 * paths in extension order, and a folder's `index` file.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveModuleFile, resolveRelativeImport, resolveSpecifier } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';

const src = (files: string[]) => memoryFileSystem(Object.fromEntries(files.map((f) => [f, 'export {};\n'])));

describe('resolveModuleFile', () => {
  it('prefers the .ts twin of a .js path from TypeScript, the .js file itself from JavaScript', () => {
    const fs = src(['/p/a.js', '/p/a.ts', '/p/m.mjs', '/p/m.mts']);
    expect(resolveModuleFile(fs, '/p/a.js', true)).toBe('/p/a.ts');
    expect(resolveModuleFile(fs, '/p/a.js', false)).toBe('/p/a.js');
    expect(resolveModuleFile(fs, '/p/m.mjs', true)).toBe('/p/m.mts');
    expect(resolveModuleFile(fs, '/p/m.mjs', false)).toBe('/p/m.mjs');
  });

  it('falls back to the .ts twin when the .js file is absent, from JavaScript too', () => {
    const fs = src(['/p/a.ts', '/p/c.cts']);
    expect(resolveModuleFile(fs, '/p/a.js', false)).toBe('/p/a.ts');
    expect(resolveModuleFile(fs, '/p/a.js', true)).toBe('/p/a.ts');
    expect(resolveModuleFile(fs, '/p/c.cjs', false)).toBe('/p/c.cts');
  });

  it('keeps a path that exists as written, and tries no twin for paths without a .js-style extension', () => {
    const fs = src(['/p/a.ts', '/p/a.ts.ts', '/p/data.json']);
    expect(resolveModuleFile(fs, '/p/a.ts', true)).toBe('/p/a.ts');
    expect(resolveModuleFile(fs, '/p/data.json', true)).toBe('/p/data.json');
  });

  it('tries the source extensions in order for an extensionless path', () => {
    expect(resolveModuleFile(src(['/p/a.js', '/p/a.ts']), '/p/a', false)).toBe('/p/a.ts');
    expect(resolveModuleFile(src(['/p/a.mjs', '/p/a.js']), '/p/a', true)).toBe('/p/a.js');
    expect(resolveModuleFile(src(['/p/a.cjs']), '/p/a', true)).toBe('/p/a.cjs');
  });

  it('resolves a folder to its index file, in extension order, and a folder without one to nothing', () => {
    expect(resolveModuleFile(src(['/p/lib/index.js']), '/p/lib', true)).toBe('/p/lib/index.js');
    expect(resolveModuleFile(src(['/p/lib/index.js', '/p/lib/index.ts']), '/p/lib', false)).toBe('/p/lib/index.ts');
    expect(resolveModuleFile(src(['/p/lib/other.js']), '/p/lib', true)).toBeUndefined();
  });

  it('answers undefined for a path that names nothing', () => {
    expect(resolveModuleFile(src(['/p/a.ts']), '/p/b.js', true)).toBeUndefined();
    expect(resolveModuleFile(src(['/p/a.ts']), '/p/b', false)).toBeUndefined();
  });
});

describe('resolveRelativeImport', () => {
  it('resolves against the importing file, preferring twins only from TypeScript', () => {
    const fs = src(['/p/src/a.js', '/p/src/a.ts', '/p/src/lib/x.ts']);
    expect(resolveRelativeImport(fs, '/p/src/main.ts', './a.js')).toBe('/p/src/a.ts');
    expect(resolveRelativeImport(fs, '/p/src/main.mts', './a.js')).toBe('/p/src/a.ts');
    expect(resolveRelativeImport(fs, '/p/src/main.js', './a.js')).toBe('/p/src/a.js');
    expect(resolveRelativeImport(fs, '/p/src/lib/y.js', '../lib/x')).toBe('/p/src/lib/x.ts');
  });

  it('answers the plain resolved path when nothing exists, so callers can report it', () => {
    expect(resolveRelativeImport(src([]), '/p/src/main.ts', '../missing.js')).toBe('/p/missing.js');
  });
});

describe('resolveSpecifier', () => {
  it('answers what path.resolve answers, for plain and unusual folders and specifiers alike', () => {
    const dirs = ['/', '/a', '/a/b', '/a/', '/a//b', '/a/./b', '/a/../b', '/a/.b', '/a/b.', '/.x'];
    const specifiers = ['./x.js', './a/b.js', './.x', './', './a//b', './a/', '../x', './a/../b', './a/./b', './x y', './..', './.', '.\\x', '/abs/x.js'];
    for (const dir of dirs)
      for (const specifier of specifiers) expect(resolveSpecifier(dir, specifier), `${dir} + ${specifier}`).toBe(path.resolve(dir, specifier));
  });
});
