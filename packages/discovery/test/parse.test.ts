/**
 * The one parser call (`parseSource`): source type and syntax by extension.
 */
import { describe, expect, it } from 'vitest';
import { isTypeScriptFile, parseSource } from '../src/index.js';

const errors = (text: string, file: string) => parseSource(text, file).errors.map((e) => `${e.position.line}:${e.position.column} ${e.message}`);

describe('parseSource', () => {
  it('parses .cjs and .cts as CommonJS: require, exports and a top-level return', () => {
    const cjs = "const { step } = require('@skein/core');\nexports.a = step({ name: 'a' });\nif (!exports.a) return;\n";
    expect(errors(cjs, '/p/lib/util.cjs')).toEqual([]);
    expect(errors(`${cjs}const n: number = 1;\n`, '/p/lib/util.cts')).toEqual([]);
  });

  it('accepts import and export in .cts (TypeScript compiles them to require), never in .cjs', () => {
    const esm = "const path = require('node:path');\nimport { step } from '@skein/core';\nexport function helper(s: string) {\n  return path.basename(s);\n}\n";
    expect(errors(esm, '/p/lib/util.cts')).toEqual([]);
    expect(parseSource(esm, '/p/lib/util.cts').ast?.program.sourceType).toBe('module');
    expect(errors('export const a = 1;\n', '/p/lib/util.cjs')).toEqual([`1:1 'import' and 'export' may appear only with 'sourceType: "module"'`]);
  });

  it('parses .js and .mjs as ES modules, where a top-level return is a syntax error', () => {
    expect(errors('export const a = 1;\n', '/p/a.js')).toEqual([]);
    expect(errors('return 1;\n', '/p/a.mjs')).toEqual(["1:1 'return' outside of function"]);
    expect(parseSource('export {};', '/p/a.js').ast?.program.sourceType).toBe('module');
  });

  it('parses TypeScript only in .ts, .mts, .cts and .tsx files, and JSX only in .jsx and .tsx', () => {
    expect(errors('const a: number = 1;\n', '/p/a.ts')).toEqual([]);
    expect(errors('const a: number = 1;\n', '/p/a.js')).not.toEqual([]);
    expect(errors('const a = <div />;\n', '/p/a.jsx')).toEqual([]);
    expect(errors('const a = <div />;\n', '/p/a.tsx')).toEqual([]);
    expect(errors('const a = <div />;\n', '/p/a.js')).not.toEqual([]);
  });

  it('accepts decorators and enums in TypeScript', () => {
    expect(errors('@sealed\nclass A { @log m() {} }\nenum E { A = 1 }\n', '/p/a.ts')).toEqual([]);
    expect(errors('@sealed\nclass A {}\nconst b: number = <div />;\n', '/p/a.tsx')).toEqual([]);
    expect(errors("class A {\n  @tracked accessor label = 'x';\n  static accessor count = 0;\n}\n", '/p/a.ts')).toEqual([]);
    expect(errors('\n'.repeat(11) + 'let b = 1;\nlet b = 2;\n', '/p/a.js')).toEqual(["13:5 Identifier 'b' has already been declared"]);
    const late = parseSource('\n'.repeat(11) + 'const x = 1; const = ;\n', '/p/a.js');
    expect(late.errors.map((e) => `${e.position.line}:${e.position.column} ${e.message}`)).toEqual(['12:20 Unexpected token']);
  });

  it('gives each error its 1-based position and Babel’s message without the trailing "(line:column)" and period', () => {
    expect(errors('let a;\nlet a;\n', '/p/a.js')).toEqual(["2:5 Identifier 'a' has already been declared"]);
    const fatal = parseSource('const = ;\n', '/p/a.js');
    expect(fatal.ast).toBeUndefined();
    expect(fatal.errors.map((e) => `${e.position.line}:${e.position.column} ${e.message}`)).toEqual(['1:7 Unexpected token']);
  });

  it('knows TypeScript files by extension, declarations included', () => {
    expect(['a.ts', 'a.mts', 'a.cts', 'a.tsx', 'a.d.ts', '/p/x.d.mts'].map(isTypeScriptFile)).toEqual([true, true, true, true, true, true]);
    expect(['a.js', 'a.mjs', 'a.jsx', 'a.ts.bak', 'ts', 'a.tsx.map'].map(isTypeScriptFile)).toEqual([false, false, false, false, false, false]);
  });
});
