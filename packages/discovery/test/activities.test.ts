/**
 * Steps and evaluators by file convention (package rules 1, 6 and 9): which files of a workflow's folder and of the
 * shared folders are read, in which order, each source judged once (`x.ts` beside its compiled `x.js`), what else in
 * a convention folder is a warning, and what each definition registers as.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { classifyFile, discover, type Manifest } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { packageJson, tempProject, workflowJs } from './tmp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const step = (name: string, exportName = name) =>
  `import { step } from '@skein/core';\nexport const ${exportName} = step({ name: '${name}', fn: async (x) => x });\n`;
const evaluator = (name: string, exportName = name) =>
  `import { evaluator } from '@skein/core';\nexport const ${exportName} = evaluator({ name: '${name}', fn: async (x) => x });\n`;

function run(files: Record<string, string>): Promise<Manifest> {
  return discover('/p', { fs: memoryFileSystem({ '/p/package.json': packageJson('p'), '/p/w/workflow.js': workflowJs('w'), ...files }), ceiling: '/p' });
}
const activities = (m: Manifest) =>
  m.workflows[0]!.activities.map((a) => `${a.kind} ${a.name} ${a.exportName} ${a.file.slice(3)} ${a.line}:${a.column}${a.shared ? ' shared' : ''}`);
const shared = (m: Manifest) => m.sharedActivities.map((a) => `${a.kind} ${a.name} ${a.file.slice(3)}`);
const findings = (m: Manifest) => m.diagnostics.map((d) => `${d.ruleId} ${d.severity} ${d.file.slice(3)}`);

describe('a workflow’s own steps and evaluators', () => {
  it('reads steps.* then steps/, evaluators.* then evaluators/, each folder by name, .ts before .mts before .js before .mjs', async () => {
    const m = await run({
      '/p/w/steps.js': step('s_file'),
      '/p/w/steps/b.js': step('s_b'),
      '/p/w/steps/a.mjs': step('s_a_mjs'),
      '/p/w/steps/c.mts': step('s_c'),
      '/p/w/steps/c.mjs': step('s_c_compiled'),
      '/p/w/evaluators.mjs': evaluator('e_file'),
      '/p/w/evaluators/z.ts': evaluator('e_z'),
    });
    expect(activities(m)).toEqual([
      'step s_file s_file w/steps.js 2:23',
      'step s_a_mjs s_a_mjs w/steps/a.mjs 2:24',
      'step s_b s_b w/steps/b.js 2:20',
      'step s_c s_c w/steps/c.mts 2:20',
      'evaluator e_file e_file w/evaluators.mjs 2:23',
      'evaluator e_z e_z w/evaluators/z.ts 2:20',
    ]);
    expect(findings(m)).toEqual([]);
  });

  it('judges steps.ts beside its compiled steps.js once, from the source', async () => {
    const m = await run({
      '/p/w/steps.ts': step('from_ts'),
      '/p/w/steps.js': step('from_js'),
      '/p/w/steps/x.ts': step('x_ts'),
      '/p/w/steps/x.js': step('x_js'),
    });
    expect(activities(m).map((a) => a.split(' ')[1])).toEqual(['from_ts', 'x_ts']);
  });

  it('skips declarations, source maps and tests silently, and warns about anything else in a convention folder', async () => {
    const m = await run({
      '/p/w/steps/a.js': step('a'),
      '/p/w/steps/a.d.ts': 'export declare const a: unknown;\n',
      '/p/w/steps/a.js.map': '{}',
      '/p/w/steps/a.test.js': step('in_test'),
      '/p/w/steps/README.md': '# steps\n',
      '/p/w/steps/nested/b.js': step('nested'),
      '/p/w/steps/legacy.cjs': 'module.exports = {};\n',
    });
    expect(activities(m).map((a) => a.split(' ')[1])).toEqual(['a', 'nested']);
    expect(findings(m)).toEqual(['conventions/unexpected-file warning w/steps/README.md', 'conventions/unexpected-file warning w/steps/legacy.cjs']);
  });

  it('registers the activities of folders nested in shared/steps or shared/evaluators, as the system we re-implement loads them', async () => {
    const m = await run({
      '/p/w/workflow.js': "import { workflow } from '@skein/core';\nexport default workflow({ name: 'w', fn: async () => 1 });\n",
      '/p/shared/steps/http/fetch.js': step('fetch_page'),
      '/p/shared/steps/top.js': step('top'),
      '/p/src/shared/evaluators/deep/er/judge.ts':
        "import { evaluator } from '@skein/core';\nexport const j = evaluator({ name: 'j', fn: async () => ({ value: 1 }) });\n",
      '/p/shared/steps/notes/README.md': '# notes\n',
      '/p/shared/steps/.cache/skip.js': step('hidden'),
      '/p/shared/steps/http/__tests__/fetch.test.js': step('in_test'),
    });
    // The folder's own files first, then each nested folder's, in name order.
    expect(m.sharedActivities.map((a) => `${a.kind}:${a.name} ${a.file}`)).toEqual([
      'step:top /p/shared/steps/top.js',
      'step:fetch_page /p/shared/steps/http/fetch.js',
      'evaluator:j /p/src/shared/evaluators/deep/er/judge.ts',
    ]);
    // What is not a source file is still reported, wherever it is.
    expect(findings(m)).toEqual(['conventions/unexpected-file warning shared/steps/notes/README.md']);
  });

  it("registers the activities of folders nested in a workflow's steps and evaluators folders, which are then steps and evaluators files", async () => {
    const m = await run({
      '/p/w/steps/http/fetch.js': step('fetch_page'),
      '/p/w/steps/http/retry/backoff.js': step('backoff'),
      '/p/w/steps/top.js': step('top'),
      '/p/w/evaluators/quality/judge.js': evaluator('judge'),
      '/p/w/steps/http/notes.md': '# notes\n',
      // A `steps` folder beside no workflow file is not a workflow's: its folders are not walked.
      '/p/lib/steps/sub/helper.js': step('stray'),
    });
    // The folder's own files first, then each nested folder's, in name order.
    expect(activities(m).map((a) => a.split(' ').slice(0, 2).join(':') + ' ' + a.split(' ')[3])).toEqual([
      'step:top w/steps/top.js',
      'step:fetch_page w/steps/http/fetch.js',
      'step:backoff w/steps/http/retry/backoff.js',
      'evaluator:judge w/evaluators/quality/judge.js',
    ]);
    expect(findings(m)).toEqual(['conventions/unexpected-file warning w/steps/http/notes.md']);
    expect(classifyFile('/p/w/steps/http/retry/backoff.js')).toBe('steps');
    expect(classifyFile('/p/w/evaluators/quality/judge.js')).toBe('evaluators');
    expect(classifyFile('/p/lib/steps/sub/helper.js')).toBeNull();
  });

  it('registers named exports only, and warns about a step in an evaluators file and an evaluator in a steps file', async () => {
    const m = await run({
      '/p/w/steps.js': `${step('ok')}export const judge = evaluator({ name: 'judge', fn: async (x) => x });\nexport default step({ name: 'dflt', fn: async (x) => x });\nimport { evaluator } from '@skein/core';\n`,
      '/p/w/evaluators.js': `${step('wrong_kind')}`,
    });
    expect(activities(m)).toEqual(['step ok ok w/steps.js 2:19', 'evaluator judge judge w/steps.js 3:22', 'step wrong_kind wrong_kind w/evaluators.js 2:27']);
    expect(findings(m)).toEqual(['activity/kind-mismatch warning w/evaluators.js', 'activity/kind-mismatch warning w/steps.js']);
    const [inEvaluators, inSteps] = m.diagnostics;
    expect(inEvaluators!.message).toContain('an evaluators');
    expect(inSteps!.message).toContain('a steps');
  });

  it('follows a symlinked steps file and folder, and warns about a dangling one', async () => {
    const t = tempProject(
      { 'package.json': packageJson('p'), 'w/workflow.js': workflowJs('w'), 'lib/steps.js': step('linked_file'), 'lib/more/m.js': step('linked_folder') },
      { 'w/steps.js': '../lib/steps.js', 'w/steps': '../lib/more', 'w/evaluators/gone.js': '../../nowhere.js' },
    );
    cleanups.push(t.cleanup);
    const m = await discover(t.root, { ceiling: t.root });
    expect(m.workflows[0]!.activities.map((a) => a.name)).toEqual(['linked_file', 'linked_folder']);
    expect(m.diagnostics.map((d) => `${d.ruleId} ${d.file.slice(t.root.length + 1)}`)).toEqual(['conventions/unexpected-file w/evaluators/gone.js']);
  });

  it('reads nothing from a steps file that does not parse or a steps folder that cannot be listed, and goes on', async () => {
    const files = {
      '/p/package.json': packageJson('p'),
      '/p/w/workflow.js': workflowJs('w'),
      '/p/w/steps.js': 'export const = ;\n',
      '/p/w/evaluators/e.js': evaluator('e'),
      '/p/w/steps/a.js': step('a'),
    };
    const m = await discover('/p', { fs: memoryFileSystem(files, ['/p/w/steps']), ceiling: '/p' });
    expect(activities(m)).toEqual(['evaluator e e w/evaluators/e.js 2:18']);
    expect(findings(m)).toEqual(['fs/unreadable error w/steps', 'parse/syntax-error error w/steps.js']);
  });
});

describe('shared steps and evaluators', () => {
  it('reads each shared folder once, folders by path, steps before evaluators, and marks them shared', async () => {
    const m = await run({
      '/p/shared/evaluators/e.js': evaluator('root_e'),
      '/p/shared/steps/b.js': step('root_b'),
      '/p/shared/steps/a.js': step('root_a'),
      '/p/src/shared/steps/t.ts': step('src_t'),
      '/p/src/shared/steps/t.js': step('src_t_compiled'),
    });
    expect(shared(m)).toEqual([
      'step root_a shared/steps/a.js',
      'step root_b shared/steps/b.js',
      'evaluator root_e shared/evaluators/e.js',
      'step src_t src/shared/steps/t.ts',
    ]);
    expect(m.sharedActivities.every((a) => a.shared)).toBe(true);
    expect(m.workflows[0]!.activities).toEqual([]);
  });
});
