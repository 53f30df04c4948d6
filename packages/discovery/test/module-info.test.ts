/**
 * The static facts one module yields (module-info.ts): imports, exports and what each is bound to, `export *`,
 * `workflow()` / `step()` / `evaluator()` definitions and wrapper factories with their static names and aliases
 * (package rules 1, 2 and 7), and the forms package rule 3 does not support (CommonJS, `require`, dynamic
 * `import()`, computed paths, `export * as ns`).
 */
import { describe, expect, it } from 'vitest';
import { mergeVisitors, parseSource, walk } from '../src/index.js';
import { analyzeModule, type Definition, type ModuleInfo, type UnsupportedForm } from '../src/module-info.js';
import { moduleFactsVisitors } from '../src/unsupported-forms.js';

function analyze(code: string, file = '/p/m.ts'): ModuleInfo {
  const { ast, errors } = parseSource(code, file);
  expect(errors).toEqual([]);
  return analyzeModule(file, ast!.program);
}

function unsupported(code: string, file = '/p/m.js'): UnsupportedForm[] {
  const { ast, errors } = parseSource(code, file);
  expect(errors).toEqual([]);
  const facts = { importSites: [], unsupported: [] as UnsupportedForm[] };
  const { visitors, finish } = moduleFactsVisitors(facts, undefined);
  walk(ast!, mergeVisitors(visitors));
  finish();
  return facts.unsupported;
}

/** A definition briefly: `callee calleeName name@line:col [aliases]`. */
function brief(d: Definition | undefined): string {
  if (!d) return 'none';
  const s = (x: Definition['name']) => (x.ok ? `'${x.value}'@${x.position.line}:${x.position.column}` : `?@${x.position.line}:${x.position.column}`);
  return `${d.callee} ${d.calleeName} ${s(d.name)} [${d.aliases.map(s).join(', ')}]`;
}

function exported(info: ModuleInfo, name: string): string {
  const b = info.exports.get(name);
  if (!b) return 'missing';
  switch (b.kind) {
    case 'definition':
      return `definition ${brief(b.definition)} @${b.position.line}:${b.position.column}`;
    case 'value':
      return `value [${b.references.map((r) => `${r.name}@${r.position.line}:${r.position.column}`).join(', ')}] @${b.position.line}:${b.position.column}`;
    case 'reexport':
      return `reexport ${b.imported} from ${b.source} @${b.position.line}:${b.position.column} source@${b.sourcePosition.line}:${b.sourcePosition.column}`;
    case 'local':
      return `local ${b.local} @${b.position.line}:${b.position.column}`;
  }
}

describe('imports', () => {
  it('records each import with its specifiers (default, namespace, named, string-named) and binds them as locals', () => {
    const info = analyze("import a, * as ns from './a.js';\nimport { b, c as d, 'e f' as g } from 'pkg';\n");
    expect(info.imports).toEqual([
      {
        source: './a.js',
        position: { line: 1, column: 1 },
        specifiers: [
          { local: 'a', imported: 'default', position: { line: 1, column: 8 } },
          { local: 'ns', imported: '*', position: { line: 1, column: 11 } },
        ],
      },
      {
        source: 'pkg',
        position: { line: 2, column: 1 },
        specifiers: [
          { local: 'b', imported: 'b', position: { line: 2, column: 10 } },
          { local: 'd', imported: 'c', position: { line: 2, column: 13 } },
          { local: 'g', imported: 'e f', position: { line: 2, column: 21 } },
        ],
      },
    ]);
    expect(info.locals.get('d')).toEqual({ kind: 'import', source: 'pkg', imported: 'c', position: { line: 2, column: 13 } });
    expect(info.locals.get('ns')).toEqual({ kind: 'import', source: './a.js', imported: '*', position: { line: 1, column: 11 } });
  });
});

