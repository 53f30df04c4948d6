import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectMismatchError, resolveProjectIdentity } from '../../src/deploy/project-identity.js';
import { WorkerStartupError } from '../../src/check/errors.js';

const root = mkdtempSync(path.join(tmpdir(), 'skein-identity-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project folder `name` holding `pkg` as its package.json (a string is written as is; undefined: no file). */
function projectDir(name: string, pkg?: unknown): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  if (pkg !== undefined) writeFileSync(path.join(dir, 'package.json'), typeof pkg === 'string' ? pkg : JSON.stringify(pkg));
  return dir;
}

describe('resolveProjectIdentity', () => {
  it("is package.json's name, or SKEIN_PROJECT when an operator sets one", () => {
    const dir = projectDir('named', { name: '@acme/shop-flows', version: '1.0.0' });
    expect(resolveProjectIdentity(dir)).toEqual({ project: '@acme/shop-flows', source: 'package.json' });
    expect(resolveProjectIdentity(dir, ' shop ')).toEqual({ project: 'shop', source: 'SKEIN_PROJECT' });
    expect(resolveProjectIdentity(dir, '')).toEqual({ project: '@acme/shop-flows', source: 'package.json' });
  });

  it("falls back to the folder's name with a warning that says to set a name, for a package.json without one, a malformed one or none", () => {
    for (const [name, pkg] of [
      ['unnamed', { private: true }],
      ['blank-name', { name: '  ' }],
      ['not-json', '{ name: '],
      ['no-package-json', undefined],
    ] as const) {
      const identity = resolveProjectIdentity(projectDir(name, pkg));
      expect(identity.project, name).toBe(name);
      expect(identity.source).toBe('folder');
      expect(identity.warning).toMatch(/no package\.json "name".*set "name" in package\.json \(or SKEIN_PROJECT\)/);
    }
  });
});

describe('ProjectMismatchError', () => {
  it('is one line naming both projects, the catalog and both remedies, and a startup error of the worker', () => {
    const err = new ProjectMismatchError({ catalog: 'main', project: 'mine', currentProject: 'theirs', currentBuildId: 'b0', buildId: 'b1' });
    expect(err).toBeInstanceOf(WorkerStartupError);
    expect(err.message).not.toContain('\n');
    expect(err.message).toContain('catalog "main" is served by project "theirs" (build b0)');
    expect(err.message).toContain('project "mine" (build b1)');
    expect(err.message).toContain('SKEIN_CATALOG=<name>');
    expect(err.message).toContain('skein deploy promote b1 --catalog main --allow-project-change');
  });
});
