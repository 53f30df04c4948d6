/**
 * `workflow/no-node-modules` on temporary packages, for the forms its fixture does not show: a scoped dependency
 * named in the finding, and a workflow file that another workflow file imports (followed once, from its own entry).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../src/index.js';
import { writeTree } from './helpers.js';

let tmp: string;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skein-validator-node-modules-')));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const WORKFLOW = "import { workflow } from '@skein/core';\n";

function pkg(name: string, files: Record<string, string>): string {
  return writeTree(path.join(tmp, name), { 'package.json': JSON.stringify({ name, version: '1.0.0', type: 'module', private: true }), ...files });
}

/** `file:line:column messageId data` of each no-node-modules finding. */
async function findings(root: string): Promise<string[]> {
  const report = await validate(root);
  return report.diagnostics
    .filter((d) => d.ruleId === 'workflow/no-node-modules')
    .map((d) => `${path.relative(root, d.file)}:${d.line}:${d.column} ${d.messageId} ${JSON.stringify(d.data)}`);
}

describe('workflow/no-node-modules', () => {
  it('names a scoped dependency by its scope and name', async () => {
    const root = pkg('scoped', {
      'hello/workflow.js': `${WORKFLOW}import { pad } from '@acme/pad';\nexport default workflow({ name: 'hello', fn: async (i) => pad(i) });\n`,
      'node_modules/@acme/pad/package.json': JSON.stringify({ name: '@acme/pad', version: '1.0.0', type: 'module', main: 'index.js' }),
      'node_modules/@acme/pad/index.js': "import * as fs from 'node:fs';\nexport const pad = (s) => (fs ? s : s);\n",
    });
    expect(await findings(root)).toEqual([
      'hello/workflow.js:2:21 dependencyImport ' +
        JSON.stringify({ module: 'fs', chain: 'hello/workflow.js → node_modules/@acme/pad/index.js → fs', dependency: '@acme/pad' }),
    ]);
  });

  it('follows the package.json imports of the package (#lib/x.js), to its files, a dependency or a built-in', async () => {
    const root = pkg('subpath-imports', {
      'package.json': JSON.stringify({
        name: 'subpath-imports',
        version: '1.0.0',
        type: 'module',
        private: true,
        // `#fs`: the bundler takes the first of its conditions in the object's order (`browser` here), as Node does.
        imports: { '#lib/*': './lib/*', '#pad': '@acme/pad', '#fs': { node: './lib/clock.js', browser: './lib/shim.js', import: 'node:fs' } },
      }),
      'hello/workflow.js': `${WORKFLOW}import { stamp } from '#lib/clock.js';\nexport default workflow({ name: 'hello', fn: async (i) => stamp(i) });\n`,
      'lib/clock.js': "import { readFileSync } from 'node:fs';\nexport const stamp = (s) => (readFileSync ? s : s);\n",
      'lib/shim.js': 'export const readFileSync = undefined;\n',
      // A folder with a package.json of its own: its files' # imports are that package.json's (none here).
      'vendored/package.json': JSON.stringify({ type: 'module' }),
      'vendored/util.js': "import { x } from '#lib/clock.js';\nexport const y = x;\n",
      'vendored/workflow.js': `${WORKFLOW}import { y } from './util.js';\nexport default workflow({ name: 'vendored', fn: async (i) => (y ? i : i) });\n`,
      'pad/workflow.js': `${WORKFLOW}import { pad } from '#pad';\nimport * as fs from '#fs';\nexport default workflow({ name: 'pad', fn: async (i) => (fs ? pad(i) : i) });\n`,
      'node_modules/@acme/pad/package.json': JSON.stringify({ name: '@acme/pad', version: '1.0.0', type: 'module', main: 'index.js' }),
      'node_modules/@acme/pad/index.js': "import * as os from 'node:os';\nexport const pad = (s) => (os ? s : s);\n",
    });
    expect(await findings(root)).toEqual([
      'lib/clock.js:1:30 ownImport ' + JSON.stringify({ module: 'fs', chain: 'hello/workflow.js → lib/clock.js → fs' }),
      'pad/workflow.js:2:21 dependencyImport ' +
        JSON.stringify({ module: 'os', chain: 'pad/workflow.js → node_modules/@acme/pad/index.js → os', dependency: '@acme/pad' }),
    ]);
  });

  it('follows a workflow file imported by another workflow file once, from its own entry', async () => {
    const root = pkg('two-workflows', {
      'a/workflow.js': `${WORKFLOW}import * as fs from 'node:fs';\nexport default workflow({ name: 'a', fn: async (i) => (fs ? i : i) });\n`,
      'b/workflow.js': `${WORKFLOW}import a from '../a/workflow.js';\nexport default workflow({ name: 'b', fn: async (i) => (a ? i : i) });\n`,
    });
    expect(await findings(root)).toEqual(['a/workflow.js:2:21 ownImport ' + JSON.stringify({ module: 'fs', chain: 'a/workflow.js → fs' })]);
  });

  it('reports the Node-only entries of @skein/core in workflow code, and allows the rest of the authoring surface', async () => {
    const root = pkg('core-surface', {
      'hello/workflow.ts':
        "import { workflow, Logger, sendHttpRequest, sendPostRequestAndAwaitWebhook, EvaluationBooleanResult } from '@skein/core';\n" +
        "import { Objects } from '@skein/core/sdk/helpers';\n" +
        "import { Context } from '@skein/core/sdk/runtime';\n" +
        "import { createTemporalClient } from '@skein/core/temporal';\n" +
        "import { on } from '@skein/core/hooks';\n" +
        'export default workflow({ name: "hello", fn: async () => [Logger, sendHttpRequest, sendPostRequestAndAwaitWebhook, EvaluationBooleanResult, Objects, Context, createTemporalClient, on] });\n',
      // Steps and hook files run in Node: the same imports are fine there.
      'hello/steps.ts':
        "import { step, Logger } from '@skein/core';\nimport { Context, Event } from '@skein/core/sdk/runtime';\nimport { getCurrentWorkflowHandle } from '@skein/core/temporal';\n" +
        'export const s = step({ name: "s", fn: async () => [Logger, Context, Event, getCurrentWorkflowHandle] });\n',
    });
    // Each at its specifier (line:column), nothing for the root entry, `./sdk/helpers` or the steps file.
    expect(await findings(root)).toEqual(
      (
        [
          ['@skein/core/sdk/runtime', '3:25'],
          ['@skein/core/temporal', '4:38'],
          ['@skein/core/hooks', '5:20'],
        ] as const
      ).map(([module, at]) => `hello/workflow.ts:${at} nodeOnlyEntry ` + JSON.stringify({ module, chain: `hello/workflow.ts → ${module}` })),
    );
  });
});
