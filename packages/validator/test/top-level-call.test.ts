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
