/**
 * Package entry resolution as Node does it (package rules 2 and 12): `exports` targets by condition, sugar and
 * patterns, then `module`, then `main` with its extension and folder searches, then `index.js`; and why an entry does
 * not resolve.
 */
import { describe, expect, it } from 'vitest';
import { resolveEntry, resolveExportsTarget, resolveImportsTarget } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';

describe('resolveExportsTarget', () => {
  it.each([
    ['no exports', null, '.', null],
    ['a target that is not package-relative', 'dist/index.js', '.', null],
    ['a bare target in a condition', { '.': { import: 'pkg/x.js', default: './d.js' } }, '.', './d.js'],
    ['a fallback array with no usable target', { '.': ['x.js', { require: './r.cjs' }] }, '.', null],
    ['a condition holding a number', { '.': { import: 1, default: './d.js' } }, '.', './d.js'],
    ['an exact subpath', { '.': './i.js', './sub': './s.js' }, './sub', './s.js'],
    ['an exact subpath over a pattern', { './*': './p/*.js', './x': './exact.js' }, './x', './exact.js'],
    ['a pattern with a suffix', { './*.js': './lib/*.mjs' }, './a/b.js', './lib/a/b.mjs'],
    ['a pattern whose suffix does not match', { './*.js': './lib/*.mjs' }, './a/b.ts', null],
    ['a pattern longer than the subpath', { './flows/*': './f/*.js' }, './flows', null],
    ['every * of a target replaced', { './*': { import: './*/*.js' } }, './a', './a/a.js'],
    ['a key with two *s is no pattern', { './*/*': './x/*.js' }, './a/b', null],
    ['the longer prefix first', { './a/*': './short/*.js', './a/b/*': './long/*.js' }, './a/b/c', './long/c.js'],
    ['the longer prefix first, even in a shorter key', { './a/*.json.js': './short/*.js', './a/b/*': './long/*' }, './a/b/x.json.js', './long/x.json.js'],
    ['a * in an exact target kept as written', { '.': './a*.js' }, '.', './a*.js'],
    ['undefined exports', undefined, '.', null],
    ['subpath keys mixed with conditions: no conditions object', { './x': './x.js', import: './i.js' }, '.', null],
    ['the longer key first at equal prefixes', { './a/*': './short/*.js', './a/*.js': './long/*.js' }, './a/x.js', './long/x.js'],
    // Conditions in the object's key order, as Node and the workflow bundler pick: `default` first wins.
    ['default listed before import', { '.': { default: './d.js', import: './i.js' } }, '.', './d.js'],
    ['import listed before default', { '.': { import: './i.js', default: './d.js' } }, '.', './i.js'],
    ['a bundler condition listed first', { '.': { browser: './b.js', import: './i.js' } }, '.', './b.js'],
    ['a condition the bundler does not take passed over', { '.': { node: './n.js', default: './d.js' } }, '.', './d.js'],
    // ...except the workflow-bundle conditions, preferred wherever they sit.
    ['the workflow-bundle condition listed last', { '.': { import: './node.js', 'skein-workflow-bundle': './bundle.js' } }, '.', './bundle.js'],
    ['nested conditions, each object in its own order', { '.': { default: { import: './di.js', default: './dd.js' }, import: './i.js' } }, '.', './di.js'],
  ])('%s', (_what, exportsField, subpath, expected) => {
    expect(resolveExportsTarget(exportsField, subpath)).toBe(expected);
  });

  it("honours the conditions given, in the object's key order", () => {
    const exp = { '.': { node: './n.js', import: './i.js' } };
    expect(resolveExportsTarget(exp, '.', ['node', 'import'])).toBe('./n.js');
    expect(resolveExportsTarget(exp, '.', ['import', 'node'])).toBe('./n.js');
    expect(resolveExportsTarget(exp, '.', ['import'])).toBe('./i.js');
    expect(resolveExportsTarget(exp, '.', ['browser'])).toBeNull();
  });
});

