/**
 * Definitions read statically (package rules 2, 7 and 10), through `discover()` on an in-memory project:
 * alias clean-up, the reserved catalog name, and wrapper factories whose kind comes from the file's convention.
 */
import { describe, expect, it } from 'vitest';
import { CORE, discoverProject, findingsAt as at } from './memory-project.js';

describe('workflow names and aliases', () => {
  it('drops aliases equal to the name or repeated, keeping the first of each, in order', async () => {
    const m = await discoverProject({ 'a/workflow.js': `${CORE}export default workflow({ name: 'a', aliases: ['a', 'b', 'c', 'b'], fn: async (x) => x });\n` });
    expect(at(m)).toEqual([]);
    expect(m.workflows.map((w) => [w.name, w.aliases])).toEqual([['a', ['b', 'c']]]);
  });

  it('reserves $catalog for workflow names and aliases, and rejects it for activities by the name pattern', async () => {
    const m = await discoverProject({
      'r/workflow.js': `${CORE}export default workflow({ name: '$catalog', fn: async (x) => x });\n`,
      's/workflow.js': `${CORE}export default workflow({ name: 's', aliases: ['$catalog', 'fine'], fn: async (x) => x });\n`,
      's/steps.js': `${CORE}export const c = step({ name: '$catalog', fn: async (x) => x });\n`,
    });
    expect(at(m)).toEqual(['workflow/invalid-name r/workflow.js:2:33', 'activity/invalid-name s/steps.js:2:31', 'workflow/invalid-name s/workflow.js:2:48']);
    expect(m.diagnostics[0]?.message).toContain('reserved');
    expect(m.diagnostics[1]?.message).not.toContain('reserved');
    expect(m.workflows.map((w) => [w.name, w.aliases])).toEqual([['s', ['fine']]]);
    expect(m.workflows[0]?.activities).toEqual([]);
  });
});

describe('names behind TypeScript wrappers', () => {
  it('reads names, const names, aliases and configs inside `as const`, `satisfies`, `<const>`, `!` and parentheses', async () => {
    const m = await discoverProject({
      'a/steps.ts': [
        CORE,
        "const S2 = 's2' as const;\n",
        "export const s1 = step({ name: 's1' as const, fn: async (x: string) => x });\n",
        'export const s2 = step({ name: S2, fn: async (x: string) => x })!;\n',
        "export const s3 = step({ name: ('s3'), fn: async (x: string) => x } satisfies { name: string });\n",
      ].join(''),
      'a/workflow.ts': [
        CORE,
        "import { s1, s2, s3 } from './steps.js';\n",
        "const NAME = 'wf_a' as const;\n",
        "export default workflow(<const>{ name: NAME!, aliases: ['wf_old'] as const, fn: async (x: string) => [await s1(x), await s2(x), await s3(x)] });\n",
      ].join(''),
    });
    expect(at(m)).toEqual([]);
    expect(m.workflows.map((w) => [w.name, w.aliases])).toEqual([['wf_a', ['wf_old']]]);
    expect(m.workflows[0]?.activities.map((a) => `${a.name} as ${a.exportName}`)).toEqual(['s1 as s1', 's2 as s2', 's3 as s3']);
  });
});

describe('wrapper factories: the convention of the file decides the kind', () => {
  it('is a workflow in a workflow file, a step in a steps file, an evaluator in an evaluators file, nothing elsewhere', async () => {
    const m = await discoverProject({
      'w/workflow.js': `${CORE}import { helper } from '../lib/util.js';\nconst evalWorkflow = (c) => workflow(c);\nexport default evalWorkflow({ name: 'wrapped', fn: async (x) => helper(x) });\n`,
      'w/steps.js': "import { makeStep } from '../lib/factories.js';\nexport const s = makeStep({ name: 'via_wrapper', fn: async (x) => x });\n",
      'w/evaluators.js': "import { verify } from '../lib/factories.js';\nexport const v = verify({ name: 'judged' });\n",
      'lib/factories.js': `${CORE}export const makeStep = (c) => step(c);\nexport const verify = (c) => evaluator({ fn: async () => ({ score: 1 }), ...c });\n`,
      'lib/util.js': "import { config } from './factories.js';\nexport const helper = (x) => x;\nexport const notOne = config({ name: 'not_a_definition' });\n",
    });
    expect(at(m)).toEqual([]);
    expect(m.workflows.map((w) => w.name)).toEqual(['wrapped']);
    expect(m.workflows[0]?.activities.map((a) => `${a.kind} ${a.name} as ${a.exportName}`)).toEqual(['step via_wrapper as s', 'evaluator judged as v']);
    expect(m.workflows[0]?.activityTypes).toEqual(['wrapped#judged', 'wrapped#via_wrapper']);
  });

  it('is a shared step or a shared evaluator in shared/steps and shared/evaluators, named in the message when invalid', async () => {
    const m = await discoverProject({
      'w/workflow.js': `${CORE}export default workflow({ name: 'w', fn: async (x) => x });\n`,
      'shared/steps/tools.js':
        "import { makeStep } from '../../lib/factories.js';\nexport const t = makeStep({ name: 'tool' });\nexport const bad = makeStep({ name: 'bad-tool' });\n",
      'shared/evaluators/checks.js': "import { verify } from '../../lib/factories.js';\nexport const c = verify({ name: 'check' });\n",
      'lib/factories.js': `${CORE}export const makeStep = (c) => step(c);\nexport const verify = (c) => evaluator(c);\n`,
    });
    expect(at(m)).toEqual(['activity/invalid-name shared/steps/tools.js:3:37']);
    expect(m.diagnostics[0]?.message).toContain('step name');
    expect(m.sharedActivities.map((a) => `${a.kind} ${a.name}`)).toEqual(['step tool', 'evaluator check']);
    expect(m.workflows[0]?.activityTypes).toEqual(['w#check', 'w#tool']);
  });
});
