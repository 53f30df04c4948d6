/**
 * Valid and invalid code for each file rule, asserting message id, line and column (typescript-eslint's
 * RuleTester habit). Fixture packages cover the same rules end to end in rules.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { rule as misplacedDefinition } from '../src/rules/conventions/misplaced-definition.js';
import { rule as importStyle } from '../src/rules/steps/import-style.js';
import { rule as namedExportsOnly } from '../src/rules/steps/named-exports-only.js';
import { rule as noTopLevelCall } from '../src/rules/steps/no-top-level-call.js';
import { rule as noNodeGlobals } from '../src/rules/workflow/no-node-globals.js';
import { rule as noNondeterministicApis } from '../src/rules/workflow/no-nondeterministic-apis.js';
import type { FileRule } from '../src/types.js';
import { lint, positions, type LintOptions } from './rule-tester.js';

/** A valid case: code, or code with its own options (a TypeScript case needs a `.ts` file to parse). */
type ValidCase = string | { code: string; options: LintOptions };

interface Cases {
  rule: FileRule;
  options?: LintOptions;
  valid: ValidCase[];
  invalid: { code: string; errors: string[]; options?: LintOptions }[];
}

const STEPS: LintOptions = { role: 'steps', file: '/pkg/hello/steps.js' };
const WITH_STEPS: LintOptions = { role: 'workflow', imports: { './steps.js': 'steps', './evaluators.js': 'evaluators', './util.js': null } };

