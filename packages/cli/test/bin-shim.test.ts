import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The committed `bin/skein.js` shim refuses a Node.js outside its package's `engines.node` in one line (exit 2), before
 * anything that needs a newer Node is loaded. Run from a copy beside a package.json whose `engines.node` this Node does
 * not satisfy (the copy sits inside the package, so it resolves `semver` as the shim does).
 */
const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(path.join(cliRoot, 'test', '.bin-shim-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs a copy of the shim whose package.json says `engines.node`: exit code and stderr. */
function runShim(engine: string): { status: number | null; stderr: string } {
  const dir = mkdtempSync(path.join(scratch, 'pkg-'));
  mkdirSync(path.join(dir, 'bin'));
  copyFileSync(path.join(cliRoot, 'bin', 'skein.js'), path.join(dir, 'bin', 'skein.js'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'shim-copy', type: 'module', engines: { node: engine } }));
  const r = spawnSync(process.execPath, [path.join(dir, 'bin', 'skein.js'), '--version'], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('bin/skein.js', () => {
  it('exits 2 with one line naming the required and the running Node.js when this one is outside engines.node', () => {
    const r = runShim('>=99.0.0');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`skein: needs Node.js >=99.0.0, and this is ${process.version} (${process.execPath}); install Node 24 LTS and run it again\n`);
  });

  it('goes on to the CLI when this Node.js satisfies engines.node (here: no dist/ beside the copy)', () => {
    const r = runShim(`>=${process.versions.node}`);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^skein: the CLI is not built yet/);
  });
});
