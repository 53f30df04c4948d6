/**
 * Golden records: every fixture project or package under `fixtures/` (each directory with a package.json outside
 * `node_modules`) is run through the public entry points, `discover()` and `validate()`, and the result is compared
 * with a committed file under `test/golden/` (the fixture's path, `.json`). A record holds every finding (rule,
 * severity, file relative to the fixture, line, column, message, hint, package rule) and what `discover()` registered
 * (hermetically, with a `ceiling`), so a change of severity, position, wording or registration shows up as a diff.
 *
 * A deliberate change is recorded with `npx vitest run --project unit packages/validator/test/golden.test.ts -u`
 * and reviewed in the diff; a new fixture gets its record the same way (on CI a missing record fails).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { discover, RULES, type Diagnostic, type Manifest } from '@skein/discovery';
import { allRuleMetas, loadBaseline, validate, type ValidateOptions } from '@skein/validator';
import { describe, expect, it } from 'vitest';
import { discoverBounded, validateBounded } from './bounded.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = fs.realpathSync(path.resolve(HERE, '../../..'));
const FIXTURES = path.join(REPO, 'fixtures');
const GOLDEN = path.join(HERE, 'golden');

/** Fixtures that need an option to show their findings (a size cap below their big file). */
const OPTIONS: Record<string, ValidateOptions> = {
  'discovery/robustness': { maxFileBytes: 3000 },
  'validator/fs/file-too-large/invalid': { maxFileBytes: 4096 },
  'validator/fs/file-too-large/valid': { maxFileBytes: 4096 },
};

/**
 * Fixtures validated against a baseline (`--baseline`): the versioning rules' valid and invalid projects, each
 * compared with the `baseline/` project beside it.
 */
const BASELINES: Record<string, string> = Object.fromEntries(
  ['incompatible-change', 'unprovable-change'].flatMap((rule) =>
    ['valid', 'invalid'].map((v) => [`validator/versioning/${rule}/${v}`, `validator/versioning/${rule}/baseline`]),
  ),
);

/** Fixtures with cycles: run time-bounded in a child process (bounded.ts), so a cycle that is not cut fails instead of hanging. */
const CYCLIC = new Set(['discovery/import-cycle', 'discovery/reexport-cycle']);

/** Every directory under `fixtures/` holding a package.json, outside `node_modules`, as paths relative to `fixtures/`. */
function fixtureRoots(dir = FIXTURES): string[] {
  const out: string[] = [];
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  if (dir !== FIXTURES && entries.some((e) => e.isFile() && e.name === 'package.json')) out.push(path.relative(FIXTURES, dir));
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) out.push(...fixtureRoots(path.join(dir, e.name)));
  }
  return out;
}

/** The package.json `name` of a fixture root. */
function readName(root: string): string | null {
  return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name?: string }).name ?? null;
}

/** Replaces the repository's absolute path in text, so records do not depend on where the checkout is. */
function portable(text: string): string {
  return text.split(REPO).join('<repo>');
}

/** A finding as recorded: every field, the file relative to the fixture root. */
function record(d: Diagnostic, root: string) {
  return {
    rule: d.ruleId,
    severity: d.severity,
    file: path.relative(root, d.file),
    line: d.line,
    column: d.column,
    message: portable(d.message),
    hint: d.hint === undefined ? null : portable(d.hint),
    packageRule: d.packageRule ?? null,
  };
}

/** True for a path inside `root`. */
function inside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** What discovery registered, files relative to the fixture root. */
function registered(m: Manifest, root: string) {
  const at = (file: string, line: number, column: number) => `${path.relative(root, file)}:${line}:${column}`;
  return {
    workflows: m.workflows
      .filter((w) => inside(root, w.file))
      .map((w) => ({
        name: w.name,
        aliases: w.aliases,
        package: w.package?.name ?? null,
        exportName: w.exportName,
        localExport: w.localExport,
        at: at(w.file, w.line, w.column),
        activities: w.activities.map((a) => `${a.kind} ${a.name} as ${a.exportName}${a.shared ? ' (shared)' : ''} ${at(a.file, a.line, a.column)}`),
        activityTypes: w.activityTypes,
      })),
    sharedActivities: m.sharedActivities
      .filter((a) => inside(root, a.file))
      .map((a) => `${a.kind} ${a.name} as ${a.exportName} from ${a.package?.name ?? '(project)'} ${at(a.file, a.line, a.column)}`),
    packages: m.packages.filter((p) => inside(root, p.root)).map((p) => `${p.name}@${p.version}`),
  };
}

/**
 * `discover()` stops looking for `node_modules` at the fixture (or, for a fixture nested in a tree with its own
 * `node_modules`, the folder above it), so the repository's installed packages stay out.
 */
function ceilingOf(root: string): string {
  const parent = path.dirname(root);
  return fs.existsSync(path.join(parent, 'node_modules')) ? parent : root;
}

describe('golden records of every fixture', () => {
  const roots = fixtureRoots();

  it('finds the fixture trees', () => {
    for (const tree of ['discovery/', 'validator/', 'projects/', 'packages/']) expect(roots.some((r) => r.startsWith(tree))).toBe(true);
  });

  it.each(roots)('%s', async (rel) => {
    const root = path.join(FIXTURES, rel);
    const baseline = BASELINES[rel] ? await loadBaseline(path.join(FIXTURES, BASELINES[rel]), readName(root)) : undefined;
    const options: ValidateOptions = { ...OPTIONS[rel], ...(baseline?.shapes ? { baseline: baseline.shapes } : {}) };
    const bounded = CYCLIC.has(rel);
    const manifest = await (bounded ? discoverBounded : discover)(root, { ceiling: ceilingOf(root), ...options });
    const report = await (bounded ? validateBounded : validate)(root, options);
    // validate() has no ceiling: a project also sees the repository's installed packages, which belong to other
    // fixtures; only what lies inside this fixture is recorded.
    const findings = report.diagnostics.filter((d) => inside(root, d.file));
    const golden = {
      discover: { diagnostics: manifest.diagnostics.map((d) => record(d, root)), ...registered(manifest, root) },
      validate: {
        errors: findings.filter((d) => d.severity === 'error').length,
        warnings: findings.filter((d) => d.severity === 'warning').length,
        findings: findings.map((d) => record(d, root)),
      },
    };
    await expect(`${JSON.stringify(golden, null, 2)}\n`).toMatchFileSnapshot(path.join(GOLDEN, `${rel}.json`));
  });

  it('pins every rule id with its severity and package rule', async () => {
    const rules = {
      discovery: Object.fromEntries(
        Object.entries(RULES).map(([id, r]) => [id, { severity: r.severity, packageRule: (r.docs as { packageRule?: number }).packageRule ?? null }]),
      ),
      validator: Object.fromEntries(allRuleMetas.map((r) => [r.id, { severity: r.severity, packageRule: r.docs.packageRule ?? null }])),
    };
    await expect(`${JSON.stringify(rules, null, 2)}\n`).toMatchFileSnapshot(path.join(GOLDEN, 'rules.json'));
  });
});
