/**
 * The package facts discovery works out once per root and keeps on the session (package.json, entry, layout, file
 * list), which the validator reads instead of deriving them again.
 */
import { describe, expect, it } from 'vitest';
import { createSession, describePackage, Diagnostics, discover, packageFactsOf, type FileSystem } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';

const expose = { skein: { workflows: { expose: true } } };
const wf = (name: string) => `import { workflow } from '@skein/core';\nexport default workflow({ name: '${name}', fn: async () => 1 });\n`;

const files = {
  '/p/package.json': JSON.stringify({ name: 'proj', dependencies: { lib: '1.0.0' } }),
  '/p/a/workflow.ts': wf('a'),
  '/p/a/notes.md': 'notes',
  '/p/.cache/x.js': 'x',
  '/p/node_modules/lib/package.json': JSON.stringify({ name: 'lib', version: '1.2.3', main: 'dist/index.js', ...expose }),
  '/p/node_modules/lib/dist/index.js': "export { default as b } from './b/workflow.js';\n",
  '/p/node_modules/lib/dist/b/workflow.js': wf('b'),
  '/p/node_modules/lib/src/b/workflow.ts': wf('b'),
  '/p/node_modules/lib/src/index.ts': "export { default as b } from './b/workflow.js';\n",
  '/p/node_modules/lib/tsconfig.json': JSON.stringify({ compilerOptions: { rootDir: 'src', outDir: 'dist' } }),
};

describe('package facts on the session', () => {
  it('discover() records the root and each exposed package once: package.json with its text, entry, layout, files', async () => {
    const session = createSession({ fs: memoryFileSystem(files) });
    const manifest = await discover('/p', { session });
    expect(manifest.workflows.map((w) => w.name)).toEqual(['a', 'b']);
    expect([...session.packages.keys()]).toEqual(['/p', '/p/node_modules/lib']);

    const root = session.packages.get('/p')!;
    expect(root).toMatchObject({ root: '/p', manifest: '/p/package.json', json: { name: 'proj' }, published: false, entry: undefined });
    expect(root.text).toBe(files['/p/package.json']);
    // Every file of the root; node_modules and dot-folders are never listed.
    expect(root.files).toEqual(['/p/a/notes.md', '/p/a/workflow.ts', '/p/package.json']);

    const lib = session.packages.get('/p/node_modules/lib')!;
    expect(lib).toMatchObject({ published: true, entry: { ok: true, file: '/p/node_modules/lib/dist/index.js' }, layout: { judged: 'compiled' } });
    expect(lib.text).toBe(files['/p/node_modules/lib/package.json']);
    // The entry lies in the compiled output, so the sources are the unjudged side and are not listed.
    expect(lib.files).toEqual([
      '/p/node_modules/lib/dist/b/workflow.js',
      '/p/node_modules/lib/dist/index.js',
      '/p/node_modules/lib/package.json',
      '/p/node_modules/lib/tsconfig.json',
    ]);
  });

  it('keeps the facts of a root once worked out: whoever asks next gets the same, the first call decided', async () => {
    const session = createSession({ fs: memoryFileSystem(files) });
    await discover('/p', { session });
    const root = session.packages.get('/p')!;
    const lib = session.packages.get('/p/node_modules/lib')!;
    expect(packageFactsOf(session, '/p', true)).toBe(root);
    expect(root.published).toBe(false);
    expect(packageFactsOf(session, '/p/node_modules/lib', false, null)).toBe(lib);
    expect(lib.json).toMatchObject({ name: 'lib' });
    expect(session.packages.size).toBe(2);
  });

  it('works out and keeps the facts of a root discovery did not see, reading its package.json without a report', () => {
    const q = { '/q/package.json': JSON.stringify({ name: 'q', main: 'x.js', ...expose }), '/q/x.js': '', '/r/package.json': '{ not json', '/r/y.js': '' };
    const session = createSession({ fs: memoryFileSystem(q) });
    const facts = packageFactsOf(session, '/q', null);
    expect(facts).toMatchObject({ json: { name: 'q' }, text: q['/q/package.json'], published: true, entry: { ok: true, file: '/q/x.js' } });
    expect(facts.files).toEqual(['/q/package.json', '/q/x.js']);
    expect(session.packages.get('/q')).toBe(facts);
    // A package.json that cannot be parsed counts as `{}`; discovery reports it, not this.
    expect(packageFactsOf(session, '/r', null)).toMatchObject({
      json: {},
      text: '',
      published: false,
      entry: undefined,
      files: ['/r/package.json', '/r/y.js'],
    });
    expect(session.diagnostics.sorted()).toEqual([]);
  });

  it('takes the package.json as the caller read it, and none when the caller found none', () => {
    const session = createSession({ fs: memoryFileSystem({ '/s/package.json': JSON.stringify({ name: 'on-disk' }) }) });
    expect(packageFactsOf(session, '/s', null, null)).toMatchObject({ json: {}, text: '' });
    const other = createSession({ fs: memoryFileSystem({ '/s/package.json': JSON.stringify({ name: 'on-disk' }) }) });
    expect(packageFactsOf(other, '/s', null, { json: { name: 'given' }, text: '{"name":"given"}' })).toMatchObject({
      json: { name: 'given' },
      text: '{"name":"given"}',
    });
  });

  it('lists at most the cap of files besides convention files, which are always listed', () => {
    const fs = memoryFileSystem({ '/t/a.txt': '', '/t/b.txt': '', '/t/c.txt': '', '/t/d/workflow.ts': wf('d'), '/t/e.txt': '' });
    const listed = (maxFiles: number) => describePackage(fs, new Diagnostics(), '/t', null, false, maxFiles).files;
    expect(listed(2)).toEqual(['/t/a.txt', '/t/b.txt', '/t/d/workflow.ts']);
    expect(listed(3)).toEqual(['/t/a.txt', '/t/b.txt', '/t/c.txt', '/t/d/workflow.ts']);
    expect(listed(5)).toEqual(['/t/a.txt', '/t/b.txt', '/t/c.txt', '/t/d/workflow.ts', '/t/e.txt']);
  });

  it("records a package's symbolic links that lead out of it, never following them", async () => {
    const base = memoryFileSystem({ ...files, '/p/node_modules/lib/dist/escape.js': '', '/etc/secret.js': '' });
    const fs: FileSystem = {
      ...base,
      readdir: (p) =>
        p === '/p/node_modules/lib/dist' ? [...base.readdir(p).filter((e) => e.name !== 'escape.js'), { name: 'escape.js', kind: 'symlink' }] : base.readdir(p),
      realpath: (p) => (p === '/p/node_modules/lib/dist/escape.js' ? '/etc/secret.js' : base.realpath(p)),
    };
    const session = createSession({ fs });
    await discover('/p', { session });
    const lib = session.packages.get('/p/node_modules/lib')!;
    expect(lib.outside).toEqual([{ file: '/p/node_modules/lib/dist/escape.js', target: '/etc/secret.js' }]);
    expect(lib.files).not.toContain('/etc/secret.js');
  });
});
