/**
 * `conventions/misplaced-definition` names the file to move a definition to: the convention file
 * beside it with the same extension, or the `steps/` / `evaluators/` folder a file is nested too deep in.
 */
import { describe, expect, it } from 'vitest';
import { rule as misplacedDefinition } from '../src/rules/conventions/misplaced-definition.js';
import { lint } from './rule-tester.js';

/** The hint for `code` in `file`, whose folder holds a workflow file (`workflow` and the file's extension). */
const hintFor = (code: string, file: string, workflowBeside = true) => {
  const imports = workflowBeside ? { [`./workflow${/\.[mc]?[jt]s$/.exec(file)?.[0] ?? '.js'}`]: 'workflow' as const } : {};
  return lint(misplacedDefinition, code, { role: 'other', file, imports }).map((d) => `${d.messageId}: ${d.hint}`);
};

describe('conventions/misplaced-definition hints', () => {
  it.each([
    [
      "import { step } from '@skein/core';\nexport const s = step({ name: 's' });",
      '/pkg/greet/utils.ts',
      'activity: Move it to greet/steps.ts (or to shared/steps/ to share it between workflows) and import it from there.',
    ],
    [
      "import { evaluator } from '@skein/core';\nexport const e = evaluator({ name: 'e' });",
      '/pkg/lib/util.mjs',
      'activity: Move it to lib/evaluators.mjs (or to shared/evaluators/ to share it between workflows) and import it from there.',
    ],
    [
      "import { step } from '@skein/core';\nexport const s = step({ name: 's' });",
      '/pkg/greet/steps/deep/x.ts',
      'activity: Move it to greet/steps/x.ts (or to shared/steps/ to share it between workflows) and import it from there.',
    ],
    [
      "import { workflow } from '@skein/core';\nexport default workflow({ name: 'w' });",
      '/pkg/shared/common.js',
      'workflow: Move it to shared/workflow.js as its default export (one workflow per folder).',
    ],
    [
      "import { workflow } from '@skein/core';\nexport default workflow({ name: 'w' });",
      '/pkg/flows/steps/deep/w.mts',
      'workflow: Move it to flows/steps/deep/workflow.mts as its default export (one workflow per folder).',
    ],
    [
      "import { workflow } from '@skein/core';\nexport default workflow({ name: 'w' });",
      '/pkg/flows/workflow/util.js',
      'workflow: Move it to flows/workflow/workflow.js as its default export (one workflow per folder).',
    ],
    [
      "import { step } from '@skein/core';\nexport const s = step({ name: 's' });",
      '/pkg/greet/utils.jsdom.ts',
      'activity: Move it to greet/steps.ts (or to shared/steps/ to share it between workflows) and import it from there.',
    ],
    [
      "const { step } = require('@skein/core');\nexports.s = step({ name: 's' });\nreturn;",
      '/pkg/lib/util.cjs',
      'activity: Move it to lib/steps.cjs (or to shared/steps/ to share it between workflows) and import it from there.',
    ],
  ])('%s in %s', (code, file, hint) => {
    expect(hintFor(code, file)).toEqual([hint]);
  });

  it('in a folder without a workflow file, points at the steps file beside the workflow that calls it, not a file beside it', () => {
    const step = "import { step } from '@skein/core';\nexport const s = step({ name: 's' });";
    expect(hintFor(step, '/pkg/src/lib/helpers.ts', false)).toEqual([
      "activityNoWorkflow: Move it to the steps file beside the workflow that calls it (steps.ts in that workflow's folder), or to shared/steps/ to share it between workflows, and import it from there.",
    ]);
    const evaluator = "import { evaluator } from '@skein/core';\nexport const e = evaluator({ name: 'e' });";
    expect(hintFor(evaluator, '/pkg/lib/util.mjs', false)).toEqual([
      "activityNoWorkflow: Move it to the evaluators file beside the workflow that calls it (evaluators.mjs in that workflow's folder), or to shared/evaluators/ to share it between workflows, and import it from there.",
    ]);
    // A file nested below a steps/ folder moves into that folder, whatever sits beside it.
    expect(hintFor(step, '/pkg/greet/steps/deep/x.ts', false)).toEqual([
      'activity: Move it to greet/steps/x.ts (or to shared/steps/ to share it between workflows) and import it from there.',
    ]);
  });

  it('names the file and what it is not', () => {
    const [d] = lint(misplacedDefinition, "import { evaluator } from '@skein/core';\nexport const e = evaluator({ name: 'e' });", {
      role: 'workflow-code',
      file: '/pkg/greet/helpers.js',
    });
    expect(d?.message).toBe(
      'evaluator() is defined in greet/helpers.js, which is not an evaluators file; it is never registered as an activity and calling it fails at run time.',
    );
    expect(d?.severity).toBe('error');
  });
});
