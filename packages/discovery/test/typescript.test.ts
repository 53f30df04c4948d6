/**
 * TypeScript and JavaScript alike: `.ts`/`.mts` convention files, `.js`-suffixed and
 * extensionless imports resolving to `.ts`, positions in the `.ts` source, `.d.ts` and test files never
 * definitions, shared folders at any depth, compiled layouts judged once, wrapper factories.
 * Runs on the in-memory file system.
 */
import { describe, expect, it } from 'vitest';
import { discover, type Manifest } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { EXPOSE, packageJson } from './tmp.js';

const CORE = "import { workflow, step, evaluator } from '@skein/core';\n";

async function run(files: Record<string, string>, options: { mode?: 'package' | 'project' | 'auto' } = {}): Promise<Manifest> {
  return discover('/p', { fs: memoryFileSystem(files), ceiling: '/p', ...options });
}

const briefs = (m: Manifest) => m.diagnostics.map((d) => `${d.ruleId} ${d.file.slice(3)}:${d.line}:${d.column}`);
const defs = (m: Manifest) => [
  ...m.workflows.map(
    (w) =>
      `workflow ${w.name} ${w.file.slice(3)}:${w.line}:${w.column} [${w.activities.map((a) => `${a.kind} ${a.name} ${a.file.slice(3)}:${a.line}`).join(', ')}]`,
  ),
  ...m.sharedActivities.map((a) => `shared ${a.kind} ${a.name} ${a.file.slice(3)}:${a.line}`),
];

