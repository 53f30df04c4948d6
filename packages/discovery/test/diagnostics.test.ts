/**
 * The findings sink: positions from Babel nodes, severity and package rule from the registry, duplicates dropped, and
 * the total order every report is printed in.
 */
import { describe, expect, it } from 'vitest';
import { compareDiagnostics, Diagnostics, positionOf, type Diagnostic } from '../src/index.js';

describe('positionOf', () => {
  it('turns a Babel start (0-based column) into a 1-based position', () => {
    expect(positionOf({ loc: { start: { line: 3, column: 4 } } })).toEqual({ line: 3, column: 5 });
  });

  it('answers 1:1 for a missing node, a node without a location and a null location', () => {
    expect(positionOf(undefined)).toEqual({ line: 1, column: 1 });
    expect(positionOf(null)).toEqual({ line: 1, column: 1 });
    expect(positionOf({})).toEqual({ line: 1, column: 1 });
    expect(positionOf({ loc: null })).toEqual({ line: 1, column: 1 });
  });
});

describe('Diagnostics', () => {
  it('takes severity and package rule from the registry, and leaves out a package rule the registry does not name', () => {
    const sink = new Diagnostics();
    sink.report('package/invalid-json', 'syntax', '/p/package.json', { line: 2, column: 3 }, { file: '/p/package.json', reason: 'x' });
    sink.report('parse/syntax-error', 'syntax', '/p/a.js', undefined, { file: '/p/a.js', reason: 'Unexpected token' });
    const [json, syntax] = sink.sorted().sort((a, b) => a.ruleId.localeCompare(b.ruleId));
    expect(json).toMatchObject({ ruleId: 'package/invalid-json', severity: 'warning', packageRule: 4, line: 2, column: 3 });
    expect(syntax).toMatchObject({ ruleId: 'parse/syntax-error', severity: 'error', line: 1, column: 1 });
    expect(Object.keys(syntax as Diagnostic)).not.toContain('packageRule');
  });

  it('drops a finding reported twice at the same place with the same message', () => {
    const sink = new Diagnostics();
    for (let i = 0; i < 2; i++) sink.report('parse/syntax-error', 'syntax', '/p/a.js', { line: 1, column: 2 }, { file: '/p/a.js', reason: 'r' });
    sink.report('parse/syntax-error', 'syntax', '/p/a.js', { line: 1, column: 3 }, { file: '/p/a.js', reason: 'r' });
    expect(sink.sorted().map((d) => d.column)).toEqual([2, 3]);
  });

  it('sorts by file, line, column, rule id and message, columns compared as numbers', () => {
    const sink = new Diagnostics();
    const at = (file: string, line: number, column: number, reason = 'r') =>
      sink.report('parse/syntax-error', 'syntax', file, { line, column }, { file, reason });
    at('/p/b.js', 1, 1);
    at('/p/a.js', 2, 1);
    at('/p/a.js', 1, 10);
    at('/p/a.js', 1, 2, 'second');
    at('/p/a.js', 1, 2, 'first');
    sink.report('fs/file-too-large', 'tooLarge', '/p/a.js', { line: 1, column: 2 }, { file: '/p/a.js', size: '2', max: '1' });
    expect(sink.sorted().map((d) => `${d.file}:${d.line}:${d.column} ${d.ruleId} ${d.data?.reason ?? ''}`)).toEqual([
      '/p/a.js:1:2 fs/file-too-large ',
      '/p/a.js:1:2 parse/syntax-error first',
      '/p/a.js:1:2 parse/syntax-error second',
      '/p/a.js:1:10 parse/syntax-error r',
      '/p/a.js:2:1 parse/syntax-error r',
      '/p/b.js:1:1 parse/syntax-error r',
    ]);
  });

  it('compareDiagnostics is a total order: equal findings compare 0, and swapping the two flips the sign', () => {
    const base: Diagnostic = { ruleId: 'parse/syntax-error', severity: 'error', file: '/p/a.js', line: 1, column: 9, message: 'm' };
    const later: Diagnostic = { ...base, column: 10 };
    expect(compareDiagnostics(base, { ...base })).toBe(0);
    expect(compareDiagnostics(base, later)).toBeLessThan(0);
    expect(compareDiagnostics(later, base)).toBeGreaterThan(0);
  });
});
