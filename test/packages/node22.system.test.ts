import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateNode22 } from '../support/node22.js';
import { repoRoot } from '../support/stack.js';

// @skein/client and @skein/core promise Node 22 LTS too (their engines field): their own unit tests run on it.
describe('@skein/client and @skein/core on Node 22', () => {
  it('declare Node 22 in engines, and their unit tests pass on Node 22', () => {
    for (const pkg of ['client', 'core']) {
      const { engines } = JSON.parse(readFileSync(path.join(repoRoot, 'packages', pkg, 'package.json'), 'utf8'));
      expect(engines.node, pkg).toMatch(/\^22\.\d+\.\d+ \|\| /);
    }
    const node = locateNode22();
    const vitest = path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
    const res = spawnSync(node, [vitest, 'run', '--project', 'unit', 'packages/client/test', 'packages/core/test'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 240_000,
    });
    expect(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout).toMatch(/^v22\./);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toMatch(/Test Files\s+\d+ passed/);
  }, 300_000);
});
