/**
 * `imports/missing-export` on temporary projects, for the forms its fixture does not show: TypeScript sources (type-only
 * imports, a type imported without `type`), modules whose exports are not all known (CommonJS, `export =`, an
 * `export *` of a dependency), a steps file's names (reported by `steps/import-style` alone), a file the worker never
 * loads, and a dependency's own imports.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../src/index.js';
import { writeTree } from './helpers.js';

let tmp: string;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skein-validator-missing-export-')));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function project(name: string, files: Record<string, string>): string {
  return writeTree(path.join(tmp, name), { 'package.json': JSON.stringify({ name, version: '1.0.0', type: 'module', private: true }), ...files });
}

/** `file:line:column messageId` of each finding of `ruleId` (default imports/missing-export). */
async function findings(root: string, ruleId = 'imports/missing-export'): Promise<string[]> {
  const report = await validate(root);
  return report.diagnostics.filter((d) => d.ruleId === ruleId).map((d) => `${path.relative(root, d.file)}:${d.line}:${d.column} ${d.messageId}`);
}

const workflow = (imports: string, body = 'input') =>
  `import { workflow } from '@skein/core';\n${imports}\nexport default workflow({ name: 'hello', fn: async (input) => ${body} });\n`;

describe('imports/missing-export', () => {
  it('TypeScript: type-only imports and types imported by name are not reported; a missing value is', async () => {
    const root = project('typescript', {
      'src/hello/workflow.ts': workflow(
        [
          "import type { Options, Gone } from './lib/options.js';",
          "import { type Vanished, Options as Opts, Mode, limit, lmit } from './lib/options.js';",
          "import { Shape } from './lib/options.js';",
        ].join('\n'),
        'String(limit) + String(lmit) + String(Mode.A) + input',
      ),
      'src/hello/lib/options.ts':
        'export interface Options { a: number }\nexport type Shape = { b: string };\nexport enum Mode { A }\nexport const limit = 3;\n',
    });
    expect(await findings(root)).toEqual(['src/hello/workflow.ts:3:55 missing']);
    const [finding] = (await validate(root)).diagnostics.filter((d) => d.ruleId === 'imports/missing-export');
    expect(finding?.message).toBe(
      "\"./lib/options.js\" has no export named 'lmit' (it exports 'limit', 'Options', 'Shape', 'Mode'): the import fails when the module is loaded, so the worker cannot load this module.",
    );
  });

  it('modules whose exports are not all known are not judged: CommonJS, `export =`, a destructured export, `export *` of a dependency', async () => {
    const root = project('open-exports', {
      'hello/workflow.ts': workflow(
        [
          "import { a } from './lib/cjs.cjs';",
          "import { b } from './lib/assign.js';",
          "import { c, zz } from './lib/destructured.js';",
          "import { d } from './lib/star.js';",
        ].join('\n'),
        'String(a) + String(b) + String(c) + String(zz) + String(d) + input',
      ),
      'hello/lib/cjs.cjs': 'module.exports = { a: 1 };\n',
      'hello/lib/assign.ts': 'const value = { b: 2 };\nexport = value;\n',
      'hello/lib/destructured.ts': 'export const { c, zz } = { c: 3, zz: 4 };\n',
      'hello/lib/star.ts': "export * from 'some-dependency';\n",
    });
    expect(await findings(root)).toEqual([]);
  });

  it('a default import of a module with only named exports (and its `export *`, which carries no default) is reported', async () => {
    const root = project('default-import', {
      'hello/workflow.js': workflow("import text from './lib/barrel.js';", 'text + input'),
      'hello/lib/barrel.js': "export * from './text.js';\n",
      'hello/lib/text.js': "export default 'x';\nexport const trim = (v) => v.trim();\n",
    });
    expect(await findings(root)).toEqual(['hello/workflow.js:2:8 missingDefault']);
    const [finding] = (await validate(root)).diagnostics.filter((d) => d.ruleId === 'imports/missing-export');
    expect(finding?.message).toContain("(it exports 'trim')");
  });

  it("a steps file's missing name in workflow code is steps/import-style's finding alone; in a steps file, a helper's is this rule's", async () => {
    const root = project('steps-names', {
      'hello/workflow.js': workflow("import { greet, grete } from './steps.js';", 'greet(input) + grete(input)'),
      'hello/steps.js':
        "import { step } from '@skein/core';\nimport { salutaton } from './lib/salutation.js';\nexport const greet = step({ name: 'greet', fn: async (input) => salutaton + input });\n",
      'hello/lib/salutation.js': "export const salutation = 'Dear';\n",
    });
    expect(await findings(root)).toEqual(['hello/steps.js:2:10 missing']);
    expect(await findings(root, 'steps/import-style')).toEqual(['hello/workflow.js:2:17 missingExport']);
  });

  it("files the worker never loads (a script beside the workflows) and a dependency's own modules are not judged", async () => {
    const root = project('unloaded', {
      'hello/workflow.js': workflow("import { helper } from 'dep';", 'helper(input)'),
      'scripts/seed.js': "import { nothing } from '../hello/lib/format.js';\nconsole.log(nothing);\n",
      'hello/lib/format.js': 'export const shout = (v) => v.toUpperCase();\n',
      'node_modules/dep/package.json': JSON.stringify({ name: 'dep', version: '1.0.0', type: 'module', exports: './index.js' }),
      'node_modules/dep/index.js': "import { missing } from './inner.js';\nexport const helper = (v) => missing ?? v;\n",
      'node_modules/dep/inner.js': 'export const other = 1;\n',
    });
    expect(await findings(root)).toEqual([]);
  });
});
