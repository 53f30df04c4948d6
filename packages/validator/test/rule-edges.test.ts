/**
 * Edges of the file rules and their shared AST helpers (rules/util): which `@skein/core` bindings a file has, which
 * calls define a step, evaluator or workflow, which file roles hold activities, which step bindings
 * `steps/no-top-level-call` tracks (named imports and destructured `require` of steps and evaluators files only), and
 * the operand forms `workflow/no-node-globals` and `workflow/no-nondeterministic-apis` tell apart.
 */
import { describe, expect, it } from 'vitest';
import { mergeVisitors, parseSource, walk, type RulePath } from '@skein/discovery';
import type { CallExpression } from '@babel/types';
import { coreBindings, definitionKind, isActivityImport, isActivityRole, isModuleTopLevel } from '../src/rules/util/ast.js';
import { rule as importStyle } from '../src/rules/steps/import-style.js';
import { rule as namedExportsOnly } from '../src/rules/steps/named-exports-only.js';
import { rule as noTopLevelCall } from '../src/rules/steps/no-top-level-call.js';
import { rule as noNodeGlobals } from '../src/rules/workflow/no-node-globals.js';
import { rule as noNondeterministicApis } from '../src/rules/workflow/no-nondeterministic-apis.js';
import { lint, positions, type LintOptions } from './rule-tester.js';

function program(code: string, file = '/pkg/a.ts') {
  const { ast, errors } = parseSource(code, file);
  expect(errors).toEqual([]);
  return ast!;
}

/** `coreBindings` of a module, as sorted `local=imported` and `* local` strings. */
function bindings(code: string): string[] {
  const b = coreBindings(program(code).program);
  return [...[...b.named].map(([local, imported]) => `${local}=${imported}`), ...[...b.namespaces].map((n) => `* ${n}`)].sort();
}

/** `definitionKind` of every call of a module, in traversal order. */
function kinds(code: string): (string | null)[] {
  const ast = program(code);
  const b = coreBindings(ast.program);
  const out: (string | null)[] = [];
  walk(ast, mergeVisitors([{ CallExpression: (path: RulePath<CallExpression>) => void out.push(definitionKind(path.node, b, path)) }]));
  return out;
}

describe('coreBindings', () => {
  it('binds named, renamed, string-named and namespace imports of @skein/core and its subpaths', () => {
    expect(bindings("import { step, workflow as wf, 'evaluator' as ev } from '@skein/core';\nimport * as core from '@skein/core/authoring';\n")).toEqual([
      '* core',
      'ev=evaluator',
      'step=step',
      'wf=workflow',
    ]);
  });

  it('ignores type-only imports, default imports and other modules', () => {
    expect(
      bindings(
        "import type { step } from '@skein/core';\nimport core from '@skein/core';\nimport { workflow } from 'other';\nimport * as x from '@skein/corex';\n",
      ),
    ).toEqual([]);
  });

  it('binds `require` of @skein/core to a namespace or destructured names', () => {
    expect(bindings("const core = require('@skein/core');\nconst { step, workflow: wf } = require('@skein/core/authoring');\n")).toEqual([
      '* core',
      'step=step',
      'wf=workflow',
    ]);
  });

  it('ignores other requires and other declarations', () => {
    const code = [
      'let empty;',
      "const a = load('@skein/core');",
      "const b = require.resolve('@skein/core');",
      'const c = require(name);',
      'const d = require();',
      "const e = require('other');",
      "const [f] = require('@skein/core');",
      "const { ...g } = require('@skein/core');",
      "const { step: { h } } = require('@skein/core');",
      "const { ['workflow']: i } = require('@skein/core');",
      "const j = 'x' + require('@skein/core');",
      '',
    ].join('\n');
    expect(bindings(code)).toEqual([]);
  });
});

