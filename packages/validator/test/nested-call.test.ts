/**
 * `steps/no-nested-call`: what a step's or evaluator's `fn` calls (a step or evaluator defined in the file or
 * imported by name, a workflow), and what it may call (a helper the steps file declares, a shadowing local, code
 * outside any `fn`).
 */
import { describe, expect, it } from 'vitest';
import { rule } from '../src/rules/steps/no-nested-call.js';
import { lint, positions, type LintOptions } from './rule-tester.js';

const STEPS: LintOptions = {
  role: 'steps',
  file: '/pkg/hello/steps.js',
  imports: { './other.js': 'shared-steps', './evaluators.js': 'evaluators', './workflow.js': 'workflow', './util.js': null },
  functions: { './other.js': ['makeStep'] },
};
const STEP = "import { step } from '@skein/core';\n";

describe('steps/no-nested-call', () => {
  it.each([
    [`${STEP}export const a = step({ name: 'a', fn: async () => 1 });\nexport const b = step({ name: 'b', fn: async () => a() });`, ['activity@3:52']],
    [`${STEP}import { fetchPage } from './other.js';\nexport const b = step({ name: 'b', fn: async (u) => fetchPage(u) });`, ['activity@3:53']],
    [
      `${STEP}import { judge } from './evaluators.js';\nexport const b = step({ name: 'b', async fn(x) { return [1].map(() => judge(x)); } });`,
      ['activity@3:71'],
    ],
    [`${STEP}import hello from './workflow.js';\nexport const b = step({ name: 'b', fn: function (x) { return hello(x); } });`, ['workflow@3:62']],
  ] as const)('reports: %s', (code, expected) => {
    expect(positions(rule, code, STEPS)).toEqual(expected);
  });

  it('names the callee and what it is called in', () => {
    const [finding] = lint(rule, `${STEP}import { judge } from './evaluators.js';\nexport const b = step({ name: 'b', fn: async (x) => judge(x) });`, STEPS);
    expect(finding?.message).toBe(
      'The evaluator `judge` is called inside the fn of a step: there it runs as a plain function inside this activity, with no activity of its own (no retries, no timeout, no node in the trace).',
    );
  });

  it.each([
    // A function the steps file declares: a helper or a factory of steps.
    `${STEP}import { makeStep } from './other.js';\nexport const b = step({ name: 'b', fn: async () => makeStep('x') });`,
    // A plain module, and a local that shadows the step.
    `${STEP}import { helper } from './util.js';\nexport const a = step({ name: 'a', fn: async () => 1 });\nexport const b = step({ name: 'b', fn: async () => { const a = () => 2; return helper(a()); } });`,
    // Outside any fn (no-top-level-call's concern), and in a function that is not a definition's fn.
    `${STEP}export const a = step({ name: 'a', fn: async () => 1 });\nexport function later() { return a(); }`,
    // A workflow file's named export is a helper, not its workflow (its default export).
    `${STEP}import { normalize } from './workflow.js';\nexport const b = step({ name: 'b', fn: async (x) => normalize(x) });`,
    // A type-only import.
    `${STEP}import type { Judge } from './evaluators.js';\nexport const b = step({ name: 'b', fn: async (j: Judge) => j() });`,
  ])('leaves alone: %s', (code) => {
    expect(positions(rule, code, { ...STEPS, file: code.includes('import type') ? '/pkg/hello/steps.ts' : '/pkg/hello/steps.js' })).toEqual([]);
  });
});
