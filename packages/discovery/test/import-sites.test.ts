/**
 * The one import-site collector (import-sites.ts): every `import`, `export … from`, `import()` and global `require()`
 * of a file, once, with its kind, its specifier (null when not a static string) and 1-based positions, stored with the
 * module's facts by the store's single traversal.
 */
import { describe, expect, it } from 'vitest';
import { importCollector, isGlobalRequireCall, isRequireCall, type ImportSite } from '../src/import-sites.js';
import { mergeVisitors, parseSource, walk } from '../src/index.js';
import { ModuleStore } from '../src/store.js';
import { memoryFileSystem } from './memfs.js';

function sites(code: string, file = '/p/m.ts', withText = false): ImportSite[] {
  const { ast, errors } = parseSource(code, file);
  expect(errors).toEqual([]);
  const out: ImportSite[] = [];
  walk(ast!, mergeVisitors([importCollector(out)], withText ? { text: code, typescript: file.endsWith('.ts') } : undefined));
  return out;
}

/** A site briefly: `kind specifier@line:column (at line:column, offset)`. */
function brief(s: ImportSite): string {
  return `${s.kind} ${s.specifier ?? 'null'}@${s.line}:${s.column} (${s.position.line}:${s.position.column}, ${s.start})`;
}

describe('importCollector', () => {
  it('records static imports and re-exports with the specifier’s position, skipping type-only ones', () => {
    const code = [
      "import a from './a.js';",
      "import type { T } from './t.js';",
      "import typeof U from './u.js';",
      "export { b } from './b.js';",
      "export type { V } from './v.js';",
      "export * from './c.js';",
      "export type * from './w.js';",
      "export * as ns from './d.js';",
      'export { a };',
      'export const x = 1;',
    ].join('\n');
    expect(sites(code).map(brief)).toEqual([
      'import ./a.js@1:15 (1:1, 0)',
      'export ./b.js@4:19 (4:1, 88)',
      'export ./c.js@6:15 (6:1, 149)',
      'export ./d.js@8:21 (8:1, 202)',
    ]);
  });

  it('records an import with inline type specifiers beside values (it still loads the module)', () => {
    expect(sites("import { type A, b } from './x.js';\n").map(brief)).toEqual(['import ./x.js@1:27 (1:1, 0)']);
  });

  it('records dynamic imports with a static specifier (string or plain template) and computed ones with null', () => {
    const code = "await import('./a.js');\nawait import(`./b.js`);\nawait import(`./${x}.js`);\nawait import(name);\nawait import('./c.js', { with: {} });\n";
    expect(sites(code, '/p/m.mjs').map(brief)).toEqual([
      'dynamic-import ./a.js@1:14 (1:7, 6)',
      'dynamic-import ./b.js@2:14 (2:7, 30)',
      'dynamic-import null@3:7 (3:7, 54)',
      'dynamic-import null@4:7 (4:7, 81)',
      'dynamic-import ./c.js@5:14 (5:7, 101)',
    ]);
  });

  it('records calls of the global require with any arguments, and no require bound in the file or called as a member', () => {
    const code = [
      "const a = require('./a.js');",
      'const b = require(name);',
      'require();',
      "require('./c.js', extra);",
      'require(`./d.js`);',
      "obj.require('./e.js');",
      "function load(require) { return require('./f.js'); }",
      "function g() { function require(x) { return x; } return require('./g.js'); }",
      "new require('./h.js');",
    ].join('\n');
    expect(sites(code, '/p/m.cjs').map(brief)).toEqual([
      'require ./a.js@1:19 (1:11, 10)',
      'require null@2:11 (2:11, 39)',
      'require null@3:1 (3:1, 54)',
      'require ./c.js@4:9 (4:1, 65)',
      'require ./d.js@5:9 (5:1, 91)',
    ]);
  });

  it('finds the same sites inside functions whether the walk is given the text or not, and none when the words are absent', () => {
    const code = "export function f() { return import('./a.js'); }\nexport const g = () => require('./b.js');\n";
    expect(sites(code, '/p/m.js', true)).toEqual(sites(code, '/p/m.js'));
    expect(sites(code, '/p/m.js').map((s) => s.kind)).toEqual(['dynamic-import', 'require']);
    expect(sites('export function f() { return 1; }\n', '/p/m.js', true)).toEqual([]);
  });
});

describe('isGlobalRequireCall and isRequireCall', () => {
  it('tell a call of the global require (with one string argument) from any other call or `new`', () => {
    const code = [
      "require('./a.js');",
      'require(x);',
      "require('./a.js', 1);",
      'require();',
      'require(...names);',
      "obj.require('./a.js');",
      "load('./a.js');",
      "new require('./a.js');",
      "function f(require) { require('./b.js'); }",
    ].join('\n');
    const { ast } = parseSource(code, '/p/m.cjs');
    const answers: string[] = [];
    const record = (path: Parameters<typeof isGlobalRequireCall>[0]) =>
      answers.push(`${path.node.loc?.start.line}: ${isGlobalRequireCall(path)} ${isRequireCall(path)}`);
    walk(ast!, mergeVisitors([{ CallExpression: record, NewExpression: record }]));
    expect(answers).toEqual([
      '1: true true',
      '2: true false',
      '3: true false',
      '4: true false',
      '5: true false',
      '6: false false',
      '7: false false',
      '8: false false',
      '9: false false',
    ]);
  });
});

describe('the store records each file’s import sites once, with its facts', () => {
  it('fills ModuleInfo.importSites in source order and reads the require and import() forms from them', () => {
    const store = new ModuleStore(
      memoryFileSystem({
        '/p/m.js': "import a from './a.js';\nconst b = require('./b.js');\nmodule.exports = require('./c.js');\nimport('./d.js');\nrequire(x);\n",
      }),
    );
    const info = store.load('/p/m.js').info!;
    expect(info.importSites.map(brief)).toEqual([
      'import ./a.js@1:15 (1:1, 0)',
      'require ./b.js@2:19 (2:11, 34)',
      'require ./c.js@3:26 (3:18, 70)',
      'dynamic-import ./d.js@4:8 (4:1, 89)',
      'require null@5:1 (5:1, 107)',
    ]);
    expect(info.unsupported).toEqual([
      { kind: 'commonjs', what: "require('./b.js')", position: { line: 2, column: 11 }, source: './b.js' },
      { kind: 'commonjs', what: 'module.exports = …', position: { line: 3, column: 1 }, source: './c.js' },
      { kind: 'dynamic-import', source: './d.js', position: { line: 4, column: 1 } },
      { kind: 'computed-path', what: 'require()', position: { line: 5, column: 1 } },
    ]);
    // Loading again reads the cache: the sites are not collected twice.
    expect(store.load('/p/m.js').info!.importSites).toHaveLength(5);
  });
});
