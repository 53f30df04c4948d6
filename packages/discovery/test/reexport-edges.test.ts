/**
 * Edges of following a package entry (reexports.ts; package rules 2 and 3), through `discover()` on in-memory packages:
 * which edges register a workflow file's default export as `*` (only `export * from`), exports of names the module
 * never declares, namespaces of workflow files, and `export *` of a workflow file whose default is not a workflow.
 */
import { describe, expect, it } from 'vitest';
import { discover, type Manifest } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { EXPOSE, packageJson, workflowJs } from './tmp.js';

function discoverPackage(files: Record<string, string>): Promise<Manifest> {
  const all: Record<string, string> = {
    '/p/package.json': packageJson('p', { private: true }),
    '/p/node_modules/pkg/package.json': packageJson('pkg', { ...EXPOSE, exports: './index.js' }),
  };
  for (const [rel, text] of Object.entries(files)) all[`/p/node_modules/pkg/${rel}`] = text;
  return discover('/p', { fs: memoryFileSystem(all), ceiling: '/p' });
}

const at = (m: Manifest) => m.diagnostics.map((d) => `${d.ruleId} ${d.file.replace('/p/node_modules/pkg/', '')}:${d.line}:${d.column}`);
const names = (m: Manifest) => m.workflows.map((w) => `${w.name} as ${w.exportName}`);
const CORE = "import { workflow, step } from '@skein/core';\n";

describe('which edges register a workflow file by `*`', () => {
  it('an imported-then-exported helper of a workflow file does not register its default workflow', async () => {
    const m = await discoverPackage({
      'index.js': "import { helper } from './a/workflow.js';\nexport { helper };\nexport { default as b } from './b/workflow.js';\n",
      'a/workflow.js': `${CORE}export const helper = 1;\nexport default workflow({ name: 'a', fn: async (x) => x });\n`,
      'b/workflow.js': workflowJs('b'),
    });
    expect(names(m)).toEqual(['b as b']);
    expect(at(m)).toEqual([]);
  });

  it('a namespace of a workflow file is reported and registers nothing', async () => {
    const m = await discoverPackage({
      'index.js': "export * as flows from './a/workflow.js';\nexport { default as b } from './b/workflow.js';\n",
      'a/workflow.js': workflowJs('a'),
      'b/workflow.js': workflowJs('b'),
    });
    expect(names(m)).toEqual(['b as b']);
    expect(at(m)).toEqual(['reexport/namespace index.js:1:1']);
  });

  it('`export *` of a workflow file whose default export is a step registers nothing from it', async () => {
    const m = await discoverPackage({
      'index.js': "export * from './a/workflow.js';\nexport { default as b } from './b/workflow.js';\n",
      'a/workflow.js': `${CORE}export default step({ name: 'a', fn: async (x) => x });\n`,
      'b/workflow.js': workflowJs('b'),
    });
    expect(names(m)).toEqual(['b as b']);
  });
});

describe('names the module never declares', () => {
  it('an exported name without a declaration is a syntax error, neither an edge nor a namespace, and nothing breaks', async () => {
    const m = await discoverPackage({
      'index.js': "export { undeclared, other as renamed };\nexport { default as b } from './b/workflow.js';\n",
      'b/workflow.js': workflowJs('b'),
    });
    expect(names(m)).toEqual(['b as b']);
    expect(at(m)).toEqual(['parse/syntax-error index.js:1:10', 'parse/syntax-error index.js:1:22']);
  });

  it('a value built from names that are not module bindings is not runtime assembly', async () => {
    const m = await discoverPackage({
      'index.js': "export default { globalThing, console };\nexport { default as b } from './b/workflow.js';\n",
      'b/workflow.js': workflowJs('b'),
    });
    expect(at(m)).toEqual([]);
  });
});

describe('namespaces (package rule 3)', () => {
  it('reports a namespace whose source is a workflow file, a barrel reaching a workflow, or an absolute path; not a dependency, a missing file or a barrel without workflows', async () => {
    const m = await discoverPackage({
      'index.js': [
        "import * as direct from './a/workflow.js';",
        'export { direct };',
        "export * as viaBarrel from './barrel.js';",
        "export * as absolute from '/opt/lib/x.js';",
        "export * as dep from 'some-dependency';",
        "export * as gone from './missing.js';",
        "export * as plain from './plain.js';",
        "export { default as b } from './b/workflow.js';",
        '',
      ].join('\n'),
      'a/workflow.js': workflowJs('a'),
      'barrel.js': "export { default as c } from './c/workflow.js';\n",
      'c/workflow.js': workflowJs('c'),
      'plain.js': 'export const x = 1;\n',
      'b/workflow.js': workflowJs('b'),
    });
    const namespaces = at(m).filter((x) => x.startsWith('reexport/namespace'));
    expect(namespaces).toEqual(['reexport/namespace index.js:2:10', 'reexport/namespace index.js:3:1', 'reexport/namespace index.js:4:1']);
    expect(names(m)).toEqual(['b as b']);
  });
});