describe('definitionKind', () => {
  it('names the definition function a call invokes, through named, renamed and namespace bindings', () => {
    const code =
      "import { step, workflow as wf } from '@skein/core';\nimport * as core from '@skein/core';\nstep({});\nwf({});\ncore.evaluator({});\ncore['step']({});\nother({});\n";
    expect(kinds(code)).toEqual(['step', 'workflow', 'evaluator', 'step', null]);
  });

  it('answers null for a shadowed binding, a computed or numeric member, and members of non-namespaces', () => {
    const code = [
      "import { step } from '@skein/core';",
      "import * as core from '@skein/core';",
      'function f(step) { return step({}); }',
      'core[name]({});',
      'core[0]({});',
      'other.step({});',
      'a.core.step({});',
      '',
    ].join('\n');
    expect(kinds(code)).toEqual([null, null, null, null, null]);
  });
});

describe('roles and imports that hold activities (package rule 9)', () => {
  it('steps, evaluators and their shared folders hold activities; workflow code and other files do not', () => {
    expect(['steps', 'evaluators', 'shared-steps', 'shared-evaluators'].map((r) => isActivityRole(r as never))).toEqual([true, true, true, true]);
    expect(['workflow', 'workflow-code', 'other', null, undefined].map((r) => isActivityRole(r as never))).toEqual([false, false, false, false, false]);
  });

  it('an import holds activities only when it resolves to such a file', () => {
    expect(isActivityImport({ kind: 'file', path: '/pkg/a/steps.js', role: 'shared-evaluators', inPackage: true } as never)).toBe(true);
    expect(isActivityImport({ kind: 'file', path: '/pkg/a/util.js', role: null, inPackage: true } as never)).toBe(false);
    expect(isActivityImport({ kind: 'unresolved' } as never)).toBe(false);
  });
});

describe('isModuleTopLevel', () => {
  it('is false inside functions and instance field initializers (private ones too), true in static ones', () => {
    const code = 'run(1);\nfunction f() { run(2); }\nclass A { a = run(3); #b = run(4); static d = run(6); }\n';
    const ast = program(code);
    const out: string[] = [];
    walk(
      ast,
      mergeVisitors([
        {
          CallExpression: (path: RulePath<CallExpression>) => void out.push(`${(path.node.arguments[0] as { value: number }).value}:${isModuleTopLevel(path)}`),
        },
      ]),
    );
    expect(out).toEqual(['1:true', '2:false', '3:false', '4:false', '6:true']);
  });
});

describe('steps/no-top-level-call: which bindings are steps', () => {
  const OPTIONS: LintOptions = {
    role: 'workflow',
    imports: { './steps.js': 'steps', './evaluators.js': 'evaluators', './shared/evaluators/j.js': 'shared-evaluators', './util.js': null },
  };

  it('names the kind from the file the binding comes from', () => {
    const kindOf = (code: string) => lint(noTopLevelCall, code, OPTIONS).map((d) => d.data?.kind);
    expect(kindOf("import { greet } from './steps.js';\ngreet(1);")).toEqual(['step']);
    expect(kindOf("import { judge } from './evaluators.js';\njudge(1);")).toEqual(['evaluator']);
    expect(kindOf("const { judge } = require('./shared/evaluators/j.js');\njudge(1);")).toEqual(['evaluator']);
    expect(kindOf("import { step } from '@skein/core';\nconst e = step({ name: 'e' });\ne(1);")).toEqual(['step']);
  });

  it('tracks named imports and destructured requires, not default imports, type-only imports, whole modules or other calls', () => {
    const none = [
      "import greet from './steps.js';\ngreet(1);",
      "const steps = require('./steps.js');\nsteps(1);",
      "const { greet } = load('./steps.js');\ngreet(1);",
      'const { greet } = require();\ngreet(1);',
      'const { greet } = require(name);\ngreet(1);',
      "const { greet } = require('./util.js');\ngreet(1);",
      "import { step } from '@skein/core';\nconst [a] = step({ name: 'a' });\na(1);",
    ];
    for (const code of none) expect(positions(noTopLevelCall, code, OPTIONS), code).toEqual([]);
    expect(
      positions(noTopLevelCall, "import { type greet, wave } from './steps.js';\ngreet(1);\nwave(2);", { ...OPTIONS, file: '/pkg/hello/workflow.ts' }),
    ).toEqual(['topLevelCall@3:1']);
    expect(positions(noTopLevelCall, "const { greet, ...rest } = require('./steps.js');\ngreet(1);\nrest.wave(2);", OPTIONS)).toEqual(['topLevelCall@2:1']);
  });

  it('does not take a function a steps file declares (a factory of steps, a helper) for a step', () => {
    const factories = { ...OPTIONS, functions: { './steps.js': ['lookupStep', 'format'] } };
    const code = [
      "import { lookupStep, format, greet } from './steps.js';",
      "const { lookupStep: make, greet: hello } = require('./steps.js');",
      "export const fetchUser = lookupStep('fetchUser', '/users');",
      "export const fetchOrders = make('fetchOrders', '/orders');",
      "const label = format('x');",
      'greet(1);',
      'hello(2);',
    ].join('\n');
    expect(positions(noTopLevelCall, code, factories)).toEqual(['topLevelCall@6:1', 'topLevelCall@7:1']);
    // Without the answer (the export is not a declared function, or the module cannot be read), every name is a step.
    expect(positions(noTopLevelCall, code, OPTIONS)).toEqual([
      'topLevelCall@3:26',
      'topLevelCall@4:28',
      'topLevelCall@5:15',
      'topLevelCall@6:1',
      'topLevelCall@7:1',
    ]);
  });
});

