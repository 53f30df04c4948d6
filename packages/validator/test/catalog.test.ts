/**
 * The rule catalog: every rule has its module at `src/rules/<id>.ts`, a docs page at `docs/rules/<id>.md`,
 * valid and invalid fixture packages, and a row in docs/validate-workflow-package.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRuleMetas, fileRules, projectRules } from '../src/index.js';
import { discover, docsPath, RULES } from '@skein/discovery';
import { memoryFileSystem } from '../../discovery/test/memfs.js';
import { FIXTURES, REPO } from './helpers.js';

/** Engine findings without a fixture package: an unreadable file cannot be produced when tests run as root. */
const NO_FIXTURE = new Set(['fs/unreadable']);

/** The validator's own rules (each defined in its rule file); the core's rules are catalogued by discovery's own tests. */
const OWN = allRuleMetas.filter((m) => !(m.id in RULES));

describe.each(OWN.map((m) => ({ id: m.id, meta: m })))('$id', ({ id, meta }) => {
  it('has a docs page at docs/rules/<id>.md with its severity, what, why, bad and good', () => {
    const page = fs.readFileSync(path.join(REPO, docsPath(id)), 'utf8');
    expect(page.startsWith(`# ${id}\n`)).toBe(true);
    expect(page).toContain(`- Severity: **${meta.severity}**`);
    for (const section of ['## What it catches', '## Why', '## Bad', '## Good']) expect(page).toContain(section);
  });

  it('has a description, and a message and a hint for each message id', () => {
    expect(meta.docs.description.length).toBeGreaterThan(10);
    expect(Object.keys(meta.messages).length).toBeGreaterThan(0);
    for (const template of Object.values(meta.messages)) expect(template.hint?.length ?? 0).toBeGreaterThan(0);
  });

  it('is listed in docs/validate-workflow-package.md', () => {
    expect(fs.readFileSync(path.join(REPO, 'docs/validate-workflow-package.md'), 'utf8')).toContain(`[\`${id}\`](rules/${id}.md)`);
  });
});

describe('fixtures', () => {
  it.each(OWN.map((m) => m.id).filter((id) => !NO_FIXTURE.has(id)))('%s has valid and invalid fixture packages', (id) => {
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
  it('is reported, once, for a role file the file system refuses to read', async () => {
    const fsys = memoryFileSystem(
      {
        '/pkg/package.json': '{"name":"pkg"}',
        '/pkg/hello/workflow.js': "import { workflow } from '@skein/core';\nexport default workflow({ name: 'hello', fn: async () => 1 });\n",
        '/pkg/hello/steps.js': '',
      },
      ['/pkg/hello/steps.js'],
    );
    const m = await discover('/pkg', { fs: fsys, ceiling: '/pkg' });
    expect(m.diagnostics.filter((d) => d.ruleId === 'fs/unreadable')).toMatchObject([
      { ruleId: 'fs/unreadable', file: '/pkg/hello/steps.js', line: 1, column: 1, severity: 'error', message: 'Cannot read /pkg/hello/steps.js (EACCES).' },
    ]);
  });
});