describe('definitions', () => {
  const CORE = "import { workflow, step, evaluator as ev } from '@skein/core';\n";

  it('recognises workflow(), step() and a renamed evaluator() imported from @skein/core, with their static names', () => {
    const info = analyze(
      `${CORE}export const w = workflow({ name: 'w', fn: async (x) => x });\nexport const s = step({ name: "s" });\nexport const e = ev({ name: \`e\` });\n`,
    );
    expect(exported(info, 'w')).toBe("definition workflow workflow 'w'@2:35 [] @2:1");
    expect(exported(info, 's')).toBe("definition step step 's'@3:31 [] @3:1");
    expect(exported(info, 'e')).toBe("definition evaluator ev 'e'@4:29 [] @4:1");
  });

  it('recognises namespace members (core.workflow, core["step"]) and subpath imports, not other members', () => {
    const info = analyze(
      "import * as core from '@skein/core/authoring';\nexport const a = core.workflow({ name: 'a' });\nexport const b = core['step']({ name: 'b' });\nexport const c = core.other({ fn: 1 });\n",
    );
    expect(exported(info, 'a')).toBe("definition workflow core.workflow 'a'@2:40 [] @2:1");
    expect(exported(info, 'b')).toBe("definition step core.step 'b'@3:39 [] @3:1");
    expect(exported(info, 'c')).toBe('value [core@4:18] @4:1');
  });

  it('does not take workflow/step from another module, nor from a module whose name only starts like @skein/core', () => {
    const info = analyze(
      "import { workflow } from 'other';\nimport { step } from '@skein/corex';\nexport const a = workflow(config);\nexport const b = step(config);\n",
    );
    expect(exported(info, 'a')).toBe('value [workflow@3:18, config@3:27] @3:1');
    expect(exported(info, 'b')).toBe('value [step@4:18, config@4:23] @4:1');
  });

  it('reads names from top-level const strings and template literals without expressions, not from let or computed values', () => {
    const info = analyze(
      `${CORE}const N = 'from-const';\nexport const T = \`tpl\`;\nlet L = 'let';\nexport const a = workflow({ name: N });\nexport const b = workflow({ name: T });\nexport const c = workflow({ name: L });\nexport const d = workflow({ name: \`x\${N}\` });\nexport const e = workflow({ ['name']: 'computed-key' });\nexport const f = workflow({ [N]: 'not the name' });\n`,
    );
    expect(exported(info, 'a')).toBe("definition workflow workflow 'from-const'@5:35 [] @5:1");
    expect(exported(info, 'b')).toBe("definition workflow workflow 'tpl'@6:35 [] @6:1");
    expect(exported(info, 'c')).toBe('definition workflow workflow ?@7:35 [] @7:1');
    expect(exported(info, 'd')).toBe('definition workflow workflow ?@8:35 [] @8:1');
    expect(exported(info, 'e')).toBe("definition workflow workflow 'computed-key'@9:39 [] @9:1");
    expect(exported(info, 'f')).toBe('definition workflow workflow ?@10:27 [] @10:1');
    const computed = analyze(
      `${CORE}const C = pick();\nconst { D } = { D: 'd' };\nexport const g = workflow({ name: C });\nexport const h = workflow({ name: D });\n`,
    );
    expect(exported(computed, 'g')).toBe('definition workflow workflow ?@4:35 [] @4:1');
    expect(exported(computed, 'h')).toBe('definition workflow workflow ?@5:35 [] @5:1');
  });

  it('reads aliases of workflows (strings, spreads and holes are not static, a non-array is one bad alias), never of steps', () => {
    const info = analyze(
      `${CORE}export const a = workflow({ name: 'a', aliases: ['x', y, ...z, , 'w'] });\nexport const b = workflow({ name: 'b', aliases: list });\nexport const s = step({ name: 's', aliases: ['q'] });\n`,
    );
    expect(exported(info, 'a')).toBe("definition workflow workflow 'a'@2:35 ['x'@2:50, ?@2:55, ?@2:58, ?@2:49, 'w'@2:66] @2:1");
    expect(exported(info, 'b')).toBe("definition workflow workflow 'b'@3:35 [?@3:49] @3:1");
    expect(exported(info, 's')).toBe("definition step step 's'@4:31 [] @4:1");
  });

  it('sees through TypeScript `as`, `satisfies` and `!` around the call', () => {
    const info = analyze(
      `${CORE}export const a = workflow({ name: 'a' }) as Flow;\nexport const b = step({ name: 'b' }) satisfies Step;\nexport const c = step({ name: 'c' })!;\n`,
    );
    expect(exported(info, 'a')).toBe("definition workflow workflow 'a'@2:35 [] @2:1");
    expect(exported(info, 'b')).toBe("definition step step 'b'@3:31 [] @3:1");
    expect(exported(info, 'c')).toBe("definition step step 'c'@4:31 [] @4:1");
  });

  it('keeps a definition without an object literal, its name unreadable at the argument or the call', () => {
    const info = analyze(`${CORE}export const a = workflow(config);\nexport const b = workflow();\nexport const c = workflow({ fn: 1 });\n`);
    expect(exported(info, 'a')).toBe('definition workflow workflow ?@2:27 [] @2:1');
    expect(exported(info, 'b')).toBe('definition workflow workflow ?@3:18 [] @3:1');
    expect(exported(info, 'c')).toBe('definition workflow workflow ?@4:27 [] @4:1');
  });

  it('takes any call with an object literal holding a static name as a wrapper factory, with its aliases', () => {
    const info = analyze(
      "const NAME = 'v';\nexport default evalWorkflow({ name: 'x', aliases: ['y'] });\nexport const v = lib.verify({ name: NAME });\nexport const z = z.object({ name: z.string() });\nexport const n = make({ title: 'n' });\nexport const m = make({ name });\nexport const k = make(...args);\nexport const q = (() => make)()({ name: 'q' });\n",
      '/p/m.js',
    );
    expect(exported(info, 'default')).toBe("definition wrapper evalWorkflow 'x'@2:37 ['y'@2:52] @2:1");
    expect(exported(info, 'v')).toBe("definition wrapper lib.verify 'v'@3:37 [] @3:1");
    expect(exported(info, 'z')).toBe('value [z@4:18, z@4:35] @4:1');
    expect(exported(info, 'n')).toBe('value [make@5:18] @5:1');
    expect(exported(info, 'm')).toBe('value [make@6:18, name@6:25] @6:1');
    expect(exported(info, 'k')).toBe('value [make@7:18, args@7:26] @7:1');
    expect(exported(info, 'q')).toBe('value [make@8:25] @8:1');
  });
});

