/**
 * Export resolution through barrels (package rules 2 and 3), through `discover()` on in-memory packages: `export *` of a
 * dependency next to relative stars, stars to missing files, non-relative paths that are not workflow files, and values
 * assembled from local bindings. (Cycles are in packages/validator/test/cycles.test.ts, time-bounded.)
 */
import { describe, expect, it } from 'vitest';
import { discover, type Manifest } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { EXPOSE, packageJson, workflowJs } from './tmp.js';

/** Discovers `/p` with an exposed package `pkg` made of `files` (paths relative to the package). */
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

describe('export resolution', () => {
  it('looks for a name only through relative stars: `export * from` a dependency is neither followed nor an error', async () => {
    const m = await discoverPackage({
      'index.js': "export * from 'some-dependency';\nexport * from './barrel.js';\n",
      'barrel.js': "export { default as alpha } from './alpha/workflow.js';\n",
      'alpha/workflow.js': workflowJs('alpha'),
    });
    expect(at(m)).toEqual([]);
    expect(names(m)).toEqual(['alpha as alpha']);
  });

  it('reports a star to a missing file once and still resolves names through the other stars', async () => {
    const m = await discoverPackage({
      'index.js': "export * from './missing.js';\nexport * from './barrel.js';\n",
      'barrel.js': "export { default as alpha } from './alpha/workflow.js';\n",
      'alpha/workflow.js': workflowJs('alpha'),
    });
    expect(at(m)).toEqual(['reexport/unresolved index.js:1:15']);
    expect(names(m)).toEqual(['alpha as alpha']);
  });

  it('keeps a name two stars reach through the same definition (a diamond is not ambiguous in ESM)', async () => {
    const m = await discoverPackage({
      'index.js': "export * from './a.js';\nexport * from './b.js';\n",
      'a.js': "export * from './c.js';\n",
      'b.js': "export * from './c.js';\n",
      'c.js': "export { default as shared } from './shared-flow/workflow.js';\n",
      'shared-flow/workflow.js': workflowJs('shared_flow'),
    });
    expect(at(m)).toEqual([]);
    expect(names(m)).toEqual(['shared_flow as shared']);
  });

  it('drops a name two stars provide from different definitions (ambiguous in ESM)', async () => {
    const m = await discoverPackage({
      'index.js': "export * from './one.js';\nexport * from './two.js';\nexport { default as kept } from './kept/workflow.js';\n",
      'one.js': "export { default as same } from './a/workflow.js';\n",
      'two.js': "export { default as same } from './b/workflow.js';\n",
      'a/workflow.js': workflowJs('a'),
      'b/workflow.js': workflowJs('b'),
      'kept/workflow.js': workflowJs('kept'),
    });
    expect(names(m)).toEqual(['kept as kept']);
  });

  it('drops a name one star provides as a workflow and another as a plain value, also when re-exported by name', async () => {
    const m = await discoverPackage({
      'index.js': "export * from './stars.js';\nexport { same as picked } from './stars.js';\nexport { default as kept } from './kept/workflow.js';\n",
      'stars.js': "export * from './one.js';\nexport * from './two.js';\n",
      'one.js': "export { default as same } from './a/workflow.js';\n",
      'two.js': "export const same = 'not a workflow';\n",
      'a/workflow.js': workflowJs('a'),
      'kept/workflow.js': workflowJs('kept'),
    });
    expect(names(m)).toEqual(['kept as kept']);
  });

  it('resolves a name re-exported by name through a barrel whose other star lacks it', async () => {
    const m = await discoverPackage({
      'index.js': "export { same as picked } from './stars.js';\n",
      'stars.js': "export * from './one.js';\nexport * from './two.js';\n",
      'one.js': "export { default as same } from './a/workflow.js';\n",
      'two.js': 'export const other = 1;\n',
      'a/workflow.js': workflowJs('a'),
    });
    expect(names(m)).toEqual(['a as picked']);
  });

  it('never passes `default` on through `export *`, whether listed or imported by name', async () => {
    const m = await discoverPackage({
      'index.js': "export * from './barrel.js';\nexport { default as picked } from './stars.js';\nexport { default as kept } from './kept/workflow.js';\n",
      'barrel.js': "export { default } from './a/workflow.js';\n",
      'stars.js': "export * from './b/workflow.js';\n",
      'a/workflow.js': workflowJs('a'),
      'b/workflow.js': workflowJs('b'),
      'kept/workflow.js': workflowJs('kept'),
    });
    // b is registered by file (`export * from` a workflow file), never under the name `picked`; a not at all.
    expect(names(m)).toEqual(['b as *', 'kept as kept']);
  });

  it('warns about a re-export from an absolute path or a file: URL even when it is not a workflow file', async () => {
    const m = await discoverPackage({
      'index.js':
        "export * from '/opt/lib/barrel.js';\nexport { x } from 'file:///opt/lib/other.js';\nexport { default as alpha } from './alpha/workflow.js';\n",
      'alpha/workflow.js': workflowJs('alpha'),
    });
    expect(at(m)).toEqual(['reexport/non-relative index.js:1:15', 'reexport/non-relative index.js:2:19']);
    expect(m.diagnostics.map((d) => d.severity)).toEqual(['warning', 'warning']);
    expect(names(m)).toEqual(['alpha as alpha']);
  });
});

describe('values assembled at runtime from local bindings', () => {
  it('reports a workflow defined in the entry itself inside an exported object, and not the plain values beside it', async () => {
    const m = await discoverPackage({
      'index.js':
        "import { workflow } from '@skein/core';\nconst inline = workflow({ name: 'inline', fn: async (x) => x });\nconst version = '1';\nexport default { inline, version };\nexport { default as alpha } from './alpha/workflow.js';\n",
      'alpha/workflow.js': workflowJs('alpha'),
    });
    expect(at(m)).toEqual(['reexport/runtime-assembly index.js:4:18']);
    expect(names(m)).toEqual(['alpha as alpha']);
  });

  it('follows an imported binding to its workflow, and not a step imported the same way', async () => {
    const m = await discoverPackage({
      'index.js': "import alpha from './alpha/workflow.js';\nimport { greet } from './alpha/steps.js';\nexport const all = [greet, alpha];\n",
      'alpha/workflow.js': workflowJs('alpha'),
      'alpha/steps.js': "import { step } from '@skein/core';\nexport const greet = step({ name: 'greet', fn: async (x) => x });\n",
    });
    expect(at(m)).toEqual([
      'conventions/unreachable-workflow alpha/workflow.js:1:1',
      'reexport/runtime-assembly index.js:3:28',
      'conventions/no-workflows /p/package.json:1:1',
    ]);
    expect(m.workflows).toEqual([]);
  });
});
