/**
 * The module store: each file read, parsed and walked once; whatever cannot be read, is too large or does not parse
 * becomes a finding at the file (never an exception); the visitors a session hook adds run in the same walk.
 */
import { describe, expect, it } from 'vitest';
import { ModuleStore, type FileSystem, type RuleVisitor } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';

/** A file system over `files` whose reads of `failing` paths throw the given error codes. */
function failingFs(files: Record<string, string>, failing: Record<string, string>): FileSystem {
  const base = memoryFileSystem(files);
  const fail = (p: string) => {
    if (failing[p]) throw Object.assign(new Error(`${failing[p]}: ${p}`), { code: failing[p] });
  };
  return { ...base, stat: (p) => (fail(p), base.stat(p)), readFile: (p) => (fail(p), base.readFile(p)) };
}

const brief = (store: ModuleStore, file: string) => {
  const { info, problems, missing } = store.load(file);
  return { parsed: info !== undefined, missing: missing === true, problems: problems.map((p) => `${p.ruleId} ${p.messageId} ${JSON.stringify(p.data)}`) };
};

describe('ModuleStore.load', () => {
  it('parses a file once and counts it', () => {
    const store = new ModuleStore(memoryFileSystem({ '/p/a.js': 'export const a = 1;\n' }));
    expect(store.has('/p/a.js')).toBe(false);
    const first = store.load('/p/a.js');
    expect(store.load('/p/a.js')).toBe(first);
    expect(store.has('/p/a.js')).toBe(true);
    expect(store.filesRead).toBe(1);
    expect(brief(store, '/p/a.js')).toEqual({ parsed: true, missing: false, problems: [] });
  });

  it('reports a folder as not a file, and a missing file as missing', () => {
    const store = new ModuleStore(memoryFileSystem({ '/p/dir/a.js': '' }));
    expect(brief(store, '/p/dir')).toEqual({ parsed: false, missing: true, problems: ['fs/unreadable notAFile {"file":"/p/dir"}'] });
    expect(brief(store, '/p/gone.js')).toEqual({ parsed: false, missing: true, problems: ['fs/unreadable file {"file":"/p/gone.js","code":"ENOENT"}'] });
    expect(store.filesRead).toBe(0);
  });

  it('tells missing (ENOENT, ENOTDIR) from unreadable (EACCES), and stays silent about a file outside the package (the walk reports it)', () => {
    const store = new ModuleStore(
      failingFs({ '/p/a.js': '', '/p/b.js': '', '/p/c.js': '' }, { '/p/a.js': 'ENOTDIR', '/p/b.js': 'EACCES', '/p/c.js': 'EOUTSIDE' }),
    );
    expect(brief(store, '/p/a.js')).toEqual({ parsed: false, missing: true, problems: ['fs/unreadable file {"file":"/p/a.js","code":"ENOTDIR"}'] });
    expect(brief(store, '/p/b.js')).toEqual({ parsed: false, missing: false, problems: ['fs/unreadable file {"file":"/p/b.js","code":"EACCES"}'] });
    expect(brief(store, '/p/c.js')).toEqual({ parsed: false, missing: true, problems: [] });
  });

  it('reads a file of exactly the size cap and refuses one byte more', () => {
    const store = new ModuleStore(memoryFileSystem({ '/p/ok.js': 'let a;\n', '/p/big.js': 'let ab;\n' }), 7);
    expect(brief(store, '/p/ok.js')).toEqual({ parsed: true, missing: false, problems: [] });
    expect(brief(store, '/p/big.js')).toEqual({
      parsed: false,
      missing: false,
      problems: ['fs/file-too-large tooLarge {"file":"/p/big.js","size":"8","max":"7"}'],
    });
  });

  it('lists a module’s unsupported forms in source order, whichever pass found them', () => {
    const store = new ModuleStore(memoryFileSystem({ '/p/a.js': "const a = require('x');\nexport * as ns from './y.js';\nconst b = import('./z.js');\n" }));
    expect(store.load('/p/a.js').info?.unsupported.map((u) => `${u.kind} ${u.position.line}`)).toEqual([
      'commonjs 1',
      'namespace-reexport 2',
      'dynamic-import 3',
    ]);
    const oneLine = new ModuleStore(memoryFileSystem({ '/p/b.js': "const a = require('x'); export * as ns from './y.js';\n" }));
    expect(oneLine.load('/p/b.js').info?.unsupported.map((u) => `${u.kind} ${u.position.column}`)).toEqual(['commonjs 11', 'namespace-reexport 25']);
  });

  it('finds each form whose word the text holds, however little else the file has, and forms spelled with escapes', () => {
    const files: Record<string, string> = {
      '/p/exports.js': 'exports.a = 1;\n',
      '/p/define.js': 'Object.defineProperty(exports, "a", { value: 1 });\n',
      '/p/import.js': "const m = import('./m.js');\n",
      '/p/require.js': "const m = require('./m.js');\n",
      '/p/escaped.js': "const m = req\\u0075ire('./m.js');\n",
      '/p/none.js': "export const a = f('exports', 1);\n",
    };
    const store = new ModuleStore(memoryFileSystem(files));
    const forms = Object.keys(files).map((file) => store.load(file).info?.unsupported.map((u) => `${u.kind} ${'what' in u ? u.what : u.source}`));
    expect(forms).toEqual([
      ['commonjs exports.a = …'],
      ['commonjs Object.defineProperty(exports, …)'],
      ['dynamic-import ./m.js'],
      ["commonjs require('./m.js')"],
      ["commonjs require('./m.js')"],
      [],
    ]);
  });

  it('finds import() with comments between the keyword and the parenthesis', () => {
    const store = new ModuleStore(
      memoryFileSystem({
        '/p/a.js': "const a = import /* lazy */ ('./a.js');\nconst b = import // later\n  ('./b.js');\nconst c = import /* one */ /* two */\n('./c.js');\n",
      }),
    );
    expect(store.load('/p/a.js').info?.unsupported.map((u) => `${u.kind} ${u.position.line}`)).toEqual([
      'dynamic-import 1',
      'dynamic-import 2',
      'dynamic-import 4',
    ]);
  });
});