describe('exports', () => {
  const CORE = "import { workflow } from '@skein/core';\n";

  it('binds local exports to their definitions or values once every local is known, and re-exports to their source', () => {
    const info = analyze(
      `${CORE}export { later as renamed, plain, fn, Klass, bare, imported };\nimport imported from './i.js';\nconst later = workflow({ name: 'l' });\nconst plain = [a.b, c, { k: d }];\nfunction fn() {}\nclass Klass {}\nlet bare;\nexport { x as y, default as z } from './x.js';\nexport * from './star.js';\n`,
    );
    expect(exported(info, 'renamed')).toBe("definition workflow workflow 'l'@4:32 [] @2:10");
    expect(exported(info, 'plain')).toBe('value [a@5:16, c@5:21, d@5:29] @2:28');
    expect(exported(info, 'fn')).toBe('value [] @2:35');
    expect(exported(info, 'Klass')).toBe('value [] @2:39');
    expect(exported(info, 'bare')).toBe('value [] @2:46');
    expect(exported(info, 'imported')).toBe('local imported @2:52');
    expect(exported(info, 'y')).toBe('reexport x from ./x.js @9:10 source@9:38');
    expect(exported(info, 'z')).toBe('reexport default from ./x.js @9:18 source@9:38');
    expect(info.stars).toEqual([{ source: './star.js', position: { line: 10, column: 1 }, sourcePosition: { line: 10, column: 15 } }]);
    expect([...info.exports.keys()]).toEqual(['renamed', 'plain', 'fn', 'Klass', 'bare', 'imported', 'y', 'z']);
  });

  it('reads exported declarations (const, function, class), skipping destructuring', () => {
    const info = analyze(`${CORE}export const a = workflow({ name: 'a' }), b = 2;\nexport function f() {}\nexport class K {}\nexport const { d } = obj;\n`);
    expect(exported(info, 'a')).toBe("definition workflow workflow 'a'@2:35 [] @2:1");
    expect(exported(info, 'b')).toBe('value [] @2:1');
    expect(exported(info, 'f')).toBe('value [] @3:1');
    expect(exported(info, 'K')).toBe('value [] @4:1');
    expect([...info.exports.keys()]).toEqual(['a', 'b', 'f', 'K']);
  });

  it('records no export for a TypeScript interface or type alias (they hold no value at run time)', () => {
    const info = analyze(`${CORE}export interface Shape { a: string }\nexport type Id = string;\nexport const w = workflow({ name: 'w' });\n`);
    expect([...info.exports.keys()]).toEqual(['w']);
  });

  it('binds every kind of default export', () => {
    expect(exported(analyze(`${CORE}export default workflow({ name: 'd' });\n`), 'default')).toBe("definition workflow workflow 'd'@2:33 [] @2:1");
    expect(exported(analyze(`${CORE}const w = workflow({ name: 'w' });\nexport default w;\n`), 'default')).toBe(
      "definition workflow workflow 'w'@2:28 [] @3:1",
    );
    expect(exported(analyze('import w from "./w.js";\nexport default w;\n'), 'default')).toBe('local w @2:1');
    expect(exported(analyze('export default function () {}\n'), 'default')).toBe('value [] @1:1');
    expect(exported(analyze('export default class {}\n'), 'default')).toBe('value [] @1:1');
    // A declaration is a value without references, whatever names its body reads.
    expect(exported(analyze('export default function named(a) { return helper(a); }\n'), 'default')).toBe('value [] @1:1');
    expect(exported(analyze('export default class C extends Base { m() { return x; } }\n'), 'default')).toBe('value [] @1:1');
    // Non-computed members (also optional ones) are not references; a computed one is.
    expect(exported(analyze('export default obj?.prop + o.q + o[idx] + o?.[j];\n'), 'default')).toBe(
      'value [obj@1:16, o@1:28, o@1:34, idx@1:36, o@1:43, j@1:47] @1:1',
    );
    expect(exported(analyze('export default { greet, version: v, [k]: 1, m() {} };\n'), 'default')).toBe('value [greet@1:18, v@1:34, k@1:38] @1:1');
    expect(exported(analyze('export default [a, , b, ...c];\n'), 'default')).toBe('value [a@1:17, b@1:22, c@1:28] @1:1');
  });

  it('records `export * as ns` as an unsupported namespace re-export, not as an export', () => {
    const info = analyze("export * as ns from './all.js';\n");
    expect(info.unsupported).toEqual([{ kind: 'namespace-reexport', source: './all.js', exported: 'ns', position: { line: 1, column: 1 } }]);
    expect(info.exports.size).toBe(0);
    expect(info.stars).toEqual([]);
  });
});

