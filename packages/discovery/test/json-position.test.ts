import { describe, expect, it } from 'vitest';
import { jsonErrorPosition, jsonKeyPosition, keyPosition, positionAt } from '../src/json-position.js';

const pkg = [
  '{',
  '  "name": "flows",',
  '  "description": "set \\"expose\\" and list \\"dependencies\\": {}",',
  '  "skein": { "dependencies": { "zod": "1" }, "workflows": { "expose": "true" } },',
  '  "dependencies": {',
  '    "zod": "^4.0.0",',
  '    "@skein/core": "^0.1.0"',
  '  }',
  '}',
].join('\n');

describe('positions inside JSON text', () => {
  it('positionAt counts 1-based lines and columns, clamping past the end', () => {
    expect(positionAt('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(positionAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(positionAt('ab\n', 3)).toEqual({ line: 2, column: 1 });
    // The newline itself still belongs to its line.
    expect(positionAt('ab\ncd', 2)).toEqual({ line: 1, column: 3 });
  });

  it('keyPosition finds the first property of that name in text order, never a string inside a value', () => {
    expect(keyPosition(pkg, 'expose')).toEqual({ line: 4, column: 61 });
    expect(keyPosition(pkg, 'dependencies')).toEqual({ line: 4, column: 14 });
    expect(keyPosition(pkg, 'name')).toEqual({ line: 2, column: 3 });
    expect(keyPosition(pkg, 'missing')).toBeUndefined();
  });

  it('jsonKeyPosition looks in the top-level section only, falling back to the section, then to 1:1', () => {
    expect(jsonKeyPosition(pkg, 'dependencies', '@skein/core')).toEqual({ line: 7, column: 5 });
    expect(jsonKeyPosition(pkg, 'dependencies', 'zod')).toEqual({ line: 6, column: 5 });
    expect(jsonKeyPosition(pkg, 'dependencies', 'absent')).toEqual({ line: 5, column: 3 });
    expect(jsonKeyPosition(pkg, 'dependencies')).toEqual({ line: 5, column: 3 });
    expect(jsonKeyPosition(pkg, 'peerDependencies', 'zod')).toEqual({ line: 1, column: 1 });
    expect(jsonKeyPosition('not json', 'dependencies')).toEqual({ line: 1, column: 1 });
  });

  it("jsonErrorPosition reads V8's line/column or offset forms of a JSON.parse error", () => {
    const text = '{\n  "a": 1,\n}';
    let message = '';
    try {
      JSON.parse(text);
    } catch (err) {
      message = (err as Error).message;
    }
    const at = jsonErrorPosition(text, message);
    expect(at?.line).toBe(3);
    expect(jsonErrorPosition('{\n"a" 1}', 'Unexpected number in JSON at position 6')).toEqual({ line: 2, column: 5 });
    expect(jsonErrorPosition(text, 'Expected property name (line 2 column 9)')).toEqual({ line: 2, column: 9 });
    expect(jsonErrorPosition(text, 'Bad control character in string literal (line 12 column 34)')).toEqual({ line: 12, column: 34 });
    const long = `{\n${' '.repeat(120)}x}`;
    expect(jsonErrorPosition(long, 'Unexpected token x at position 122')).toEqual({ line: 2, column: 121 });
    expect(jsonErrorPosition(text, 'Unexpected end of input')).toBeUndefined();
  });
});