describe('global references', () => {
  it('a `typeof` operand is a feature test; other unary operands are uses', () => {
    expect(positions(noNondeterministicApis, 'const a = typeof WeakRef;\nconst b = !WeakRef;\nconst c = -FinalizationRegistry;')).toEqual([
      'forbidden@2:12',
      'forbidden@3:12',
    ]);
    expect(positions(noNodeGlobals, 'const a = typeof process;\nconst b = !process;')).toEqual(['nodeGlobal@2:12']);
  });

  it('only a `require(…)` call with a computed specifier is a dynamic require, not `new require(…)`', () => {
    expect(positions(noNodeGlobals, 'const a = new require(name);\nconst b = require(name);')).toEqual(['dynamicRequire@2:11']);
  });
});

describe('steps/import-style: which imports of a steps file are not by name', () => {
  const OPTIONS: LintOptions = { role: 'workflow', imports: { './steps.js': 'steps', './util.js': null } };

  it('a string-named `default` is a default import, in `import` and in a destructured `require`', () => {
    expect(positions(importStyle, "import { 'default' as s, greet } from './steps.js';", OPTIONS)).toEqual(['defaultImport@1:10']);
    expect(positions(importStyle, "const { 'default': s } = require('./steps.js');", OPTIONS)).toEqual(['requireNotDestructured@1:26']);
    expect(positions(importStyle, "const { greet, default: d } = require('./steps.js');", OPTIONS)).toEqual(['requireNotDestructured@1:31']);
  });

  it('only a require or import() of a steps file with a static path counts', () => {
    const none = [
      "async function f() { return [import(name), import('./util.js'), import(`./steps.js`)]; }",
      "const { greet } = load('./steps.js');",
      'const a = require();\nconst b = require(name);',
      "const { greet } = require('./util.js');",
      "const { [key]: g, greet } = require('./steps.js');",
    ];
    for (const code of none) expect(positions(importStyle, code, OPTIONS), code).toEqual([]);
    expect(positions(importStyle, "use(require('./steps.js'));", OPTIONS)).toEqual(['requireNotDestructured@1:5']);
  });
});

describe('steps/named-exports-only: what a finding names', () => {
  it('names the role, the namespace and its source of an `export * as`', () => {
    const [d] = lint(namedExportsOnly, "export * as 'my ns' from './more.js';", { role: 'shared-steps', file: '/pkg/shared/steps/x.js' });
    expect(d).toMatchObject({ messageId: 'exportNamespace', data: { role: 'shared steps', name: 'my ns', source: '"./more.js"' } });
    const [e] = lint(namedExportsOnly, "export * as ns from './more.js';", { role: 'evaluators', file: '/pkg/hello/evaluators.js' });
    expect(e).toMatchObject({ messageId: 'exportNamespace', data: { role: 'evaluators', name: 'ns', source: '"./more.js"' } });
  });
});
