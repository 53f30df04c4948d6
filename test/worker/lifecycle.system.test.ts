import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { locateTemporal, startDevServer } from '@skein/dev-server';
import { spawnSkein } from '../support/processes.js';
import { removeProjectDir } from '../support/project-dirs.js';

/** Worker lifecycle with real processes: graceful drain, crash and takeover, engine loss. */
let connection: Connection;
let client: Client;
let dir: string;
let n = 0;
const address = () => inject('temporalAddress');

beforeAll(async () => {
  connection = await Connection.connect({ address: address() });
  client = new Client({ connection });
  dir = await mkdtemp(path.join(tmpdir(), 'skein-lifecycle-'));
});

afterAll(async () => {
  await connection?.close();
  await removeProjectDir(dir);
});

function worker(catalog: string, extraEnv: Record<string, string> = {}) {
  return spawnSkein(['worker', 'fixtures/projects/runtime'], {
    TEMPORAL_ADDRESS: address(),
    SKEIN_CATALOG: catalog,
    SKEIN_TRACE_DIR: path.join(dir, 'traces'),
    ...extraEnv,
  });
}

async function lines(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
}

async function waitForLine(file: string, line: string, timeoutMs = 30_000): Promise<void> {
  await expect.poll(() => lines(file), { timeout: timeoutMs, interval: 50, message: `no "${line}" in ${file}` }).toContain(line);
}

describe('worker lifecycle', () => {
  it('SIGTERM lets the in-flight activity finish, then exits 0; the next worker completes the run', async () => {
    const catalog = `life-${Date.now()}-${n++}`;
    const log = path.join(dir, `drain-${catalog}.log`);
    const first = worker(catalog);
    await first.waitFor(/worker serving/);
    const handle = await client.workflow.start('slow', { taskQueue: catalog, workflowId: `drain-${catalog}`, args: [{ log, ms: 1500 }] });
    await waitForLine(log, 'middle:start:1');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(await lines(log)).toEqual(['first', 'middle:start:1', 'middle:end:1']);
    const second = worker(catalog);
    try {
      await second.waitFor(/worker serving/);
      expect(await handle.result()).toBe('done');
      expect(await lines(log)).toEqual(['first', 'middle:start:1', 'middle:end:1', 'last']);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 90_000);

  it('SIGTERM stops the worker within SKEIN_SHUTDOWN_GRACE_MS + 5 s when a step ignores its cancellation, and says so', async () => {
    const catalog = `life-${Date.now()}-${n++}`;
    const log = path.join(dir, `force-${catalog}.log`);
    const first = worker(catalog, { SKEIN_SHUTDOWN_GRACE_MS: '1000' });
    await first.waitFor(/worker serving/);
    // The middle step sleeps 60 s and never looks at its cancellation.
    const handle = await client.workflow.start('slow', { taskQueue: catalog, workflowId: `force-${catalog}`, args: [{ log, ms: 60_000 }] });
    await waitForLine(log, 'middle:start:1');
    const stopping = performance.now();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(performance.now() - stopping).toBeLessThan(15_000);
    expect(first.output()).toMatch(/in-flight activities did not stop within the shutdown grace time/);
    expect(first.output()).toMatch(/worker stopped/);
    await handle.terminate();
  }, 90_000);

  it('after a worker is killed mid-run another completes it; no step runs twice beyond the retried attempt', async () => {
    const catalog = `life-${Date.now()}-${n++}`;
    const log = path.join(dir, `kill-${catalog}.log`);
    const first = worker(catalog);
    await first.waitFor(/worker serving/);
    const handle = await client.workflow.start('slow', { taskQueue: catalog, workflowId: `kill-${catalog}`, args: [{ log, ms: 1000 }] });
    await waitForLine(log, 'middle:start:1');
    first.child.kill('SIGKILL');
    await first.exited;
    const second = worker(catalog);
    try {
      await second.waitFor(/worker serving/);
      expect(await handle.result()).toBe('done');
      const seen = await lines(log);
      // Attempt 1 of `middle` died with the worker; Temporal retried it after its 3 s start-to-close timeout.
      expect(seen.filter((l) => l === 'first')).toHaveLength(1);
      expect(seen.filter((l) => l.startsWith('middle:end'))).toEqual(['middle:end:2']);
      expect(seen.filter((l) => l === 'last')).toHaveLength(1);
      expect(seen).toEqual(['first', 'middle:start:1', 'middle:start:2', 'middle:end:2', 'last']);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 90_000);

  it('losing the engine stops the worker with exit code 1 after a bounded retry', async () => {
    const temporal = await locateTemporal();
    const server = await startDevServer({ binary: temporal.path });
    const w = spawnSkein(['worker', 'fixtures/projects/runtime'], {
      TEMPORAL_ADDRESS: server.address,
      SKEIN_CATALOG: 'engine-loss',
      SKEIN_TRACE_DIR: 'off',
      SKEIN_ENGINE_CHECK_INTERVAL_MS: '500',
      SKEIN_ENGINE_CHECK_FAILURES: '3',
    });
    try {
      await w.waitFor(/worker serving/);
      await server.stop();
      const t0 = Date.now();
      expect(await w.exited).toBe(1);
      expect(Date.now() - t0).toBeLessThan(45_000);
      expect(w.output()).toMatch(/skein: Lost the Temporal connection at 127\.0\.0\.1:\d+/);
      expect(w.output()).not.toMatch(/\n\s+at /);
      // Temporal Core's own warnings (its gRPC retries while the engine is gone) are JSON log lines, never coloured text.
      expect(w.output()).not.toContain('\u001b[');
      const other = w
        .output()
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('{') && !l.startsWith('skein: '));
      expect(other).toEqual([]);
    } finally {
      if (w.child.exitCode === null) w.child.kill('SIGKILL');
      await server.stop();
    }
  }, 90_000);
});