describe('TypeScript convention files', () => {
  it('registers workflow.ts, steps.ts, steps/*.mts, evaluators.ts with positions in the .ts source', async () => {
    const m = await run({
      '/p/package.json': packageJson('p'),
      '/p/src/greet/workflow.ts': `${CORE}import { hello } from './steps.js';\ntype In = { who: string };\nexport default workflow({ name: 'greet', fn: async (input: In) => hello(input.who) });\n`,
      '/p/src/greet/steps.ts': `${CORE}export const hello = step({ name: 'hello', fn: async (who: string): Promise<string> => who });\n`,
      '/p/src/greet/steps/more.mts': `${CORE}export const more = step({ name: 'more', fn: async (x: number) => x });\n`,
      '/p/src/greet/evaluators.ts': `${CORE}export const judge = evaluator({ name: 'judge', fn: async (x: unknown) => ({ value: 1 }) });\n`,
    });
    expect(briefs(m)).toEqual([]);
    expect(defs(m)).toEqual([
      'workflow greet src/greet/workflow.ts:4:16 [step hello src/greet/steps.ts:2, step more src/greet/steps/more.mts:2, evaluator judge src/greet/evaluators.ts:2]',
    ]);
  });

  it('never takes .d.ts files or test files for definitions', async () => {
    const m = await run({
      '/p/package.json': packageJson('p'),
      '/p/a/workflow.ts': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n`,
      '/p/a/workflow.d.ts': 'declare const w: unknown;\nexport default w;\n',
      '/p/a/steps.d.ts': "export declare const s: import('@skein/core').Step;\n",
      '/p/a/workflow.test.ts': `${CORE}export default workflow({ name: 'a_test', fn: async () => 1 });\n`,
      '/p/a/__tests__/workflow.ts': `${CORE}export default workflow({ name: 'a_tests', fn: async () => 1 });\n`,
      '/p/b/workflow.spec.js': `${CORE}export default workflow({ name: 'b_spec', fn: async () => 1 });\n`,
      '/p/a/steps/x.test.ts': `${CORE}export const x = step({ name: 'x', fn: async () => 1 });\n`,
    });
    expect(briefs(m)).toEqual([]);
    expect(defs(m)).toEqual(['workflow a a/workflow.ts:2:16 []']);
  });

  it('judges a folder holding x.ts and its compiled x.js once, from the .ts', async () => {
    const m = await run({
      '/p/package.json': packageJson('p'),
      '/p/a/workflow.ts': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n`,
      '/p/a/steps.ts': `${CORE}export const s = step({ name: 's', fn: async () => 1 });\n`,
      '/p/a/steps.js': `${CORE}export const s = step({ name: 's', fn: async () => 1 });\n`,
      '/p/a/steps/t.ts': `${CORE}export const t = step({ name: 't', fn: async () => 1 });\n`,
      '/p/a/steps/t.js': `${CORE}export const t = step({ name: 't', fn: async () => 1 });\n`,
    });
    expect(briefs(m)).toEqual([]);
    expect(defs(m)).toEqual(['workflow a a/workflow.ts:2:16 [step s a/steps.ts:2, step t a/steps/t.ts:2]']);
  });

  it('finds shared/steps and shared/evaluators at any depth', async () => {
    const m = await run({
      '/p/package.json': packageJson('p'),
      '/p/src/a/workflow.ts': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n`,
      '/p/src/shared/steps/tools.ts': `${CORE}export const tool = step({ name: 'tool', fn: async () => 1 });\n`,
      '/p/src/lib/shared/evaluators/e.js': `${CORE}export const e = evaluator({ name: 'e', fn: async () => ({ value: 1 }) });\n`,
    });
    expect(briefs(m)).toEqual([]);
    expect(defs(m)).toEqual([
      'workflow a src/a/workflow.ts:2:16 []',
      'shared evaluator e src/lib/shared/evaluators/e.js:2',
      'shared step tool src/shared/steps/tools.ts:2',
    ]);
    expect(m.workflows[0]!.activityTypes).toEqual(['a#e', 'a#tool']);
  });
});

describe('imports as TypeScript resolves them', () => {
  const pkg = (entry: string, extra: Record<string, string> = {}) => ({
    '/p/package.json': packageJson('p', { ...EXPOSE, exports: { '.': './src/index.ts' } }),
    '/p/src/index.ts': entry,
    '/p/src/a/workflow.ts': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n`,
    '/p/src/b/workflow.ts': `${CORE}export default workflow({ name: 'b', fn: async () => 1 });\n`,
    ...extra,
  });

  it('follows .js-suffixed and extensionless re-exports to the .ts files of a package', async () => {
    const m = await run(pkg("export { default as a } from './a/workflow.js';\nexport { default as b } from './b/workflow';\n"), { mode: 'package' });
    expect(briefs(m)).toEqual([]);
    expect(m.workflows.map((w) => `${w.name} ${w.exportName} ${w.file.slice(3)}`)).toEqual(['a a src/a/workflow.ts', 'b b src/b/workflow.ts']);
  });

  it('follows a folder import to its index.ts and reports a specifier that names nothing', async () => {
    const m = await run(
      pkg("export * from './barrel';\nexport { default as c } from './c/workflow.js';\n", {
        '/p/src/barrel/index.ts': "export { default as a } from '../a/workflow.js';\nexport { default as b } from '../b/workflow.js';\n",
      }),
      { mode: 'package' },
    );
    expect(briefs(m)).toEqual(['reexport/unresolved src/index.ts:2:30']);
    expect(m.workflows.map((w) => w.name)).toEqual(['a', 'b']);
  });
});

describe('wrapper factories (any call with an object literal holding a static name)', () => {
  it('takes the kind from the file: a workflow in workflow.ts, an evaluator in evaluators.ts, a step in shared/steps', async () => {
    const m = await run({
      '/p/package.json': packageJson('p'),
      '/p/lib/factories.ts': `${CORE}export const evalWorkflow = (c: any) => workflow({ ...c });\nexport const verify = (c: any) => evaluator({ name: c.name, fn: async () => ({ value: 1 }) });\nexport const tool = (c: any) => step(c);\n`,
      '/p/judge/workflow.ts':
        "import { evalWorkflow } from '../lib/factories.js';\nexport default evalWorkflow({ name: 'simple_eval', aliases: ['se'], fn: async () => 1 });\n",
      '/p/judge/evaluators.ts': "import { verify } from '../lib/factories.js';\nexport const strict = verify({ name: 'strict', threshold: 5 });\n",
      '/p/shared/steps/t.ts': "import { tool } from '../../lib/factories.js';\nconst NAME = 'shared_tool';\nexport const t = tool({ name: NAME });\n",
    });
    expect(briefs(m)).toEqual([]);
    expect(defs(m)).toEqual([
      'workflow simple_eval judge/workflow.ts:2:16 [evaluator strict judge/evaluators.ts:2]',
      'shared step shared_tool shared/steps/t.ts:3',
    ]);
    expect(m.workflows[0]!.aliases).toEqual(['se']);
  });

  it('counts no call whose name is not static (z.object({ name: z.string() }) in a steps file is not a step)', async () => {
    const m = await run({
      '/p/package.json': packageJson('p'),
      '/p/a/workflow.ts': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n`,
      '/p/a/steps.ts': `${CORE}import { z } from 'zod';\nexport const Input = z.object({ name: z.string() });\nexport const s = step({ name: 's', fn: async () => 1 });\n`,
    });
    expect(briefs(m)).toEqual([]);
    expect(m.workflows[0]!.activities.map((a) => a.name)).toEqual(['s']);
  });
});

describe('compiled layouts are judged once', () => {
  const TSCONFIG = '{\n  // sources in src, output in dist\n  "compilerOptions": { "rootDir": "src", "outDir": "dist", },\n}\n';
  const tree = {
    '/p/package.json': packageJson('p'),
    '/p/tsconfig.json': TSCONFIG,
    '/p/src/a/workflow.ts': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n`,
    '/p/src/shared/steps/s.ts': `${CORE}export const s = step({ name: 's', fn: async () => 1 });\n`,
    '/p/dist/a/workflow.js': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n`,
    '/p/dist/shared/steps/s.js': `${CORE}export const s = step({ name: 's', fn: async () => 1 });\n`,
  };

  it('a project with src and dist: the sources only (no duplicate names)', async () => {
    const m = await run(tree);
    expect(briefs(m)).toEqual([]);
    expect(defs(m)).toEqual(['workflow a src/a/workflow.ts:2:16 []', 'shared step s src/shared/steps/s.ts:2']);
  });

  it('a project that ships only dist: the compiled files', async () => {
    const distOnly = Object.fromEntries(Object.entries(tree).filter(([p]) => !p.startsWith('/p/src/')));
    const m = await run(distOnly);
    expect(briefs(m)).toEqual([]);
    expect(defs(m)).toEqual(['workflow a dist/a/workflow.js:2:16 []', 'shared step s dist/shared/steps/s.js:2']);
  });

  it('a package whose entry lies in dist: the compiled side, and no unreachable-workflow for the sources', async () => {
    const m = await run(
      {
        ...tree,
        '/p/package.json': packageJson('p', { ...EXPOSE, exports: './dist/index.js' }),
        '/p/dist/index.js': "export { default as a } from './a/workflow.js';\n",
      },
      { mode: 'package' },
    );
    expect(briefs(m)).toEqual([]);
    expect(defs(m)).toEqual(['workflow a dist/a/workflow.js:2:16 []', 'shared step s dist/shared/steps/s.js:2']);
  });

  it('without a tsconfig, dist/ beside src/ is build output', async () => {
    const { '/p/tsconfig.json': _, ...noTsconfig } = tree;
    const m = await run(noTsconfig);
    expect(defs(m)).toEqual(['workflow a src/a/workflow.ts:2:16 []', 'shared step s src/shared/steps/s.ts:2']);
  });
});