describe('resolveImportsTarget', () => {
  it.each([
    ['an exact name', { '#clock': './lib/clock.js' }, '#clock', './lib/clock.js'],
    ['a pattern', { '#lib/*': './lib/*' }, '#lib/a/b.js', './lib/a/b.js'],
    ['a pattern with a suffix', { '#lib/*.js': './src/*.ts' }, '#lib/x.js', './src/x.ts'],
    ['a condition the bundler does not take passed over', { '#clock': { node: './n.js', import: './i.js' } }, '#clock', './i.js'],
    ['the first of the bundler’s conditions in the object’s order', { '#x': { browser: './b.js', 'skein-workflow-bundle': './w.js' } }, '#x', './b.js'],
    ['a dependency', { '#pad': 'left-pad' }, '#pad', 'left-pad'],
    ['a built-in behind a condition', { '#fs': { import: 'node:fs' } }, '#fs', 'node:fs'],
    ['a fallback array', { '#x': ['../up.js', './here.js'] }, '#x', './here.js'],
    ['a target leaving the package', { '#x': '../up.js' }, '#x', null],
    ['an absolute target', { '#x': '/etc/passwd' }, '#x', null],
    ['another # import', { '#x': '#y', '#y': './y.js' }, '#x', null],
    ['a name not listed', { '#a': './a.js' }, '#b', null],
    ['not a # specifier', { '#a': './a.js' }, './a.js', null],
    ['#/ (never a valid name)', { '#/*': './*' }, '#/x', null],
    ['no imports', undefined, '#a', null],
    ['imports that are not a map', ['./a.js'], '#a', null],
  ])('%s', (_what, importsField, specifier, expected) => {
    expect(resolveImportsTarget(importsField, specifier)).toBe(expected);
  });
});

