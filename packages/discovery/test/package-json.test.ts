/** The one package.json reader (`readPackageJson`): what it returns for each way a package.json can be. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { confineFileSystem, nodeFileSystem, readPackageJson } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { tempProject } from './tmp.js';

describe('readPackageJson', () => {
  const fs = memoryFileSystem(
    { '/ok/package.json': '{ "name": "ok" }\n', '/bad/package.json': '{ "name": ', '/array/package.json': '[1]', '/locked/package.json': '{}' },
    ['/locked/package.json'],
  );

  it('parses an object and keeps its text', () => {
    expect(readPackageJson(fs, '/ok')).toEqual({ ok: true, file: '/ok/package.json', json: { name: 'ok' }, text: '{ "name": "ok" }\n' });
  });

  it('tells a missing file from an unreadable one, with the error code', () => {
    expect(readPackageJson(fs, '/none')).toEqual({ ok: false, file: '/none/package.json', problem: 'missing', code: 'ENOENT' });
    expect(readPackageJson(fs, '/locked')).toEqual({ ok: false, file: '/locked/package.json', problem: 'unreadable', code: 'EACCES' });
  });

  it('calls a package.json that leads outside the confined root missing', () => {
    const t = tempProject({ 'other/package.json': '{}' }, { 'pkg/package.json': '../other/package.json' });
    try {
      const pkg = join(t.root, 'pkg');
      expect(readPackageJson(confineFileSystem(nodeFileSystem, [pkg]), pkg)).toEqual({
        ok: false,
        file: join(pkg, 'package.json'),
        problem: 'missing',
        code: 'EOUTSIDE',
      });
    } finally {
      t.cleanup();
    }
  });

  it('reports text that is not JSON, or not a JSON object, as a syntax problem with the parser’s message', () => {
    expect(readPackageJson(fs, '/bad')).toMatchObject({ ok: false, problem: 'syntax', text: '{ "name": ', message: expect.stringContaining('JSON') });
    expect(readPackageJson(fs, '/array')).toEqual({
      ok: false,
      file: '/array/package.json',
      problem: 'syntax',
      text: '[1]',
      message: 'the top-level value is not an object',
    });
  });
});
