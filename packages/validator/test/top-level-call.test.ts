/**
 * `steps/no-top-level-call` for steps defined in the same file however `@skein/core` is imported, and for the parts
 * of a class that run while the module loads (static fields and blocks) or not (instance fields).
 */
import { describe, expect, it } from 'vitest';
import { rule as noTopLevelCall } from '../src/rules/steps/no-top-level-call.js';
import { positions, type LintOptions } from './rule-tester.js';

const STEPS: LintOptions = { role: 'steps', file: '/pkg/hello/steps.js', imports: { './steps.js': 'steps' } };
const DEF = "{ name: 'a', fn: () => 1 }";

describe('steps/no-top-level-call: definitions in the same file', () => {
  it.each([
    [`const core = require('@skein/core');\nexport const a = core.step(${DEF});\na();`, ['topLevelCall@3:1']],
    [`const { step: mk } = require('@skein/core');\nexport const a = mk(${DEF});\na();`, ['topLevelCall@3:1']],
    [`import { evaluator } from '@skein/core/authoring';\nexport const a = evaluator(${DEF});\na();`, ['topLevelCall@3:1']],
    [`import * as core from '@skein/core';\nexport const a = core['step'](${DEF});\na();`, ['topLevelCall@3:1']],
    [`import { step } from '@skein/core';\nconst a = step(${DEF});\nclass A { static { a(); } static b = a(); }`, ['topLevelCall@3:20', 'topLevelCall@3:38']],
    [`import { greet } from './steps.js';\nclass A { static #p = greet(1); }`, ['topLevelCall@2:23']],
  ] as const)('invalid: %s', (code, errors) => {
    expect(positions(noTopLevelCall, code, STEPS)).toEqual(errors);
  });

  it.each([
    `import { step } from '@skein/core';\nconst a = step(${DEF});\nclass A { #p = a(); q = a(); m() { a(); } }`,
    `import type { step } from '@skein/core';\nconst a = step(${DEF});\na();`,
    `const core = require('@skein/other');\nconst a = core.step(${DEF});\na();`,
    `import * as core from '@skein/core';\nconst a = core[name](${DEF});\na();`,
    `import { step } from '@skein/core';\nlet a = 1;\n{ const a = step(${DEF}); }\na();`,
    `import { workflow } from '@skein/core';\nconst w = workflow(${DEF});\nw();`,
  ])('valid: %s', (code) => {
    expect(positions(noTopLevelCall, code, { ...STEPS, file: code.startsWith('import type') ? '/pkg/hello/steps.ts' : '/pkg/hello/steps.js' })).toEqual([]);
  });
});

describe('steps/no-top-level-call: through a function of the module that a top-level statement calls', () => {
  const WORKFLOW: LintOptions = { role: 'workflow', file: '/pkg/hello/workflow.js', imports: { './steps.js': 'steps' } };
  const IMPORT = "import { greet } from './steps.js';\n";

  it.each([
    [`${IMPORT}const warm = () => greet('x');\nwarm();`, ['topLevelCallThrough@3:1']],
    [`${IMPORT}warm();\nfunction warm() { return greet('x'); }`, ['topLevelCallThrough@2:1']],
    [`${IMPORT}async function warm() { await greet('x'); }\nawait warm();`, ['topLevelCallThrough@3:7']],
    [`${IMPORT}const inner = () => greet('x');\nconst outer = () => inner();\nouter();`, ['topLevelCallThrough@4:1']],
    [`${IMPORT}(() => { greet('x'); })();`, ['topLevelCallThrough@2:1']],
    [`${IMPORT}const warm = function () { if (ready) greet('x'); };\nexport const ok = warm();`, ['topLevelCallThrough@3:19']],
  ] as const)('invalid: %s', (code, errors) => {
    expect(positions(noTopLevelCall, code, WORKFLOW)).toEqual(errors);
  });

  it.each([
    // Called inside the workflow's fn only.
    `${IMPORT}const warm = () => greet('x');\nexport default workflow({ name: 'w', fn: async () => warm() });`,
    // The step is called later, in a callback, if ever.
    `${IMPORT}const schedule = () => setTimeout(() => greet('x'), 10);\nschedule();`,
    `${IMPORT}function later() { return () => greet('x'); }\nexport const run = later();`,
    // A local of the same name shadows the step.
    `${IMPORT}const warm = (greet) => greet('x');\nwarm(console.log);`,
    `${IMPORT}function warm() { const greet = (s) => s; return greet('x'); }\nwarm();`,
    // A recursive function that never reaches a step.
    `${IMPORT}function count(n) { return n > 0 ? count(n - 1) : 0; }\ncount(3);`,
    // A generator's body runs when it is iterated.
    `${IMPORT}function* steps() { yield greet('x'); }\nexport const sequence = steps();`,
    // A let may hold another function by the time it is called.
    `${IMPORT}let warm = () => greet('x');\nwarm = () => 0;\nwarm();`,
    // A named function expression's own name is itself, not the step.
    `${IMPORT}(function greet(n) { if (n > 0) greet(n - 1); })(1);`,
  ])('valid: %s', (code) => {
    expect(positions(noTopLevelCall, code, WORKFLOW)).toEqual([]);
  });
});

describe('steps/no-top-level-call: through a namespace of a steps or evaluators file', () => {
  const WORKFLOW: LintOptions = {
    role: 'workflow',
    file: '/pkg/hello/workflow.js',
    imports: { './steps.js': 'steps', './evaluators.js': 'evaluators' },
    functions: { './steps.js': ['makeStep'] },
  };

  it.each([
    [`import * as steps from './steps.js';\nsteps.greet('x');`, ['topLevelCall@2:1']],
    [`import * as steps from './steps.js';\nawait steps['greet']('x');`, ['topLevelCall@2:7']],
    [`import * as judge from './evaluators.js';\nexport const verdict = judge.score(1);`, ['topLevelCall@2:24']],
    [`const steps = require('./steps.js');\nsteps.greet('x');`, ['topLevelCall@2:1']],
    [`import * as steps from './steps.js';\nconst warm = () => steps.greet('x');\nwarm();`, ['topLevelCallThrough@3:1']],
  ] as const)('invalid: %s', (code, errors) => {
    expect(positions(noTopLevelCall, code, WORKFLOW)).toEqual(errors);
  });

  it.each([
    // Inside the workflow's fn.
    `import * as steps from './steps.js';\nexport default workflow({ name: 'w', fn: async () => steps.greet('x') });`,
    // A function the steps file declares (a factory of steps, a helper) runs no activity.
    `import * as steps from './steps.js';\nexport const made = steps.makeStep('x');`,
    // A computed member the analysis cannot name.
    `import * as steps from './steps.js';\nsteps[name]('x');`,
    // A local of the same name shadows the namespace.
    `import * as steps from './steps.js';\nconst warm = (steps) => steps.greet('x');\nwarm({ greet: String });`,
    // Another module's namespace.
    `import * as util from './util.js';\nutil.greet('x');`,
  ])('valid: %s', (code) => {
    expect(positions(noTopLevelCall, code, WORKFLOW)).toEqual([]);
  });
});