describe('unsupported forms (package rule 3)', () => {
  it('reports CommonJS exports with what they assign and, for a require, its source', () => {
    expect(
      unsupported("module.exports = require('./a.js');\nexports.x = 1;\nmodule.exports.y = 2;\nexports['z'] = 3;\nexports[k] = 4;\nmodule['exports'] = 5;\n"),
    ).toEqual([
      { kind: 'commonjs', what: 'module.exports = …', position: { line: 1, column: 1 }, source: './a.js' },
      { kind: 'commonjs', what: 'exports.x = …', position: { line: 2, column: 1 }, binding: 'x' },
      { kind: 'commonjs', what: 'module.exports.y = …', position: { line: 3, column: 1 }, binding: 'y' },
      { kind: 'commonjs', what: 'exports.z = …', position: { line: 4, column: 1 }, binding: 'z' },
      { kind: 'commonjs', what: 'exports.[…] = …', position: { line: 5, column: 1 } },
      { kind: 'commonjs', what: 'module.exports = …', position: { line: 6, column: 1 } },
    ]);
  });

  it('reports a require of an exported binding with its source and binding', () => {
    expect(unsupported("exports.greet = require('./greet.js');\n")).toEqual([
      { kind: 'commonjs', what: 'exports.greet = …', position: { line: 1, column: 1 }, source: './greet.js', binding: 'greet' },
    ]);
  });

  it('ignores assignments to other objects and other properties', () => {
    expect(unsupported('other.exports = 1;\nmodule.id = 2;\nexports = 3;\nx = require;\nmodule.exports.x.y = 4;\nfoo.module.exports = 5;\n')).toEqual([]);
  });

  it("ignores a require bound in the file (a parameter or a local function is not Node's), as the validator's import sites do", () => {
    expect(
      unsupported(
        "function load(require) { return require('./a.js'); }\nfunction f() { function require(x) { return x; } return require('./b.js'); }\nrequire('./c.js');\n",
      ),
    ).toEqual([{ kind: 'commonjs', what: "require('./c.js')", position: { line: 3, column: 1 }, source: './c.js' }]);
  });

  it('reports require calls (static: commonjs, computed: computed path), once inside an export assignment', () => {
    expect(unsupported("const a = require('./a.js');\nconst b = require(name);\nmodule.exports = { c: require('./c.js') };\nfoo.require('./d.js');\n")).toEqual(
      [
        { kind: 'commonjs', what: "require('./a.js')", position: { line: 1, column: 11 }, source: './a.js' },
        { kind: 'computed-path', what: 'require()', position: { line: 2, column: 11 } },
        { kind: 'commonjs', what: 'module.exports = …', position: { line: 3, column: 1 } },
      ],
    );
  });

  it('reports a require after an export assignment (only a require inside one is part of it), and no call of another name', () => {
    expect(unsupported("module.exports = load('./a.js');\nconst b = require('./b.js');\nexports.c = obj.require('./c.js');\nload('./d.js');\n")).toEqual([
      { kind: 'commonjs', what: 'module.exports = …', position: { line: 1, column: 1 } },
      { kind: 'commonjs', what: "require('./b.js')", position: { line: 2, column: 11 }, source: './b.js' },
      { kind: 'commonjs', what: 'exports.c = …', position: { line: 3, column: 1 }, binding: 'c' },
    ]);
  });

  it('reports Object.defineProperty/assign/defineProperties on exports, not other Object calls or targets', () => {
    expect(
      unsupported(
        "Object.defineProperty(exports, 'a', { value: require('./a.js') });\nObject.assign(module.exports, {});\nObject['defineProperties'](exports, {});\nObject.freeze(exports);\nObject.assign(other, {});\nObject.assign();\nReflect.defineProperty(exports, 'b', {});\n",
      ),
    ).toEqual([
      { kind: 'commonjs', what: 'Object.defineProperty(exports, …)', position: { line: 1, column: 1 } },
      { kind: 'commonjs', what: 'Object.assign(exports, …)', position: { line: 2, column: 1 } },
      { kind: 'commonjs', what: 'Object.defineProperties(exports, …)', position: { line: 3, column: 1 } },
    ]);
  });

  it('reports dynamic import() with a static path, and a computed one as a computed path', () => {
    expect(unsupported("const a = import('./a.js');\nconst b = import(`./${x}.js`);\n")).toEqual([
      { kind: 'dynamic-import', source: './a.js', position: { line: 1, column: 11 } },
      { kind: 'computed-path', what: 'import()', position: { line: 2, column: 11 } },
    ]);
  });
});