const SUITES: Cases[] = [
  {
    rule: namedExportsOnly,
    options: STEPS,
    valid: [
      "import { step } from '@skein/core';\nexport const a = step({ name: 'a', fn: () => 1 });",
      "export { a, b as c } from './other.js';",
      { code: "export type * from './types.js';", options: { role: 'steps', file: '/pkg/hello/steps.ts' } },
      'function f() { module.exports = 1; }',
      'const module = { exports: {} };\nmodule.exports = 1;',
      "module['exports'] = 1;\nexports.a = 1;",
      "const other = {};\nother.exports = 1;\nmodule.id = 'x';",
      'export const a = 1;\nexport { a as b };',
      'let count = 0;\ncount = 1;\n[count] = [2];\nexport { count };',
    ],
    invalid: [
      { code: "export default step({ name: 'a' });", errors: ['default@1:1'] },
      { code: "const a = 1;\nexport * from './more.js';", errors: ['exportAll@2:1'] },
      { code: "export * as ns from './more.js';", errors: ['exportNamespace@1:1'] },
      { code: 'module.exports = { a: 1 };', errors: ['commonjs@1:1'] },
      { code: 'export default 1;', errors: ['default@1:1'], options: { role: 'shared-evaluators', file: '/pkg/shared/evaluators/x.js' } },
      {
        code: "const a = 1;\nexport { a as default };\nexport * as ns from './more.js';\nexport * from './all.js';",
        errors: ['exportNamespace@3:1', 'exportAll@4:1'],
      },
      { code: 'if (true) { module.exports = 1; }', errors: ['commonjs@1:13'], options: { role: 'evaluators', file: '/pkg/hello/evaluators.js' } },
    ],
  },
  {
    rule: importStyle,
    options: WITH_STEPS,
    valid: [
      "import { greet, wave as w } from './steps.js';",
      "const { greet } = require('./steps.js');",
      "import util from './util.js';\nimport * as u2 from './util.js';",
      { code: "import type Steps from './steps.js';", options: { ...WITH_STEPS, file: '/pkg/hello/workflow.ts' } },
      { code: "import { type Greet, greet } from './steps.js';\nexport type { Greet };", options: { ...WITH_STEPS, file: '/pkg/hello/workflow.ts' } },
      "export { greet } from './steps.js';",
    ],
    invalid: [
      { code: "import steps from './steps.js';", errors: ['defaultImport@1:8'] },
      { code: "import judge, { other } from './evaluators.js';", errors: ['defaultImport@1:8'] },
      { code: "\nimport * as s from './steps.js';", errors: ['namespaceImport@2:8'] },
      { code: "const s = require('./steps.js');", errors: ['requireNotDestructured@1:11'] },
      { code: "const g = require('./steps.js').greet;", errors: ['requireNotDestructured@1:11'] },
      { code: "export * from './steps.js';", errors: ['exportAll@1:1'] },
      { code: "import { default as s, greet } from './steps.js';", errors: ['defaultImport@1:10'] },
      { code: "const { default: s } = require('./steps.js');", errors: ['requireNotDestructured@1:24'] },
      { code: "async function f() { return import('./steps.js'); }", errors: ['dynamicImport@1:29'] },
    ],
  },
  {
    rule: noTopLevelCall,
    options: WITH_STEPS,
    valid: [
      "import { greet } from './steps.js';\nexport default workflow({ name: 'w', fn: async () => greet(1) });",
      "import { greet } from './steps.js';\nconst later = () => greet(1);",
      "import { greet } from './util.js';\ngreet(1);",
      "import { greet } from './steps.js';\nfunction g(greet) { return greet(); }\ng(() => 1);",
      "import { greet } from './steps.js';\nclass A { hello = greet('instance'); }",
    ],
    invalid: [
      { code: "import { greet } from './steps.js';\ngreet('x');", errors: ['topLevelCall@2:1'] },
      { code: "import { judge as j } from './evaluators.js';\nconst r = await j(1);", errors: ['topLevelCall@2:17'] },
      { code: "const { greet } = require('./steps.js');\nif (true) { greet(1); }", errors: ['topLevelCall@2:13'] },
      { code: "import { greet } from './steps.js';\nclass A { static hello = greet('load'); }", errors: ['topLevelCall@2:26'] },
      {
        code: "import { step } from '@skein/core';\nexport const a = step({ name: 'a', fn: () => 1 });\na(2);",
        errors: ['topLevelCall@3:1'],
        options: STEPS,
      },
    ],
  },
  {
    rule: noNodeGlobals,
    valid: [
      'const process = { env: {} };\nprocess.env.X = 1;',
      "if (typeof process !== 'undefined') {}",
      "const r = require('./x.js');",
      'function f(fetch) { return fetch(); }',
      'const o = { process: 1, __dirname: 2 };\no.process;',
      'for (const process of []) { process.exit(); }',
      'try { x(); } catch (fetch) { fetch(); }',
      'if (a) { var fetch = 1; }\nfetch();',
      'class A { m(process) { return process.env; } }',
      'const f = function process() { return process; };',
      "import process from './process-shim.js';\nprocess.env.X = 1;",
      'hoisted();\nfunction hoisted() { return __dirname; }\nfunction __dirname() {}',
      'const globalThis = { process: { env: {} } };\nglobalThis.process.env.X = 1;',
      "if (typeof globalThis.process !== 'undefined') {}",
      'globalThis.setTimeout(() => 1);\nconst p = globalThis.processing;\nglobalThis[process_name];',
    ],
    invalid: [
      { code: "process.env.MODE = 'x';", errors: ['processEnvWrite@1:1'] },
      { code: 'delete process.env.MODE;', errors: ['processEnvWrite@1:8'] },
      { code: 'const mode = process.env.MODE;', errors: ['nodeGlobal@1:14'] },
      { code: 'const f = __filename;', errors: ['nodeGlobal@1:11'] },
      { code: 'const m = require(name);', errors: ['dynamicRequire@1:11'] },
      { code: "await fetch('https://x');\nnew XMLHttpRequest();", errors: ['ioGlobal@1:7', 'ioGlobal@2:5'] },
      { code: 'function f() { var process = 1; }\nprocess.exit();', errors: ['nodeGlobal@2:1'] },
      { code: '{ let fetch = 1; }\nfetch();', errors: ['ioGlobal@2:1'] },
      { code: 'const g = () => { const h = (__dirname) => 1; return __filename; };', errors: ['nodeGlobal@1:54'] },
      { code: 'process.env.COUNT++;\n--process.env.LEFT;', errors: ['processEnvWrite@1:1', 'processEnvWrite@2:3'] },
      { code: "const mode = (process.env.MODE = 'x');", errors: ['processEnvWrite@1:15'] },
      { code: 'let x;\nx = process.env.MODE;\nprocess.env = {};\nprocess.exitCode = 1;', errors: ['nodeGlobal@2:5', 'nodeGlobal@3:1', 'nodeGlobal@4:1'] },
      { code: "process.env['MODE'] = 'x';\nprocess['env'].MODE = 'y';", errors: ['processEnvWrite@1:1', 'nodeGlobal@2:1'] },
      { code: 'const r = require;\nrequire(`./${name}.js`);', errors: ['dynamicRequire@2:1'] },
      { code: "new WebSocket('ws://x');", errors: ['ioGlobal@1:5'] },
      { code: '__dirname.env.X = 1;\nprocess.argv.length = 0;\ncache[process.env] = 1;', errors: ['nodeGlobal@1:1', 'nodeGlobal@2:1', 'nodeGlobal@3:7'] },
      { code: 'const t = typeof process.env.MODE;\nvoid process.env.X;', errors: ['nodeGlobal@1:18', 'nodeGlobal@2:6'] },
      { code: 'foo(require);\nrequire();', errors: ['dynamicRequire@2:1'] },
      { code: 'const mode = globalThis.process.env.MODE;', errors: ['nodeGlobal@1:14'] },
      { code: "globalThis.process.env.MODE = 'x';\ndelete globalThis['process'].env.X;", errors: ['processEnvWrite@1:1', 'processEnvWrite@2:8'] },
      { code: 'const d = globalThis?.__dirname;\nglobalThis.process.exit(1);', errors: ['nodeGlobal@1:11', 'nodeGlobal@2:1'] },
      { code: "await globalThis['fetch']('https://x');\nglobalThis.require(name);", errors: ['ioGlobal@1:7', 'dynamicRequire@2:1'] },
      // A computed key that is a variable names no global of its own: only the identifier inside it is a use.
      { code: 'globalThis[process];', errors: ['nodeGlobal@1:12'] },
    ],
  },
  {
    rule: noNondeterministicApis,
    valid: ['const m = new WeakMap();', 'class WeakRef {}\nnew WeakRef();', 'typeof FinalizationRegistry;', 'typeof globalThis.WeakRef;'],
    invalid: [
      { code: 'const r = new WeakRef({});', errors: ['forbidden@1:15'] },
      { code: 'const r = new globalThis.WeakRef({});', errors: ['forbidden@1:15'] },
      { code: '\n  new FinalizationRegistry(() => {});', errors: ['forbidden@2:7'] },
    ],
  },
  {
    rule: misplacedDefinition,
    valid: [
      "import { workflow } from '@skein/core';\nexport default workflow({ name: 'w', fn: async () => 1 });",
      "const step = (x) => x;\nexport const a = step({ name: 'a' });",
      "import { evaluator } from '@skein/core';\nexport function verify(config) {\n  return evaluator({ name: config.name, fn: async () => ({ value: 1 }) });\n}",
    ],
    invalid: [
      {
        code: "import { step } from '@skein/core';\nexport const shout = step({ name: 'shout', fn: async (s: string) => s });",
        errors: ['activity@2:22'],
        options: { role: 'workflow-code', file: '/pkg/greet/utils.ts', imports: { './workflow.ts': 'workflow' } },
      },
      {
        code: "import * as core from '@skein/core';\nexport const v = core.evaluator({ name: 'v', fn: async () => ({ value: 1 }) });",
        errors: ['activityNoWorkflow@2:18'],
        options: { role: 'other', file: '/pkg/lib/verify.js' },
      },
      {
        code: "import { workflow } from '@skein/core';\nexport default workflow({ name: 'common', fn: async () => 1 });",
        errors: ['workflow@2:16'],
        options: { role: 'other', file: '/pkg/shared/common.ts' },
      },
      {
        code: "import { workflow } from '@skein/core';\nexport const w = workflow({ name: 'w', fn: async () => 1 });",
        errors: ['workflow@2:18'],
        options: { role: 'steps', file: '/pkg/greet/steps.js' },
      },
      {
        code: "import { step } from '@skein/core';\nconst inline = step({ name: 'inline', fn: async () => 1 });",
        errors: ['activity@2:16'],
        options: { role: 'workflow', file: '/pkg/greet/workflow.js' },
      },
    ],
  },
];

