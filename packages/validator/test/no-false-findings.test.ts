/**
 * No false findings, through the public entry points `discover()` and `validate()`:
 * - steps and evaluators reached from a package entry in every form package rule 3 forbids for workflows (named and
 *   renamed re-exports, `export *`, `export * as ns`, a namespace import re-exported, values built at runtime) and a
 *   namespace import of a plain package holding steps (`fixtures/discovery/activity-reexports`) are not findings;
 * - each rule that is about some file roles fires in files of those roles and in no other: the same offending code
 *   is written into a file of every role (workflow.js, steps.js, evaluators.js, shared/steps, shared/evaluators,
 *   workflow code imported by workflow.js, and a file nothing imports) and the files it is reported in are compared.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { discover } from '@skein/discovery';
import { validate } from '@skein/validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';

describe('steps and evaluators reached through forms forbidden for workflows', () => {
  const root = path.join(REPO, 'fixtures/discovery/activity-reexports');
  const pkg = path.join(root, 'node_modules/acts');

  it('discover() reports nothing and registers only the workflows, with their activities', async () => {
    const m = await discover(root, { ceiling: root });
    expect(m.diagnostics).toEqual([]);
    expect(m.workflows.map((w) => `${w.name} <- ${w.package?.name ?? '(local)'}:${w.exportName}`)).toEqual(['app <- (local):default', 'hello <- acts:hello']);
    const hello = m.workflows[1];
    expect(hello?.activities.map((a) => `${a.kind} ${a.name}`)).toEqual(['step greet', 'evaluator check']);
    expect(hello?.activityTypes).toEqual(['hello#check', 'hello#greet', 'hello#log']);
    expect(m.sharedActivities.map((a) => `${a.kind} ${a.name} from ${a.package?.name}`)).toEqual(['step log from acts']);
  });

  it('validate() of the project reports nothing inside it', async () => {
    const report = await validate(root);
    expect(report.diagnostics.filter((d) => !path.relative(root, d.file).startsWith('..'))).toEqual([]);
    expect(report.manifest.workflows.map((w) => w.name)).toEqual(expect.arrayContaining(['app', 'hello']));
  });

  it('validate() of the package reports nothing', async () => {
    const report = await validate(pkg);
    expect(report.diagnostics).toEqual([]);
    expect(report).toMatchObject({ errorCount: 0, warningCount: 0 });
    expect(report.manifest.workflows.map((w) => w.name)).toEqual(['hello']);
  });
});

/** The roles a file can play, each with the file that plays it in the generated project. */
const ROLE_FILES = {
  workflow: 'hello/workflow.js',
  steps: 'hello/steps.js',
  evaluators: 'hello/evaluators.js',
  'shared-steps': 'shared/steps/extra.js',
  'shared-evaluators': 'shared/evaluators/extra.js',
  'workflow-code': 'hello/helper.js',
  none: 'hello/unused.js',
} as const;
type Role = keyof typeof ROLE_FILES;

/** What each role file holds besides the offending code, so the project is otherwise valid. */
const BASE: Record<Role, string> = {
  workflow:
    "import { workflow } from '@skein/core';\nimport { greet } from './steps.js';\nimport { judge } from './evaluators.js';\nimport { help } from './helper.js';\n" +
    "export default workflow({ name: 'hello', fn: async (x) => judge(await greet(help(x))) });\n",
  steps: "import { step } from '@skein/core';\nexport const greet = step({ name: 'greet', fn: async (x) => `hi ${x}` });\n",
  evaluators: "import { evaluator } from '@skein/core';\nexport const judge = evaluator({ name: 'judge', fn: async (x) => ({ score: x ? 1 : 0 }) });\n",
  'shared-steps': "import { step } from '@skein/core';\nexport const extraStep = step({ name: 'extraStep', fn: async (x) => x });\n",
  'shared-evaluators':
    "import { evaluator } from '@skein/core';\nexport const extraEval = evaluator({ name: 'extraEval', fn: async (x) => ({ score: 1 }) });\n",
  'workflow-code': 'export const help = (x) => x;\n',
  none: 'export const unused = 1;\n',
};

