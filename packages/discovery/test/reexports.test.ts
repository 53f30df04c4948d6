import { afterEach, describe, expect, it } from 'vitest';
import { discover } from '../src/index.js';
import { briefs, discoverFixture, workflowSummary } from './helpers.js';
import { EXPOSE, packageJson, tempProject, workflowJs } from './tmp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('re-exports (package rules 2 and 3)', () => {
  it('follows renamed re-exports, export * chains, import-then-export, and export * of workflow files', async () => {
    const m = await discoverFixture('reexport-chains');
    expect(m.diagnostics).toEqual([]);
    expect(workflowSummary(m)).toEqual([
      'alpha <- chains:renamedAlpha (node_modules/chains/flows/alpha/workflow.js)',
      'beta <- chains:beta (node_modules/chains/flows/beta/workflow.js)',
      'delta <- chains:delta (node_modules/chains/flows/delta/workflow.js)',
      'epsilon <- chains:* (node_modules/chains/flows/epsilon/workflow.js)',
      'gamma <- chains:gamma (node_modules/chains/flows/gamma/workflow.js)',
    ]);
    expect(m.workflows.map((w) => w.localExport)).toEqual(['default', 'default', 'delta', 'default', 'default']);
  });

  it('reports CommonJS exports and requires with the matching ESM form', async () => {
    const m = await discoverFixture('reexport-commonjs');
    expect(briefs(m)).toEqual([
      'conventions/unreachable-workflow node_modules/cjs/a/workflow.js:1:1',
      'conventions/unreachable-workflow node_modules/cjs/b/workflow.js:1:1',
      'reexport/commonjs node_modules/cjs/barrel.js:1:1',
      'reexport/commonjs node_modules/cjs/barrel.js:2:1',
      'conventions/unreachable-workflow node_modules/cjs/c/workflow.js:1:1',
      'conventions/unreachable-workflow node_modules/cjs/d/workflow.js:1:1',
      'reexport/commonjs node_modules/cjs/index.js:2:1',
      'reexport/commonjs node_modules/cjs/index.js:3:1',
      'conventions/no-workflows package.json:1:1',
    ]);
    expect(m.workflows).toEqual([]);
    const byPos = (file: string, line: number) => m.diagnostics.find((d) => d.file.endsWith(file) && d.line === line)!;
    expect(byPos('cjs/barrel.js', 1).hint).toBe("Use an ESM re-export: export { default as c } from './c/workflow.js'.");
    expect(byPos('cjs/index.js', 2).message).toBe(
      'CommonJS (module.exports = …): discovery reads only static ESM re-exports, so nothing exported this way is registered.',
    );
    expect(byPos('cjs/index.js', 3).hint).toBe("Use an ESM re-export: export { default as b } from './b/workflow.js'.");
    expect(byPos('cjs/barrel.js', 2).message).toContain('Object.defineProperty(exports, …)');
  });

  it('reports dynamic import() and computed paths', async () => {
    const m = await discoverFixture('reexport-dynamic');
    expect(briefs(m)).toEqual([
      'reexport/dynamic node_modules/dyn/index.js:2:27',
      'reexport/computed-path node_modules/dyn/index.js:4:31',
      'reexport/computed-path node_modules/dyn/index.js:5:31',
      'conventions/unreachable-workflow node_modules/dyn/lazy/workflow.js:1:1',
    ]);
    expect(m.diagnostics[0]!.hint).toBe("Re-export statically: export * from './lazy/workflow.js' or export { default as <name> } from './lazy/workflow.js'.");
    expect(m.diagnostics[1]!.message).toBe('import() with a path computed at runtime cannot be followed statically.');
    expect(m.diagnostics[2]!.message).toBe('require() with a path computed at runtime cannot be followed statically.');
    expect(workflowSummary(m)).toEqual(['ok <- dyn:ok (node_modules/dyn/ok/workflow.js)']);
  });

  it('reports namespace re-exports holding workflows (export * as ns, import * then export) and does not register what is behind them', async () => {
    const m = await discoverFixture('reexport-namespace');
    // Namespaces without workflows (helpers, util) are fine.
    expect(briefs(m)).toEqual(['reexport/namespace node_modules/ns/index.js:1:1', 'reexport/namespace node_modules/ns/index.js:6:10']);
    expect(m.diagnostics[0]!.message).toBe("export * as flows from './flows.js' exports a namespace object; its workflows are not registered.");
    expect(m.diagnostics[1]!.message).toBe("'more' exports the namespace of './more.js' (import * as more); its workflows are not registered.");
    expect(workflowSummary(m)).toEqual(['kept <- ns:kept (node_modules/ns/kept/workflow.js)']);
  });

  it('reports non-relative paths to workflow code (absolute, file: URL, workflow files, exposed packages), not other dependencies', async () => {
    const m = await discoverFixture('reexport-non-relative');
    expect(briefs(m)).toEqual([
      'reexport/non-relative node_modules/nonrel/index.js:1:32',
      'reexport/non-relative node_modules/nonrel/index.js:2:15',
      'reexport/non-relative node_modules/nonrel/index.js:3:32',
      'reexport/non-relative node_modules/nonrel/index.js:4:23',
    ]);
    expect(m.diagnostics.map((d) => d.severity)).toEqual(['warning', 'warning', 'warning', 'warning']);
    expect(m.diagnostics[0]!.message).toBe(
      "'/opt/flows/abs/workflow.js' is not a relative path; discovery does not follow it, so workflows behind it are not registered from this package.",
    );
    // exposed-dep's workflow is registered from exposed-dep itself.
    expect(workflowSummary(m)).toEqual([
      'thing <- exposed-dep:thing (node_modules/exposed-dep/t/workflow.js)',
      'fine <- nonrel:fine (node_modules/nonrel/fine/workflow.js)',
    ]);
  });

  it('reports workflows exported inside values assembled at runtime, at each reference', async () => {
    const m = await discoverFixture('reexport-runtime-assembly');
    expect(briefs(m)).toEqual([
      'conventions/unreachable-workflow node_modules/assembly/greet/workflow.js:1:1',
      'reexport/runtime-assembly node_modules/assembly/index.js:4:18',
      'reexport/runtime-assembly node_modules/assembly/index.js:5:21',
      'reexport/runtime-assembly node_modules/assembly/index.js:5:28',
      'reexport/runtime-assembly node_modules/assembly/index.js:6:34',
      'conventions/unreachable-workflow node_modules/assembly/other/workflow.js:1:1',
      'conventions/no-workflows package.json:1:1',
    ]);
    expect(m.diagnostics[1]!.message).toBe(
      "Workflow 'greet' is exported inside the value of export 'default', assembled at runtime; discovery cannot see it there.",
    );
    expect(m.diagnostics[4]!.message).toContain("export 'registry'");
    expect(m.workflows).toEqual([]);
  });

  it('follows an exported alias of a workflow (`export const hello = greet`) as a re-export, through aliases and TypeScript wrappers', async () => {
    const t = tempProject({
      'package.json': packageJson('project'),
      'node_modules/aliased/package.json': packageJson('aliased', { exports: './index.ts', ...EXPOSE }),
      'node_modules/aliased/greet/workflow.js': workflowJs('greet'),
      'node_modules/aliased/wave/workflow.js': workflowJs('wave'),
      'node_modules/aliased/index.ts': [
        "import greet from './greet/workflow.js';",
        "import wave from './wave/workflow.js';",
        'export const hello = greet;',
        'const inner = wave as typeof wave;',
        'export const waveAlias = inner;',
        // A circle of aliases leads nowhere, and is no finding.
        'export const loopA = loopB;',
        'const loopB = loopA;',
      ].join('\n'),
    });
    cleanups.push(t.cleanup);
    const m = await discover(t.root);
    expect(briefs(m)).toEqual([]);
    expect(workflowSummary(m)).toEqual([
      'greet <- aliased:hello (node_modules/aliased/greet/workflow.js)',
      'wave <- aliased:waveAlias (node_modules/aliased/wave/workflow.js)',
    ]);
  });

  it('does not call a TypeScript source unreachable when the entry reaches its compiled file beside it', async () => {
    const t = tempProject({
      'package.json': packageJson('project'),
      'node_modules/shipped/package.json': packageJson('shipped', { exports: './index.js', ...EXPOSE }),
      'node_modules/shipped/index.js': "export { default as greet } from './w/workflow.js';\n",
      'node_modules/shipped/w/workflow.js': workflowJs('greet'),
      'node_modules/shipped/w/workflow.ts': workflowJs('greet'),
      'node_modules/shipped/drafts/workflow.ts': workflowJs('draft'),
    });
    cleanups.push(t.cleanup);
    const m = await discover(t.root);
    expect(briefs(m)).toEqual(['conventions/unreachable-workflow node_modules/shipped/drafts/workflow.ts:1:1']);
    expect(workflowSummary(m)).toEqual(['greet <- shipped:greet (node_modules/shipped/w/workflow.js)']);
  });

  it('reports a name an entry or barrel re-exports that the module it names does not export; a module whose exports are not all known is trusted', async () => {
    const m = await discoverFixture('reexport-missing-export');
    expect(briefs(m)).toEqual(['reexport/missing-export node_modules/stale/index.js:2:10', 'reexport/missing-export node_modules/stale/index.js:3:18']);
    expect(m.diagnostics[0]!.message).toBe(
      "'./greet/workflow.js' has no export named 'summarize' (it exports 'default'): the re-export fails when the module is loaded.",
    );
    expect(m.diagnostics[1]!.message).toBe(
      "'./lib/index.js' has no export named 'missing' (it exports 'helper'): the re-export fails when the module is loaded.",
    );
    expect(workflowSummary(m)).toEqual(['greet <- stale:greet (node_modules/stale/greet/workflow.js)']);
    const t = tempProject({
      'package.json': packageJson('project'),
      'node_modules/known/package.json': packageJson('known', { exports: './index.ts', ...EXPOSE }),
      'node_modules/known/index.ts': [
        "export { default as greet } from './greet/workflow.ts';",
        "export { Options, Kind, Mode, Space, declared } from './types.ts';",
        "export { a, b } from './pattern.ts';",
        "export { anything } from './outside.ts';",
        "import { helper } from './cjs.js';",
        'export { helper };',
        "export { utils } from './lib/index.ts';",
      ].join('\n'),
      'node_modules/known/lib/index.ts': "export * as utils from './utils.ts';\n",
      'node_modules/known/lib/utils.ts': 'export const trim = (s: string) => s.trim();\n',
      'node_modules/known/greet/workflow.ts':
        "import { workflow } from '@skein/core';\nexport default workflow({ name: 'known_greet', fn: async (x: string) => x });\n",
      'node_modules/known/types.ts':
        'export interface Options { a: number }\nexport type Kind = 1;\nexport enum Mode { A }\nexport namespace Space { export const x = 1; }\nexport declare function declared(): void;\n',
      'node_modules/known/pattern.ts': 'export const { a, b } = { a: 1, b: 2 };\n',
      'node_modules/known/outside.ts': "export * from 'some-package';\n",
      'node_modules/known/cjs.js': 'module.exports.helper = () => 1;\n',
    });
    cleanups.push(t.cleanup);
    const known = await discover(t.root);
    expect(briefs(known).filter((b) => b.startsWith('reexport/missing-export'))).toEqual([]);
    expect(workflowSummary(known)).toEqual(['known_greet <- known:greet (node_modules/known/greet/workflow.ts)']);
  });

  it('reports a workflow name two export * of one module both provide, which ES modules leave out; a name the module exports itself is not ambiguous', async () => {
    const m = await discoverFixture('reexport-ambiguous-star');
    // (The project registers nothing else: `conventions/no-workflows`.)
    expect(briefs(m)).toEqual(['reexport/ambiguous-star node_modules/ambig/index.js:2:1', 'conventions/no-workflows package.json:1:1']);
    expect(m.diagnostics[0]!.message).toBe(
      "export * from './b/workflow.js' and export * from './a/workflow.js' both export 'flow', a workflow: ES modules leave an ambiguous name out of the module's exports, so it is not registered.",
    );
    expect(m.workflows).toEqual([]);
    const t = tempProject({
      'package.json': packageJson('project'),
      'node_modules/settled/package.json': packageJson('settled', { exports: './index.js', ...EXPOSE }),
      'node_modules/settled/index.js': "export * from './a/workflow.js';\nexport * from './b/workflow.js';\nexport { flow } from './a/workflow.js';\n",
      'node_modules/settled/a/workflow.js':
        "import { workflow } from '@skein/core';\nexport const flow = workflow({ name: 'settled_a', fn: async (x) => x });\n",
      'node_modules/settled/b/workflow.js':
        "import { workflow } from '@skein/core';\nexport const flow = workflow({ name: 'settled_b', fn: async (x) => x });\n",
    });
    cleanups.push(t.cleanup);
    const settled = await discover(t.root);
    expect(briefs(settled)).toEqual([]);
    expect(workflowSummary(settled)).toEqual(['settled_a <- settled:flow (node_modules/settled/a/workflow.js)']);
  });

  it('reports relative re-exports of missing files and keeps the rest', async () => {
    const m = await discoverFixture('reexport-unresolved');
    expect(briefs(m)).toEqual(['reexport/unresolved node_modules/unres/index.js:1:33', 'reexport/unresolved node_modules/unres/index.js:2:15']);
    expect(workflowSummary(m)).toEqual(['here <- unres:here (node_modules/unres/here/workflow.js)']);
  });

  it('warns about workflow.js files the entry does not reach and does not register them', async () => {
    const m = await discoverFixture('unreachable-workflow');
    expect(briefs(m)).toEqual([
      'conventions/unreachable-workflow node_modules/partial/drafts/next/workflow.js:1:1',
      'conventions/unreachable-workflow node_modules/partial/legacy/workflow.js:1:1',
    ]);
    expect(m.diagnostics[1]!.hint).toBe("Re-export it from the package entry: export { default as <name> } from './legacy/workflow.js'.");
    expect(workflowSummary(m)).toEqual(['used <- partial:used (node_modules/partial/used/workflow.js)']);
  });
});
