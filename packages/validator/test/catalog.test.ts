/**
 * The rule catalog: every rule has its module at `src/rules/<id>.ts`, a docs page at `docs/rules/<id>.md`,
 * valid and invalid fixture packages, and a row in docs/validate-workflow-package.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRuleMetas, fileRules, projectRules } from '../src/index.js';
import { runFiles } from '../src/engine/run-files.js';
import type { ValidatorFs } from '../src/fs/confined-fs.js';
import type { Resolver } from '../src/graph/resolve.js';
import type { ValidatorDiagnostic } from '../src/types.js';
import { FIXTURES, REPO } from './helpers.js';

/** Engine findings without a fixture package: an unreadable file cannot be produced when tests run as root. */
const NO_FIXTURE = new Set(['fs/unreadable']);

describe.each(allRuleMetas.map((m) => ({ id: m.id, meta: m })))('$id', ({ id, meta }) => {
  it('has a docs page at docs/rules/<id>.md', () => {
    expect(meta.docs.path).toBe(`docs/rules/${id}.md`);
    const page = fs.readFileSync(path.join(REPO, meta.docs.path), 'utf8');
    expect(page.startsWith(`# ${id}\n`)).toBe(true);
  });

  it('has a message and a hint for each message id', () => {
    expect(Object.keys(meta.messages).length).toBeGreaterThan(0);
    expect(Object.keys(meta.hints).sort()).toEqual(Object.keys(meta.messages).sort());
  });

  it('is listed in docs/validate-workflow-package.md', () => {
    expect(fs.readFileSync(path.join(REPO, 'docs/validate-workflow-package.md'), 'utf8')).toContain(`[\`${id}\`](rules/${id}.md)`);
  });

});

describe('fixtures', () => {
  it.each(allRuleMetas.map((m) => m.id).filter((id) => !NO_FIXTURE.has(id)))('%s has valid and invalid fixture packages', (id) => {
    expect(fs.existsSync(path.join(FIXTURES, id, 'valid', 'package.json'))).toBe(true);
    expect(fs.existsSync(path.join(FIXTURES, id, 'invalid', 'package.json'))).toBe(true);
  });
});

describe('rule modules', () => {
  it.each([...fileRules, ...projectRules].map((r) => r.meta.id))('%s lives in src/rules/<id>.ts', (id) => {
    expect(fs.existsSync(path.join(REPO, 'packages/validator/src/rules', `${id}.ts`))).toBe(true);
  });

  it('ids are unique and shaped <category>/<name>', () => {
    const ids = allRuleMetas.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+\/[a-z-]+$/);
  });
});

describe('fs/unreadable', () => {
  it('is reported for a role file the file system refuses to read', () => {
    const file = '/pkg/hello/steps.js';
    const stubFs: ValidatorFs = {
      maxFileBytes: 1024,
      realpath: (p) => p,
      isFile: () => true,
      isDirectory: () => false,
      fingerprint: () => null,
      isAllowed: () => true,
      allow: () => {},
      readText: () => ({ ok: false, reason: 'unreadable' }),
      walk: () => ({ files: [file], escapes: [] }),
    };
    const resolver: Resolver = { resolve: () => ({ kind: 'unresolved' }), packageRootOf: () => '/pkg' };
    const found: ValidatorDiagnostic[] = [];
    runFiles({
      fs: stubFs,
      resolver,
      packages: [{ root: '/pkg', packageJsonPath: '/pkg/package.json', packageJsonText: '{}', packageJson: {}, files: [file], publishedFiles: [file], published: false }],
      rules: fileRules,
      classify: (f) => (f === file ? 'steps' : null),
      alreadyReported: () => false,
      report: (d) => found.push(d),
    });
    expect(found).toMatchObject([{ ruleId: 'fs/unreadable', file, line: 1, column: 1, severity: 'error', message: 'The file cannot be read (unreadable).' }]);
  });
});