describe('resolveEntry', () => {
  const fs = memoryFileSystem({
    '/p/index.js': '',
    '/p/lib.js': '',
    '/p/dir/index.js': '',
    '/p/main.mjs': '',
    '/p/sub/x.js': '',
    '/q/other.js': '',
  });

  it.each([
    ['main as written', { main: 'main.mjs' }, '.', '/p/main.mjs'],
    ['main without its .js', { main: 'lib' }, '.', '/p/lib.js'],
    ['main naming a folder', { main: './dir' }, '.', '/p/dir/index.js'],
    ['index.js without main', {}, '.', '/p/index.js'],
    ['index.js when main is empty', { main: '' }, '.', '/p/index.js'],
    ['index.js when main is not a string', { main: 3 }, '.', '/p/index.js'],
    ['a subpath without exports', {}, './sub/x.js', '/p/sub/x.js'],
    ['exports over main', { exports: './lib.js', main: 'main.mjs' }, '.', '/p/lib.js'],
    ['exports null as absent', { exports: null, main: 'lib' }, '.', '/p/lib.js'],
  ])('%s', (_what, pkg, subpath, file) => {
    expect(resolveEntry(fs, '/p', pkg, subpath)).toEqual({ ok: true, file });
  });

  it.each([
    ['main pointing nowhere', { main: 'gone' }, '.', '"main" points at gone, which does not exist'],
    ['no main and no index.js', {}, '.', 'neither "exports" nor "main" is set and index.js does not exist'],
    ['exports pointing nowhere', { exports: './gone.js' }, '.', '"exports" points at ./gone.js, which does not exist'],
    ['exports pointing at a folder', { exports: './sub' }, '.', '"exports" points at ./sub, a folder: a target names a file'],
    [
      'exports pointing at a folder with an index',
      { exports: './dir' },
      '.',
      '"exports" points at ./dir, a folder: a target names a file (Node does not look for its index: name ./dir/index.js)',
    ],
    [
      'exports without the extension',
      { exports: { '.': { import: './lib' } } },
      '.',
      '"exports" points at ./lib, which does not exist (a target is used as written, with no extension added: name ./lib.js)',
    ],
    [
      'exports pointing outside the package',
      { exports: { '.': '../q/other.js' } },
      '.',
      '"exports" maps "." to ../q/other.js, which does not start with "./" (a target is a path inside the package, written ./…)',
    ],
    [
      'exports without its ./',
      { exports: 'dist/index.js' },
      '.',
      '"exports" maps "." to dist/index.js, which does not start with "./" (a target is a path inside the package, written ./…)',
    ],
    [
      'a subpath exports does not list',
      { exports: { '.': './index.js' } },
      './x',
      '"exports" has no "./x" target for the conditions skein-workflow-bundle, output-workflow-bundle, webpack, import, module, browser, default',
    ],
    ['a missing subpath without exports', {}, './nope.js', './nope.js does not exist'],
  ])('%s', (_what, pkg, subpath, reason) => {
    expect(resolveEntry(fs, subpath === './nope.js' || reason.startsWith('neither') ? '/q' : '/p', pkg, subpath)).toEqual({ ok: false, reason });
  });

  it('says when a target lies in a top folder that does not exist: a package not built yet', () => {
    expect(resolveEntry(fs, '/p', { exports: { '.': { import: './dist/index.js' } } })).toEqual({
      ok: false,
      reason: '"exports" points at ./dist/index.js, which does not exist (nor does dist/)',
      unbuilt: 'dist',
    });
    expect(resolveEntry(fs, '/p', { main: 'sub/gone.js' })).toEqual({ ok: false, reason: '"main" points at sub/gone.js, which does not exist' });
  });

  it('reads module before main, and main when module names no file', () => {
    expect(resolveEntry(fs, '/p', { module: 'lib.js', main: 'main.mjs' })).toEqual({ ok: true, file: '/p/lib.js' });
    expect(resolveEntry(fs, '/p', { module: './dir' })).toEqual({ ok: true, file: '/p/dir/index.js' });
    expect(resolveEntry(fs, '/p', { module: 'gone.js', main: 'main.mjs' })).toEqual({ ok: true, file: '/p/main.mjs' });
    expect(resolveEntry(fs, '/p', { module: 'gone.js' })).toEqual({ ok: true, file: '/p/index.js' });
    expect(resolveEntry(fs, '/p', { exports: './main.mjs', module: 'lib.js' })).toEqual({ ok: true, file: '/p/main.mjs' });
  });

  it('takes a JavaScript target as written when its TypeScript twin sits beside it, and an empty main as absent', () => {
    const both = memoryFileSystem({ '/r/index.js': '', '/r/index.ts': '', '/r/lib.js': '', '/r/lib.ts': '' });
    expect(resolveEntry(both, '/r', {})).toEqual({ ok: true, file: '/r/index.js' });
    expect(resolveEntry(both, '/r', { main: 'lib.js' })).toEqual({ ok: true, file: '/r/lib.js' });
    expect(resolveEntry(both, '/r', { exports: './lib.js' })).toEqual({ ok: true, file: '/r/lib.js' });
    // A project run from its sources: the `.js` target's TypeScript twin, alone.
    expect(resolveEntry(memoryFileSystem({ '/s/src/index.ts': '' }), '/s', { exports: './src/index.js' })).toEqual({ ok: true, file: '/s/src/index.ts' });
    expect(resolveEntry(fs, '/q', { main: '' })).toEqual({ ok: false, reason: 'neither "exports" nor "main" is set and index.js does not exist' });
  });

  it('never follows a target that leaves the package, and says where it pointed', () => {
    expect(resolveEntry(fs, '/p', { main: '../q/other.js' })).toEqual({
      ok: false,
      reason: '"main" points at ../q/other.js, outside the package',
      outside: '/q/other.js',
    });
    expect(resolveEntry(fs, '/p', {}, './../q/other.js')).toEqual({
      ok: false,
      reason: 'the subpath points at ./../q/other.js, outside the package',
      outside: '/q/other.js',
    });
  });
});
