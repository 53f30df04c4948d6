/**
 * Definitions made by factory calls (factories.ts): a top-level function returning `step()`/`evaluator()`/`workflow()`
 * (or a wrapper factory's call) named by one of its parameters, called in a convention file, in the same module or
 * imported from another (through re-exports), through `discover()` on an in-memory project.
 */
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../src/index.js';
import { CORE, discoverProject, findingsAt as at } from './memory-project.js';

const activities = (m: Manifest, workflow: string) =>
  m.workflows.find((w) => w.name === workflow)?.activities.map((a) => `${a.kind} ${a.name} as ${a.exportName} ${a.file.slice(3)}:${a.line}:${a.column}`);

/** A workflow file `a/workflow.js` that calls the given imports from `./steps.js`. */
const workflowCalling = (...names: string[]) =>
  `${CORE}import { ${names.join(', ')} } from './steps.js';\nexport default workflow({ name: 'a', fn: async (x) => [${names.map((n) => `await ${n}(x)`).join(', ')}] });\n`;

describe('factories of steps and evaluators', () => {
  it('names each step by its call’s argument: a factory imported from shared/steps, from a lib file, and one of the same file', async () => {
    const m = await discoverProject({
      'shared/steps/lookup.js': `${CORE}export function lookupStep(name, route) {\n  return step({ name, fn: async () => route });\n}\nexport const fetchHealth = lookupStep('fetchHealth', '/health');\n`,
      'lib/score.ts': `${CORE}export const scoreBy = (label: string, weight: number) => evaluator({ name: label, fn: async (t: string) => ({ value: t.length * weight }) });\n`,
      'a/steps.js': `import { lookupStep } from '../shared/steps/lookup.js';\nconst local = (id) => step({ name: id, fn: async (x) => x });\nexport const fetchUser = lookupStep('fetchUser', '/users');\nexport const own = local('own');\n${CORE}`,
      'a/evaluators.ts': "import { scoreBy } from '../lib/score.js';\nexport const judge = scoreBy('judge', 2);\n",
      'a/workflow.js': workflowCalling('fetchUser', 'own'),
    });
    expect(at(m)).toEqual([]);
    expect(activities(m, 'a')).toEqual([
      'step fetchUser as fetchUser a/steps.js:3:26',
      'step own as own a/steps.js:4:20',
      'evaluator judge as judge a/evaluators.ts:2:22',
    ]);
    expect(m.sharedActivities.map((a) => `${a.kind} ${a.name} ${a.file.slice(3)}:${a.line}`)).toEqual(['step fetchHealth shared/steps/lookup.js:5']);
  });

  it('follows the factory through a barrel’s re-exports, a default export and an import re-exported', async () => {
    const m = await discoverProject({
      'lib/make.js': `${CORE}export default function make(n) { return step({ name: n, fn: async () => n }); }\nexport function other(_x, n) { return step({ name: n, fn: async () => n }); }\n`,
      'lib/index.js': "import make from './make.js';\nexport { make };\nexport { other as second } from './make.js';\n",
      'a/steps.js':
        "import { make, second } from '../lib/index.js';\nimport direct from '../lib/make.js';\nexport const s1 = make('s1');\nexport const s2 = second(0, 's2');\nexport const s3 = direct('s3');\n",
      'a/workflow.js': workflowCalling('s1', 's2', 's3'),
    });
    expect(at(m)).toEqual([]);
    expect(activities(m, 'a')?.map((a) => a.split(' ').slice(0, 2).join(' '))).toEqual(['step s1', 'step s2', 'step s3']);
  });

  it('reports a name its call does not give statically, or gives invalid, at the argument', async () => {
    const m = await discoverProject({
      'lib/make.js': `${CORE}export const make = (n) => step({ name: n, fn: async () => n });\n`,
      'a/steps.js':
        "import { make } from '../lib/make.js';\nconst suffix = String(Date.now());\nexport const s1 = make(`s_${suffix}`);\nexport const s2 = make('not valid');\nexport const s3 = make();\n",
      'a/workflow.js': workflowCalling('s1', 's2', 's3'),
    });
    expect(at(m)).toEqual(['activity/non-static-name a/steps.js:3:24', 'activity/invalid-name a/steps.js:4:24', 'activity/non-static-name a/steps.js:5:19']);
    expect(activities(m, 'a')).toEqual([]);
  });

  it('takes a name written in the factory itself, and a wrapper factory’s call named by a parameter', async () => {
    const m = await discoverProject({
      'lib/make.js': `${CORE}export function ping(url) { return step({ name: 'ping', fn: async () => url }); }\nexport const defineStep = (o) => step(o);\nexport const viaWrapper = (n) => defineStep({ name: n, fn: async () => n });\n`,
      'a/steps.js': "import { ping, viaWrapper } from '../lib/make.js';\nexport const p = ping('/p');\nexport const w = viaWrapper('w');\n",
      'a/workflow.js': workflowCalling('p', 'w'),
    });
    expect(at(m)).toEqual([]);
    expect(activities(m, 'a')?.map((a) => a.split(' ').slice(0, 4).join(' '))).toEqual(['step ping as p', 'step w as w']);
  });

  it('reports a name the factory itself writes wrong at the call, in the file that calls it', async () => {
    const m = await discoverProject({
      'lib/make.js': `${CORE}export function broken(url) {\n  return step({ name: 'not valid', fn: async () => url });\n}\n`,
      'a/steps.js': "import { broken } from '../lib/make.js';\nexport const b = broken('/b');\n",
      'a/workflow.js': workflowCalling('b'),
    });
    expect(at(m)).toEqual(['activity/invalid-name a/steps.js:2:18']);
  });

  it('makes a workflow of a factory call in a workflow file', async () => {
    const m = await discoverProject({
      'lib/echo.ts': `${CORE}export function echoWorkflow(name: string) {\n  return workflow({ name, fn: async (x: unknown) => ({ name, x }) });\n}\n`,
      'mirror/workflow.ts': "import { echoWorkflow } from '../lib/echo.js';\nexport default echoWorkflow('mirror');\n",
    });
    expect(at(m)).toEqual([]);
    expect(m.workflows.map((w) => `${w.name} ${w.file.slice(3)}:${w.line}:${w.column}`)).toEqual(['mirror mirror/workflow.ts:2:16']);
  });

  it('is not a factory: several ways out, an async or generator function, a name parameter the body reassigns', async () => {
    const m = await discoverProject({
      'lib/make.js': [
        CORE,
        'export function branchy(n, b) { if (b) { return step({ name: n, fn: async () => 1 }); } return step({ name: n, fn: async () => 2 }); }\n',
        'export async function later(n) { return step({ name: n, fn: async () => 1 }); }\n',
        'export function* gen(n) { return step({ name: n, fn: async () => 1 }); }\n',
        "export function renamed(n) { n = n + '_x'; return step({ name: n, fn: async () => 1 }); }\n",
        'export function withHelper(n) { const f = () => { return 1; }; return step({ name: n, fn: async () => f() }); }\n',
      ].join(''),
      'a/steps.js':
        "import { branchy, later, gen, renamed, withHelper } from '../lib/make.js';\nexport const b = branchy('b', true);\nexport const l = later('l');\nexport const g = gen('g');\nexport const r = renamed('r');\nexport const h = withHelper('h');\n",
      'a/workflow.js': workflowCalling('h'),
    });
    expect(at(m)).toEqual([]);
    // Only `withHelper` is a factory: a `return` inside a function nested in it is not one of its own.
    expect(activities(m, 'a')?.map((a) => a.split(' ').slice(0, 2).join(' '))).toEqual(['step h']);
  });

  it('leaves calls of functions that are not factories, and of unresolved imports, as values', async () => {
    const m = await discoverProject({
      'lib/util.js': 'export function helper(n) { return { name: n }; }\n',
      'a/steps.js': `${CORE}import { helper } from '../lib/util.js';\nimport { missing } from '../lib/none.js';\nimport { pkg } from 'some-package';\nexport const h = helper('h');\nexport const m = missing('m');\nexport const p = pkg('p');\nexport const s = step({ name: 's', fn: async (x) => x });\n`,
      'a/workflow.js': workflowCalling('s'),
    });
    expect(at(m)).toEqual([]);
    expect(activities(m, 'a')?.map((a) => a.split(' ').slice(0, 2).join(' '))).toEqual(['step s']);
  });
});
