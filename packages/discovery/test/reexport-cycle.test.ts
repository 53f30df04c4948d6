/**
 * `reexport/cycle`: a named re-export that leads back to itself (ESM refuses to link it) is a finding, reported
 * once per cycle with its chain, never a silently lost name, a hang or a crash. `export *` cycles are legal ESM and
 * stay silent.
 */
import { describe, expect, it } from 'vitest';
import { discover, type Manifest } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { EXPOSE, packageJson, workflowJs } from './tmp.js';

const run = (files: Record<string, string>): Promise<Manifest> =>
  discover('/p', {
    fs: memoryFileSystem({ '/p/package.json': packageJson('p', { ...EXPOSE, exports: './index.js' }), '/p/greet/workflow.js': workflowJs('greet'), ...files }),
    ceiling: '/p',
    mode: 'package',
  });
const briefs = (m: Manifest) => m.diagnostics.map((d) => `${d.ruleId} ${d.severity} ${d.file.slice(3)}:${d.line}:${d.column}`);
const GREET = "export { default as greet } from './greet/workflow.js';\n";

describe('named re-export cycles (reexport/cycle)', () => {
  it('reports export { a } from a module that re-exports a from the first, once, at the entry, with the chain', async () => {
    const m = await run({ '/p/index.js': `${GREET}export { loop } from './b.js';\n`, '/p/b.js': "export { loop } from './index.js';\n" });
    expect(briefs(m)).toEqual(['reexport/cycle error index.js:2:10']);
    expect(m.diagnostics[0]!.message).toBe(
      "'loop' is re-exported from './b.js' in a cycle (./index.js 'loop' → ./b.js 'loop' → ./index.js 'loop'): it never reaches a definition, and Node refuses to load the module (SyntaxError: Detected cycle while resolving name 'loop'), so nothing exported through it is registered.",
    );
    expect(m.diagnostics[0]!.packageRule).toBe(2);
    expect(m.workflows.map((w) => w.name)).toEqual(['greet']);
  });

  it('reports a cycle the entry only leads into (barrels c ↔ d) at the barrel where the chain enters it, under renames', async () => {
    const m = await run({
      '/p/index.js': `${GREET}export { x as y } from './lib/c.js';\n`,
      '/p/lib/c.js': "export { z as x } from './d.js';\n",
      '/p/lib/d.js': "import { x } from './c.js';\nexport { x as z };\n",
    });
    expect(briefs(m)).toEqual(['reexport/cycle error lib/c.js:1:10']);
    expect(m.diagnostics[0]!.message).toContain("(./c.js 'x' → ./d.js 'z' → ./c.js 'x')");
  });

  it('reports a module that re-exports a name from itself', async () => {
    const m = await run({ '/p/index.js': `${GREET}export { self } from './index.js';\n` });
    expect(briefs(m)).toEqual(['reexport/cycle error index.js:2:10']);
  });

  it('reports a named cycle that passes through an export * (c.js re-exports d.js wholesale, d.js names c.js)', async () => {
    const m = await run({
      '/p/index.js': `${GREET}export { loop } from './c.js';\n`,
      '/p/c.js': "export * from './d.js';\n",
      '/p/d.js': "export { loop } from './c.js';\n",
    });
    expect(briefs(m)).toEqual(['reexport/cycle error c.js:1:15']);
    expect(m.diagnostics[0]!.message).toContain(
      "'loop' is re-exported from './d.js' in a cycle that passes through export * (./c.js 'loop' → ./d.js 'loop' → ./c.js 'loop')",
    );
    expect(m.diagnostics[0]!.message).toContain("does not provide an export named 'loop'");
    expect(m.workflows.map((w) => w.name)).toEqual(['greet']);
  });

  it('reports nothing for a name no module of an export * ring provides (Node says the name is missing, not cyclic)', async () => {
    const m = await run({ '/p/index.js': `${GREET}export * from './a.js';\n`, '/p/a.js': "export * from './b.js';\n", '/p/b.js': "export * from './a.js';\n" });
    expect(briefs(m)).toEqual([]);
  });

  it('stays silent on export * cycles, on chains that reach a definition, and on chains ending at a missing file', async () => {
    const m = await run({
      '/p/index.js': "export * from './a.js';\nexport { hello } from './c.js';\nexport { gone } from './d.js';\n",
      '/p/a.js': "export * from './b.js';\nexport { default as greet } from './greet/workflow.js';\n",
      '/p/b.js': "export * from './a.js';\nexport * from './index.js';\n",
      '/p/c.js': "import { default as hello } from './hello/workflow.js';\nexport { hello };\n",
      '/p/d.js': "export { gone } from './missing.js';\n",
      '/p/hello/workflow.js': workflowJs('hello'),
    });
    expect(briefs(m)).toEqual(['reexport/unresolved error d.js:1:22']);
    expect(m.workflows.map((w) => w.name).sort()).toEqual(['greet', 'hello']);
  });
});