/** A relative specifier from role file `from` to project file `to`. */
function relativeSpecifier(from: string, to: string): string {
  const rel = path.posix.relative(path.posix.dirname(from), to);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

interface RoleCase {
  rule: string;
  /** Offending code appended to a role file (`file` is that file's project path). */
  code(file: string): string;
  /** The roles it must be reported in; every other role must stay clean. */
  roles: Role[];
}

const ACTIVITY_ROLES: Role[] = ['steps', 'evaluators', 'shared-steps', 'shared-evaluators'];
const WORKFLOW_CODE_ROLES: Role[] = ['workflow', 'workflow-code'];

const ROLE_CASES: RoleCase[] = [
  { rule: 'workflow/no-node-globals', code: () => 'export const mode = () => process.env.MODE;\n', roles: WORKFLOW_CODE_ROLES },
  { rule: 'workflow/no-nondeterministic-apis', code: () => 'export const ref = () => new WeakRef({});\n', roles: WORKFLOW_CODE_ROLES },
  {
    rule: 'workflow/no-node-modules',
    code: () => "import { existsSync } from 'node:fs';\nexport const exists = (f) => existsSync(f);\n",
    roles: WORKFLOW_CODE_ROLES,
  },
  { rule: 'steps/named-exports-only', code: () => "export * as ns from './more.js';\n", roles: ACTIVITY_ROLES },
  {
    rule: 'activity/non-static-name',
    code: () => "import { step as makeStep } from '@skein/core';\nexport const dyn = makeStep({ name: 'dyn' + 'amic', fn: async () => 1 });\n",
    roles: ACTIVITY_ROLES,
  },
  {
    rule: 'steps/import-style',
    code: (file) => `import * as target from '${relativeSpecifier(file, 'shared/steps/target.js')}';\nexport const viaNs = () => target.tgt('x');\n`,
    roles: [...WORKFLOW_CODE_ROLES, ...ACTIVITY_ROLES],
  },
  {
    rule: 'steps/no-top-level-call',
    code: (file) => `import { tgt } from '${relativeSpecifier(file, 'shared/steps/target.js')}';\ntgt('now');\n`,
    roles: [...WORKFLOW_CODE_ROLES, ...ACTIVITY_ROLES],
  },
  {
    rule: 'activity/invalid-name',
    code: () => "import { step as makeStep } from '@skein/core';\nexport const badName = makeStep({ name: 'bad-name', fn: async () => 1 });\n",
    roles: ACTIVITY_ROLES,
  },
  {
    // Names are judged where definitions are registered; a step anywhere else is misplaced.
    rule: 'conventions/misplaced-definition',
    code: () => "import { step as makeStep } from '@skein/core';\nexport const stray = makeStep({ name: 'stray', fn: async () => 1 });\n",
    roles: ['workflow', 'workflow-code', 'none'],
  },
];

let tmp: string;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skein-validator-roles-')));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Writes a project with `code(file)` appended to every role file; returns its root. */
function roleProject(name: string, code: (file: string) => string): string {
  const root = path.join(tmp, name.replace(/\W/g, '-'));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'roles', version: '1.0.0', private: true, type: 'module' }),
    'hello/more.js': 'export const more = 1;\n',
    'shared/steps/more.js': "import { step } from '@skein/core';\nexport const moreStep = step({ name: 'moreStep', fn: async () => 1 });\n",
    'shared/evaluators/more.js':
      "import { evaluator } from '@skein/core';\nexport const moreEval = evaluator({ name: 'moreEval', fn: async () => ({ score: 1 }) });\n",
    'shared/steps/target.js': "import { step } from '@skein/core';\nexport const tgt = step({ name: 'tgt', fn: async (x) => x });\n",
  };
  for (const [role, file] of Object.entries(ROLE_FILES) as [Role, string][]) files[file] = BASE[role] + code(file);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

describe('each rule fires in the file roles it is about, and in no other', () => {
  it.each(ROLE_CASES)('$rule', async ({ rule, code, roles }) => {
    const root = roleProject(rule, code);
    const report = await validate(root);
    const byFile = new Map(Object.entries(ROLE_FILES).map(([role, file]) => [path.join(root, file), role as Role]));
    const reportedIn = new Set(report.diagnostics.filter((d) => d.ruleId === rule).map((d) => byFile.get(d.file) ?? path.relative(root, d.file)));
    expect([...reportedIn].sort()).toEqual([...roles].sort());
  });

  it('the project is otherwise valid: without the offending code no role file has a finding', async () => {
    const root = roleProject('clean', () => '');
    const report = await validate(root);
    expect(report.diagnostics.filter((d) => !path.relative(root, d.file).startsWith('..'))).toEqual([]);
    expect(report.manifest.workflows.map((w) => w.name)).toContain('hello');
    expect(report.manifest.sharedActivities.map((a) => a.name)).toEqual(expect.arrayContaining(['extraStep', 'extraEval', 'tgt']));
  });
});