describe('the session hook', () => {
  it('runs the hook’s visitors in the one walk of each file, asking for them once per file', () => {
    const seen: string[] = [];
    const asked: string[] = [];
    const store = new ModuleStore(memoryFileSystem({ '/p/a.js': 'f(1);\ng(2);\n' }));
    store.hook = { visitorsFor: (file) => (asked.push(file), [{ CallExpression: (p) => void seen.push((p.node.callee as { name: string }).name) }]) };
    store.load('/p/a.js');
    store.load('/p/a.js');
    expect(seen).toEqual(['f', 'g']);
    expect(asked).toEqual(['/p/a.js']);
  });

  it('gives the hook the facts the walk skips by: the text and language of a cleanly parsed file, none for a file with syntax errors', () => {
    const asked: unknown[] = [];
    const store = new ModuleStore(memoryFileSystem({ '/p/a.ts': 'f(1);\n', '/p/b.js': 'return 1;\n' }));
    store.hook = { visitorsFor: (file, _ast, source) => (asked.push([file, source]), []) };
    store.load('/p/a.ts');
    store.load('/p/b.js');
    store.revisit('/p/a.ts');
    store.revisit('/p/b.js');
    const clean = ['/p/a.ts', { text: 'f(1);\n', typescript: true }];
    expect(asked).toEqual([clean, ['/p/b.js', undefined], clean, ['/p/b.js', undefined]]);
  });

  it('turns a visitor that throws (as a too-deep tree does) into a finding at the file, keeping the module’s facts', () => {
    const store = new ModuleStore(memoryFileSystem({ '/p/a.js': 'export const a = f();\n' }));
    store.hook = {
      visitorsFor: () => [
        {
          CallExpression: () => {
            throw new RangeError('Maximum call stack size exceeded');
          },
        },
      ],
    };
    const loaded = store.load('/p/a.js');
    expect(loaded.problems.map((p) => `${p.ruleId} ${p.messageId} ${p.data.reason}`)).toEqual(['parse/syntax-error tooDeep Maximum call stack size exceeded']);
    expect([...(loaded.info?.exports.keys() ?? [])]).toEqual(['a']);
  });

  it('revisits a file loaded before the hook knew it: its visitors run once more, the cached facts stay', () => {
    const seen: string[] = [];
    const store = new ModuleStore(memoryFileSystem({ '/p/a.js': 'f(1);\n', '/p/broken.js': 'export const = ;\n' }));
    const before = store.load('/p/a.js');
    store.revisit('/p/gone.js');
    store.revisit('/p/a.js');
    store.hook = { visitorsFor: (file): RuleVisitor[] => (file.endsWith('a.js') ? [{ CallExpression: () => void seen.push(file) }] : []) };
    store.revisit('/p/a.js');
    store.revisit('/p/gone.js');
    store.revisit('/p/broken.js');
    expect(seen).toEqual(['/p/a.js']);
    expect(store.load('/p/a.js')).toBe(before);
  });
});
