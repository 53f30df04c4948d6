/**
 * `fs/unresolved-import` on temporary projects, for the forms its fixture does not show: TypeScript sources (the `.js`
 * suffix naming the `.ts` file, an exact `.ts` specifier), type-only imports, `import()` and `require()` of missing
 * files, imports in a dependency, and a folder named with a trailing slash.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../src/index.js';
import { writeTree } from './helpers.js';

let tmp: string;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skein-validator-unresolved-')));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function project(name: string, files: Record<string, string>): string {
  return writeTree(path.join(tmp, name), { 'package.json': JSON.stringify({ name, version: '1.0.0', type: 'module', private: true }), ...files });
}

/** `file:line:column messageId` of each fs/unresolved-import finding. */
async function findings(root: string): Promise<string[]> {
  const report = await validate(root);
  return report.diagnostics
    .filter((d) => d.ruleId === 'fs/unresolved-import')
    .map((d) => `${path.relative(root, d.file)}:${d.line}:${d.column} ${d.messageId}`);
}

const workflow = (imports: string, body = 'input') =>
  `import { workflow } from '@skein/core';\n${imports}\nexport default workflow({ name: 'hello', fn: async (input) => ${body} });\n`;

describe('fs/unresolved-import', () => {
  it('TypeScript sources: `./x.js` names `x.ts`, `./x.ts` names itself; an extensionless path and a missing file are reported', async () => {
    const root = project('typescript', {
      'src/hello/workflow.ts': workflow(
        "import { a } from './lib/a.js';\nimport { b } from './lib/b.ts';\nimport { c } from './lib/c';\nimport { d } from './lib/d.js';",
        'a + b + c + d + input',
      ),
      'src/hello/lib/a.ts': 'export const a = 1;\n',
      'src/hello/lib/b.ts': 'export const b = 2;\n',
      'src/hello/lib/c.ts': 'export const c = 3;\n',
    });
    expect(await findings(root)).toEqual(['src/hello/workflow.ts:4:19 extensionless', 'src/hello/workflow.ts:5:19 missing']);
  });

  it('reports a TypeScript twin named by its `.js` name from a JavaScript file, which only TypeScript importers may do', async () => {
    const root = project('twin-from-javascript', {
      'hello/workflow.js': workflow("import { a } from './lib/a.js';\nimport { b } from './lib/b.mjs';\nimport { c } from './lib/c.ts';", 'a + b + c + input'),
      'hello/lib/a.ts': 'export const a = 1;\n',
      'hello/lib/b.mts': 'export const b = 2;\n',
      'hello/lib/c.ts': "import { a } from './a.js';\nexport const c = a;\n",
    });
    expect(await findings(root)).toEqual(['hello/workflow.js:2:19 typescriptTwin', 'hello/workflow.js:3:19 typescriptTwin']);
    const hints = (await validate(root)).diagnostics.filter((d) => d.ruleId === 'fs/unresolved-import').map((d) => d.hint);
    expect(hints).toEqual([expect.stringContaining('"./lib/a.ts"'), expect.stringContaining('"./lib/b.mts"')]);
  });

  it('suggests the `.js` name of a TypeScript file, and the index file of a folder named with a trailing slash', async () => {
    const root = project('suggestions', {
      'hello/workflow.ts': workflow("import { c } from './lib/c';\nimport { n } from './limits/';", 'c + n + input'),
      'hello/lib/c.ts': 'export const c = 3;\n',
      'hello/limits/index.ts': 'export const n = 1;\n',
    });
    const report = await validate(root);
    const hints = report.diagnostics.filter((d) => d.ruleId === 'fs/unresolved-import').map((d) => d.hint);
    expect(hints).toEqual([expect.stringContaining('"./lib/c.js"'), expect.stringContaining('"./limits/index.js"')]);
  });

  it('reads a specifier as Node does, as a URL: a query is not part of the path, `%20` is a space', async () => {
    const root = project('url-specifiers', {
      'hello/workflow.js': workflow(
        "import { a } from './lib/a.js?v=2';\nimport { b } from './lib/my%20b.js';\nimport { c } from './lib/c.js?v=2';",
        'a + b + c',
      ),
      'hello/lib/a.js': 'export const a = 1;\n',
      'hello/lib/my b.js': 'export const b = 2;\n',
    });
    expect(await findings(root)).toEqual(['hello/workflow.js:4:19 missing']);
  });

  it('leaves out type-only imports, `import()` and `require()` of missing files, and imports inside a dependency', async () => {
    const root = project('not-checked', {
      'hello/workflow.ts': workflow(
        "import type { Shape } from './types.js';\nimport { pad } from 'pad';\nconst later = () => import('./optional.js');",
        '(input as Shape) && later && pad(input)',
      ),
      'hello/steps.cjs':
        "const { step } = require('@skein/core');\nconst extra = (() => { try { return require('./extra'); } catch { return null; } })();\nexports.greet = step({ name: 'greet', fn: async () => extra });\n",
      'node_modules/pad/package.json': JSON.stringify({ name: 'pad', version: '1.0.0', type: 'module', main: 'index.js' }),
      'node_modules/pad/index.js': "export { pad } from './pad';\n",
      'node_modules/pad/pad.js': 'export const pad = (s) => s;\n',
    });
    expect(await findings(root)).toEqual([]);
  });
});
