/**
 * The small shared pieces: an analysis session (one cached file system, one store, one sink), message rendering, and
 * where each rule's docs page lives.
 */
import { describe, expect, it } from 'vitest';
import { createSession, DEFAULT_MAX_FILE_BYTES, docsPath, renderMessage, RULE_IDS, type FileSystem } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';

describe('createSession', () => {
  it('reads through one cached file system, with the size cap given', () => {
    const base = memoryFileSystem({ '/p/a.js': 'export const a = 1;\n', '/p/b.js': 'export const b = 22;\n' });
    const stats: string[] = [];
    const fs: FileSystem = { ...base, stat: (p) => (stats.push(p), base.stat(p)) };
    const session = createSession({ fs, maxFileBytes: 20 });
    expect(session.fs.stat('/p/a.js')).toEqual(session.fs.stat('/p/a.js'));
    expect(stats).toEqual(['/p/a.js']);
    expect(session.store.load('/p/a.js').problems).toEqual([]);
    expect(session.store.load('/p/b.js').problems.map((p) => p.ruleId)).toEqual(['fs/file-too-large']);
    expect(session.ownRoots).toEqual([]);
    expect(session.diagnostics.sorted()).toEqual([]);
  });

  it('defaults to the disk and a 1 MiB cap', () => {
    const session = createSession();
    expect(DEFAULT_MAX_FILE_BYTES).toBe(1024 * 1024);
    expect(session.store.maxFileBytes).toBe(DEFAULT_MAX_FILE_BYTES);
    expect(session.fs.stat('/').kind).toBe('directory');
  });
});

describe('renderMessage', () => {
  it('fills every placeholder, spaces inside the braces allowed, and leaves unknown ones as written', () => {
    expect(renderMessage('{{a}} and {{ b }} and {{a}}; {{c}}', { a: 'x', b: 'y' })).toBe('x and y and x; {{c}}');
    expect(renderMessage('{{a}}', undefined)).toBe('{{a}}');
    expect(renderMessage('{{a}}', { a: '$&' })).toBe('$&');
  });
});

describe('the rule registry', () => {
  it('lists every rule id sorted, each with its docs page under docs/rules', () => {
    expect(RULE_IDS).toEqual([...RULE_IDS].sort());
    expect(RULE_IDS).toContain('fs/unreadable');
    expect(docsPath('reexport/commonjs')).toBe('docs/rules/reexport/commonjs.md');
  });
});
