/**
 * `workflow/no-node-globals` over the ways workflow code reaches Node's globals without naming them: through
 * `globalThis` or Node's `global`, and by destructuring either.
 */
import { describe, expect, it } from 'vitest';
import { rule } from '../src/rules/workflow/no-node-globals.js';
import { positions } from '../src/testing.js';

describe('workflow/no-node-globals through the global object', () => {
  it.each([
    ['globalThis.process.env read', 'const mode = globalThis.process.env.MODE;\n', ['nodeGlobal@1:14']],
    ['globalThis.process.env written', "globalThis.process.env.MODE = 'x';\n", ['processEnvWrite@1:1']],
    ['global.process.env read', 'const mode = global.process.env.MODE;\n', ['nodeGlobal@1:14']],
    [
      'global.process.env written and deleted',
      "global.process.env.MODE = 'x';\ndelete global['process'].env.MODE;\n",
      ['processEnvWrite@1:1', 'processEnvWrite@2:8'],
    ],
    ['global?.fetch called', "await global?.fetch('https://example.com');\n", ['ioGlobal@1:7']],
    ['process taken out of globalThis', 'const { process } = globalThis;\nexport const mode = process.env.MODE;\n', ['nodeGlobal@1:9']],
    ['env taken out of a nested pattern', 'const { process: { env }, fetch: get } = globalThis;\n', ['nodeGlobal@1:9', 'ioGlobal@1:27']],
    ['a string key, out of global, by assignment', "let p;\n({ 'process': p } = global);\n", ['nodeGlobal@2:4']],
    ['global.process negated (only typeof is a feature test)', 'export const notNode = !global.process;\n', ['nodeGlobal@1:25']],
    ['process.env deleted through an optional member', 'delete process.env?.MODE;\n', ['processEnvWrite@1:8']],
    ['process.env written through a parenthesized optional chain', "(process?.env).MODE = 'x';\n", ['processEnvWrite@1:2']],
  ])('%s', (_what, code, expected) => {
    expect(positions(rule, code)).toEqual(expected);
  });

  it.each([
    ['a local global object', 'const global = { process: 1 };\nconst { process } = global;\nexport const x = global.process + process;\n'],
    ['a local globalThis', 'function f(globalThis) { const { process } = globalThis; return process; }\n'],
    ['a feature test', "export const isNode = typeof global.process !== 'undefined';\n"],
    ['other names taken out', 'const { setTimeout, Date: D } = globalThis;\nexport const t = global.setTimeout;\n'],
    ['a require taken out (only computed require calls are reported)', 'const { require: r } = globalThis;\n'],
    ['destructuring something else', 'const { process } = config;\n({ fetch } = options);\n'],
    ['a computed key', 'const { [key]: v } = globalThis;\nconst w = global[key];\n'],
    ['a rest element (it takes the whole object, not a name)', 'const { ...all } = globalThis;\n'],
    ['the global object given another name', 'const g = globalThis;\n'],
    ['destructuring in a for-of head (no initializer)', 'for (const { process } of items) use(process);\n'],
  ])('not %s', (_what, code) => {
    expect(positions(rule, code)).toEqual([]);
  });

  it.each([
    ['Buffer', "export const b = Buffer.from('x');\n", ['nodeGlobal@1:18']],
    ['setInterval', 'setInterval(tick, 1000);\n', ['nodeGlobal@1:1']],
    ['setImmediate and queueMicrotask', 'setImmediate(a);\nqueueMicrotask(b);\n', ['nodeGlobal@1:1', 'nodeGlobal@2:1']],
    ['crypto and performance', 'export const id = crypto.randomUUID() + performance.now();\n', ['nodeGlobal@1:19', 'nodeGlobal@1:41']],
    ['structuredClone and atob', 'export const c = structuredClone(atob(s));\n', ['nodeGlobal@1:18', 'nodeGlobal@1:34']],
  ])("Node's global %s, absent from the sandbox", (_what, code, expected) => {
    expect(positions(rule, code)).toEqual(expected);
  });

  it.each([
    ['what Temporal puts in the sandbox', "export const u = new URL('https://x') && new TextEncoder() && new AbortController() && setTimeout(f, 1);\n"],
    ['an imported crypto (no-node-modules judges the import)', "import crypto from 'node:crypto';\nexport const id = crypto.randomUUID();\n"],
    ['a feature test of Buffer', "export const hasBuffer = typeof Buffer !== 'undefined';\n"],
  ])('not %s', (_what, code) => {
    expect(positions(rule, code)).toEqual([]);
  });

  it('reports a global used as a computed key once, as itself, not as a member of global', () => {
    expect(positions(rule, 'const x = global[fetch];\n')).toEqual(['ioGlobal@1:18']);
  });

  it.each([
    [
      'a step factory in a helper file (its fn runs as an activity)',
      "import { step } from '@skein/core';\nexport function httpStep(name, url) {\n  return step({ name, fn: async (id) => (await fetch(`${url}/${id}`)).json() });\n}\n",
    ],
    [
      'a step fn written as a method',
      "import { step as s } from '@skein/core';\nexport const env = () => s({ name: 'env', fn() { return process.env.MODE; } });\n",
    ],
    [
      'an evaluator fn on a namespace import',
      "import * as core from '@skein/core';\nexport const judge = (n) => core.evaluator({ name: n, fn: async () => { const { fetch: f } = globalThis; return f('x'); } });\n",
    ],
  ])('not inside an activity body: %s', (_what, code) => {
    expect(positions(rule, code)).toEqual([]);
  });

  it.each([
    ["a workflow's fn", "import { workflow } from '@skein/core';\nexport default workflow({ name: 'w', fn: async () => fetch('x') });\n", ['ioGlobal@2:54']],
    ['the fn of another call', "export const t = other({ fn: async () => fetch('x') });\n", ['ioGlobal@1:42']],
    ['a local function named step', "const step = (c) => c;\nexport const t = step({ name: 'x', fn: async () => fetch('x') });\n", ['ioGlobal@2:52']],
    [
      'beside the fn, in the step config',
      "import { step } from '@skein/core';\nexport const t = () => step({ name: process.env.N, fn: async () => 1 });\n",
      ['nodeGlobal@2:37'],
    ],
  ])('still in workflow code: %s', (_what, code, expected) => {
    expect(positions(rule, code)).toEqual(expected);
  });

  it('leaves steps alone', () => {
    expect(positions(rule, 'const { process } = globalThis;\n', { role: 'steps' })).toEqual([]);
  });
});