describe.each(SUITES)('$rule.meta.id', ({ rule, options, valid, invalid }) => {
  it.each(valid.map((c) => (typeof c === 'string' ? { code: c, options } : c)))('valid: $code', ({ code, options: own }) => {
    expect(positions(rule, code, own)).toEqual([]);
  });
  it.each(invalid)('invalid: $code', ({ code, errors, options: own }) => {
    expect(positions(rule, code, own ?? options)).toEqual(errors);
  });
});

describe('engine', () => {
  it('reports a syntax error with its position instead of throwing', () => {
    const out = lint(namedExportsOnly, 'export const = 1;', { role: 'steps', expectParseError: true });
    expect(out).toMatchObject([{ ruleId: 'parse/syntax-error', line: 1, column: 14, severity: 'error' }]);
  });

  it('survives pathologically deep nesting', () => {
    const deep = 'const x = ' + '['.repeat(20_000) + ']'.repeat(20_000) + ';';
    const out = lint(noNodeGlobals, deep, { expectParseError: true });
    expect(out.map((d) => d.ruleId)).toEqual(['parse/syntax-error']);
  });

  it('hints name the file to move a misplaced definition to', () => {
    const [d] = lint(misplacedDefinition, "import { step } from '@skein/core';\nexport const s = step({ name: 's' });", {
      role: 'other',
      file: '/pkg/greet/utils.ts',
      imports: { './workflow.ts': 'workflow' },
    });
    expect(d).toMatchObject({ ruleId: 'conventions/misplaced-definition', severity: 'error', line: 2, column: 18 });
    expect(d?.hint).toContain('greet/steps.ts');
  });

  it('renders messages and hints from the rule meta with data', () => {
    const [d] = lint(noNodeGlobals, 'const f = __dirname;');
    expect(d).toMatchObject({
      ruleId: 'workflow/no-node-globals',
      messageId: 'nodeGlobal',
      data: { name: '__dirname' },
      message: 'Workflow code uses the Node global `__dirname`, which does not exist in the workflow sandbox.',
      packageRule: 12,
    });
    expect(d?.hint).toContain('`__dirname`');
  });

  it('runs only the rules that apply to the file role', () => {
    expect(positions(namedExportsOnly, 'export default 1;', { role: 'workflow' })).toEqual([]);
    expect(positions(noNodeGlobals, 'process.exit();', { role: 'steps' })).toEqual([]);
  });
});
