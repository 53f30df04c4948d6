/**
 * More cases for the rules about how steps and evaluators are imported and called (package rule 9): what is not a steps
 * or evaluators import, type-only imports, calls that do not run while the module loads, and renamed bindings.
 */
import { describe, expect, it } from 'vitest';
import { rule as importStyle } from '../src/rules/steps/import-style.js';
import { rule as noTopLevelCall } from '../src/rules/steps/no-top-level-call.js';
import { lint, positions, type LintOptions } from './rule-tester.js';

const WITH_STEPS: LintOptions = {
  role: 'workflow',
  imports: { './steps.js': 'steps', './evaluators.js': 'evaluators', './shared.js': 'shared-steps', './util.js': null },
};
const TS: LintOptions = { ...WITH_STEPS, file: '/pkg/hello/workflow.ts' };

describe('steps/import-style', () => {
  it.each([
    ['async function f(n) { return import(n); }', WITH_STEPS],
    ["import('./util.js');\nexport * from './util.js';", WITH_STEPS],
    ["const a = require(name);\nconst b = require('./util.js');\nconst { default: c } = require('./util.js');", WITH_STEPS],
    ["const { greet, ...rest } = require('./steps.js');", WITH_STEPS],
    ["import type * as S from './steps.js';\nexport type * from './evaluators.js';\nimport type D from './shared.js';", TS],
    ["import { greet } from './shared.js';\nexport { judge } from './evaluators.js';", WITH_STEPS],
  ] as const)('valid: %s', (code, options) => {
    expect(positions(importStyle, code, options)).toEqual([]);
  });

  it.each([
    ["import tools from './shared.js';", ['defaultImport@1:8']],
    ["export * from './evaluators.js';\nexport * from './shared.js';", ['exportAll@1:1', 'exportAll@2:1']],
    ["const e = require('./evaluators.js');\nlet s;\ns = require('./shared.js');", ['requireNotDestructured@1:11', 'requireNotDestructured@3:5']],
    ["const [g] = require('./steps.js');", ['requireNotDestructured@1:13']],
    ["import * as all from './evaluators.js';\nimport def, * as ns from './util.js';", ['namespaceImport@1:8']],
  ] as const)('invalid: %s', (code, errors) => {
    expect(positions(importStyle, code, WITH_STEPS)).toEqual(errors);
  });
});

describe('steps/import-style: workflow code imports only steps and evaluators from their files', () => {
  const EXPORTS: LintOptions = {
    ...WITH_STEPS,
    exports: {
      './steps.js': { greet: 'activity', useHidden: 'function', LIMIT: 'value', condenze: 'missing', Options: 'unknown' },
      './evaluators.js': { judge: 'activity', weights: 'value' },
    },
  };

  it('reports a helper, a constant and a name the file does not export, each at its specifier', () => {
    expect(
      positions(importStyle, "import { greet, useHidden, LIMIT, condenze } from './steps.js';\nimport { judge, weights } from './evaluators.js';", EXPORTS),
    ).toEqual(['notActivity@1:17', 'notActivity@1:28', 'missingExport@1:35', 'notActivity@2:17']);
    const [helper] = lint(importStyle, "import { useHidden } from './steps.js';", EXPORTS);
    expect(helper?.message).toBe(
      'Workflow code imports `useHidden` from the steps or evaluators file "./steps.js", which exports it as a function, not a step or evaluator: the workflow bundle holds only the steps and evaluators of that file, so the import fails to bundle.',
    );
  });

  it('leaves steps, names the facts cannot tell, type imports, and steps files importing from each other alone', () => {
    expect(positions(importStyle, "import { greet, Options } from './steps.js';", EXPORTS)).toEqual([]);
    expect(
      positions(importStyle, "import { type LIMIT } from './steps.js';\nimport type { useHidden } from './steps.js';", {
        ...EXPORTS,
        file: '/pkg/hello/workflow.ts',
      }),
    ).toEqual([]);
    expect(
      positions(importStyle, "import { useHidden, LIMIT } from './steps.js';", { ...EXPORTS, role: 'evaluators', file: '/pkg/hello/evaluators.js' }),
    ).toEqual([]);
  });
});

describe('steps/no-top-level-call', () => {
  it.each([
    ["import { greet } from './steps.js';\nexport const r = [1].map(() => greet(1));", WITH_STEPS],
    ["const { greet } = require('./util.js');\ngreet(1);", WITH_STEPS],
    ["import type { Greet } from './steps.js';\nimport { type Judge } from './evaluators.js';\ndeclare const Greet: () => void;\nGreet();", TS],
    ["import { greet } from './util.js';\nconst { judge } = require('./util.js');\ngreet(1);\njudge(2);", WITH_STEPS],
  ] as const)('valid: %s', (code, options) => {
    expect(positions(noTopLevelCall, code, options)).toEqual([]);
  });

  it.each([
    ["import { greet as g } from './steps.js';\ng(1);", ['topLevelCall@2:1']],
    ["import { greet } from './steps.js';\nexport default greet('x');", ['topLevelCall@2:16']],
    ["import { greet } from './steps.js';\nfor (const x of [1]) greet(x);", ['topLevelCall@2:22']],
    ["import { tool } from './shared.js';\nconst { judge: j } = require('./evaluators.js');\ntool(1);\nj(2);", ['topLevelCall@3:1', 'topLevelCall@4:1']],
    [
      "import { step } from '@skein/core';\nexport const { a } = { a: step({ name: 'a', fn: () => 1 }) };\nconst b = step({ name: 'b', fn: () => 1 });\nb();",
      ['topLevelCall@4:1'],
    ],
  ] as const)('invalid: %s', (code, errors) => {
    expect(positions(noTopLevelCall, code, WITH_STEPS)).toEqual(errors);
  });

  it('names the kind: a step for steps files, an evaluator for evaluators files', () => {
    const message = (code: string) => lint(noTopLevelCall, code, WITH_STEPS).map((d) => d.message);
    expect(message("import { judge } from './evaluators.js';\njudge(1);")).toEqual([expect.stringContaining('evaluator `judge`')]);
    expect(message("import { tool } from './shared.js';\ntool(1);")).toEqual([expect.stringContaining('step `tool`')]);
  });
});
