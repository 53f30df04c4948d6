/**
 * The one parser call (`parseSource`): source type and syntax by extension.
 */
import { describe, expect, it } from 'vitest';
import { parseSource } from '../src/index.js';

const errors = (text: string, file: string) => parseSource(text, file).errors.map((e) => `${e.position.line}:${e.position.column} ${e.message}`);

describe('parseSource', () => {
  it('parses .cjs and .cts as CommonJS: require, exports and a top-level return', () => {
    const cjs = "const { step } = require('@skein/core');\nexports.a = step({ name: 'a' });\nif (!exports.a) return;\n";
    expect(errors(cjs, '/p/lib/util.cjs')).toEqual([]);
    expect(errors(`${cjs}const n: number = 1;\n`, '/p/lib/util.cts')).toEqual([]);
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
});
