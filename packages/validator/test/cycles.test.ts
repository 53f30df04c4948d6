/**
 * Cycles terminate and give the right findings: barrels that re-export each other (`fixtures/discovery/reexport-cycle`)
 * and workflow code whose imports form cycles (`fixtures/discovery/import-cycle`). Each run is time-bounded in a child
 * process (see bounded.ts), so a cycle that is not cut fails the test instead of hanging it.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverBounded, validateBounded } from './bounded.js';
import { REPO } from './helpers.js';

const fixture = (name: string) => path.join(REPO, 'fixtures/discovery', name);
const at = (root: string, d: { ruleId: string; file: string; line: number; column: number }) =>
  `${d.ruleId} ${path.relative(root, d.file)}:${d.line}:${d.column}`;

describe('a barrel (re-export) cycle', () => {
  const root = fixture('reexport-cycle');

  it('discover() terminates (star cycle a.js ↔ b.js ↔ index.js, named cycle c.js ↔ d.js), reports the named cycle once and registers every workflow once, by its entry export name', async () => {
    const m = await discoverBounded(root, { ceiling: root });
    // The star cycle is legal ESM; the named one cannot be linked (reexport/cycle), at the barrel where the entry's chain enters it.
    expect(m.diagnostics.map((d) => at(root, d))).toEqual(['reexport/cycle node_modules/cyclic/c.js:1:10']);
    expect(m.workflows.map((w) => `${w.name} <- ${w.package?.name}:${w.exportName} (${path.relative(root, w.file)})`)).toEqual([
      'alpha <- cyclic:alpha (node_modules/cyclic/alpha/workflow.js)',
      'beta <- cyclic:beta (node_modules/cyclic/beta/workflow.js)',
      'gamma <- cyclic:gamma (node_modules/cyclic/gamma/workflow.js)',
    ]);
  });

  it('validate() of the package terminates with the named cycle as its only finding', async () => {
    const pkg = path.join(root, 'node_modules/cyclic');
    const report = await validateBounded(pkg);
    expect(report.diagnostics.map((d) => at(pkg, d))).toEqual(['reexport/cycle c.js:1:10']);
    expect(report.manifest.workflows.map((w) => w.name).sort()).toEqual(['alpha', 'beta', 'gamma']);
  });
});

describe('an import cycle in workflow code', () => {
  const root = fixture('import-cycle');

  it('discover() terminates; two workflows importing each other are both registered, with no finding', async () => {
    const m = await discoverBounded(root, { ceiling: root });
    expect(m.diagnostics).toEqual([]);
    expect(m.workflows.map((w) => `${w.name} (${path.relative(root, w.file)})`)).toEqual(['ping (ping/workflow.js)', 'pong (pong/workflow.js)']);
  });

  it('validate() terminates and reports the Node import inside the cycle once, with the chain that reaches it', async () => {
    const report = await validateBounded(root);
    const mine = report.diagnostics.filter((d) => !path.relative(root, d.file).startsWith('..'));
    expect(mine.map((d) => at(root, d))).toEqual(['workflow/no-node-modules lib/b.js:2:28']);
    expect(mine[0]).toMatchObject({ severity: 'error', packageRule: 12 });
    expect(mine[0]?.message).toContain('ping/workflow.js → lib/a.js → lib/b.js → fs');
  });
});
