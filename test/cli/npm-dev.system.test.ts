import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { freePort } from '@skein/dev-server';
import { repoRoot } from '../support/stack.js';

/** `npm run dev` as README tells a newcomer to type it: it builds, starts a dev server of its own and serves examples/. */
const binDir = path.join(repoRoot, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${binDir}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` };

describe('npm run dev from a clone', () => {
  it('npm run dev serves the examples', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'skein-npm-dev-'));
    const [apiPort, temporalPort] = [await freePort(), await freePort()];
    const child = spawn('npm', ['run', 'dev', '--', '--temporal-port', String(temporalPort), '--data-dir', dataDir, '--no-watch'], {
      cwd: repoRoot,
      env: { ...env, PORT: String(apiPort), TEMPORAL_ADDRESS: '', SKEIN_LOG_PRETTY: '0' },
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    try {
      await vi.waitFor(
        () => {
          if (!/Skein is up/.test(out) || child.exitCode !== null) throw new Error(`npm run dev did not come up:\n${out}`);
        },
        { timeout: 150_000, interval: 250 },
      );
      const res = await fetch(`http://127.0.0.1:${apiPort}/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workflowName: 'welcome', input: { name: 'ada' } }),
      });
      expect(await res.json()).toMatchObject({ status: 'completed', output: { message: 'Welcome, Ada!' } });
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGINT');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 200_000);
});
