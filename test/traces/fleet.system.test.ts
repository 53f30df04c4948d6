import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '@skein/dev-server';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';
import { startSeaweedFs, type SeaweedFs } from '../support/seaweedfs.js';
import { skein } from '../cli/client-support.js';
import { eventually } from '../support/poll.js';

/**
 * One complete trace per run at fleet scale, on a real dev server and a real SeaweedFS: three `skein worker`
 * processes (each with a trace folder of its own, as on three machines) serve one catalog, and `skein api` runs
 * from another folder. Every run's trace-log is one complete tree, still answered from object storage once the
 * workers are gone and their trace folders deleted; storage going down costs no run, and traces arrive after it
 * returns.
 */
const FIXTURE = path.join(repoRoot, 'fixtures/projects/trace-fleet');
const RUNS = 30;

let weed: SeaweedFs;
let base: string;
let client: Client;
let connection: Connection;
let api: CliProcess;
let apiUrl: string;
const workers: CliProcess[] = [];
const catalog = `fleet-${process.pid}-${Date.now()}`;
const runs: Array<{ workflowId: string; runId: string; n: number; fail: boolean }> = [];

const workerEnv = (i: number): Record<string, string> => ({
  ...weed.env,
  TEMPORAL_ADDRESS: inject('temporalAddress'),
  SKEIN_CATALOG: catalog,
  // One release on three machines: the same build ID, though each worker has a trace folder of its own.
  SKEIN_BUILD_ID: `fleet-${process.pid}`,
  SKEIN_TRACE_S3_PREFIX: 'fleet/',
  SKEIN_TRACE_DIR: path.join(base, `w${i}`, 'traces'),
  // One spool folder for all three, as when they run from one project folder.
  SKEIN_TRACE_SPOOL_DIR: path.join(base, 'spool'),
  SKEIN_BUNDLE_CACHE: path.join(base, 'bundles'),
  SKEIN_STARTUP_CACHE: path.join(base, 'startup'),
  SKEIN_LOG_LEVEL: 'debug',
});

async function call(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(apiUrl + route, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** `check`'s first value other than undefined (every 200 ms, at most `timeoutMs`). */
const until = <T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => eventually(check, timeoutMs, 200);

const traceLog = (r: { workflowId: string; runId: string }) => call('GET', `/workflow/${encodeURIComponent(r.workflowId)}/runs/${r.runId}/trace-log`);

const shape = (node: any): unknown => [node.kind, node.name, node.status, node.children.map(shape)];

/** Asserts the complete tree of one fleet run: every node, its input/output (redacted) and errors. */
function expectComplete(run: (typeof runs)[number], trace: any): void {
  expect(trace.root).toEqual({ workflowId: run.workflowId, runId: run.runId });
  const { tree } = trace;
  expect(tree).toMatchObject({ kind: 'workflow', name: 'fleet', workflowId: run.workflowId, runId: run.runId, input: { n: run.n, apiKey: '[REDACTED]' } });
  const words = ['alpha', 'beta', 'gamma'].slice(0, 1 + (run.n % 3));
  const [prepare, judge, stamp, child] = tree.children;
  expect(prepare).toMatchObject({
    kind: 'step',
    name: 'prepare',
    activityType: 'fleet#prepare',
    attempt: 1,
    output: { n: run.n, words, apiKey: '[REDACTED]' },
  });
  expect(judge).toMatchObject({ kind: 'evaluator', name: 'judge', input: { words }, output: { value: words.length, confidence: 0.5 } });
  expect(stamp).toMatchObject({ kind: 'step', name: 'stamp', activityType: 'fleet#stamp', input: `run-${run.n}`, output: `stamped:run-${run.n}` });
  expect(child).toMatchObject({ kind: 'child_workflow', name: 'summary', input: { words }, output: { count: words.length, first: 'alpha' } });
  expect(child.workflowId).toMatch(new RegExp(`^${run.workflowId}-[0-9a-f-]{36}$`));
  for (const node of [tree, prepare, judge, stamp, child]) {
    expect(node.startedAt).toEqual(expect.any(Number));
    expect(node.durationMs).toBeGreaterThanOrEqual(0);
  }
  if (run.fail) {
    expect(shape(tree)).toEqual([
      'workflow',
      'fleet',
      'failed',
      [
        ['step', 'prepare', 'completed', []],
        ['evaluator', 'judge', 'completed', []],
        ['step', 'stamp', 'completed', []],
        ['child_workflow', 'summary', 'completed', [['step', 'count', 'completed', []]]],
        ['step', 'refuse', 'failed', []],
      ],
    ]);
    expect(tree.children[4].error).toMatchObject({ name: 'Error', message: `refused ${run.n}`, cause: { message: 'root cause' } });
    expect(tree.error.message).toContain('Activity task failed');
  } else {
    expect(shape(tree)).toEqual([
      'workflow',
      'fleet',
      'completed',
      [
        ['step', 'prepare', 'completed', []],
        ['evaluator', 'judge', 'completed', []],
        ['step', 'stamp', 'completed', []],
        ['child_workflow', 'summary', 'completed', [['step', 'count', 'completed', []]]],
      ],
    ]);
    expect(tree.output).toMatchObject({ n: run.n, stamped: `stamped:run-${run.n}` });
  }
}

async function startRuns(count: number, from: number): Promise<Array<(typeof runs)[number]>> {
  const started: Array<(typeof runs)[number]> = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, async (_, j) => {
        const n = from + i + j;
        const fail = n % 15 === 7;
        // The trees are what is judged, not the latency: a run's wait allows for ten at a time on a loaded machine
        // (one waited past the default 30 s while another suite shared the two cores).
        const res = await call('POST', '/workflow/run', { workflowName: 'fleet', input: { n, apiKey: 'sk-secret', fail }, timeout: 90_000 });
        expect(res.body.status, `${res.status} ${JSON.stringify(res.body)}`).toBe(fail ? 'failed' : 'completed');
        expect(res.body.trace.destinations.remote).toMatch(new RegExp(`^${weed.endpoint}/${weed.bucket}/fleet/fleet/\\d{4}/\\d{2}/\\d{2}/\\d+_`));
        return { workflowId: res.body.workflowId as string, runId: res.body.runId as string, n, fail };
      }),
    );
    started.push(...batch);
  }
  return started;
}

beforeAll(async () => {
  weed = await startSeaweedFs();
  base = await mkdtemp(path.join(tmpdir(), 'skein-fleet-'));
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection });
  // Three workers with trace folders of their own start at once, as a fleet does: one bundles, two wait for it.
  workers.push(...[1, 2, 3].map((i) => spawnSkein(['worker', FIXTURE], workerEnv(i))));
  await Promise.all(workers.map((w) => w.waitFor(/worker serving/, 90_000)));
  const apiFolder = path.join(base, 'elsewhere');
  await mkdir(apiFolder);
  const port = await freePort();
  api = spawnSkein(
    ['api'],
    { ...weed.env, SKEIN_TRACE_S3_PREFIX: 'fleet/', TEMPORAL_ADDRESS: inject('temporalAddress'), SKEIN_CATALOG: catalog, PORT: String(port) },
    { cwd: apiFolder },
  );
  await api.waitFor(/listening/i, 30_000);
  apiUrl = `http://127.0.0.1:${port}`;
}, 240_000);

afterAll(async () => {
  for (const p of [...workers, api]) {
    if (p && p.child.exitCode === null) {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  }
  await connection?.close();
  await weed?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe('traces with three workers and object storage', () => {
  it('bundled the project once for the three workers that started together, each with its own trace folder', () => {
    const startups = workers.map((w) => /"bundleCache":"([a-z]+)"/.exec(w.stdout())?.[1]);
    expect(startups.sort()).toEqual(['hit', 'hit', 'miss']);
  });

  it(`answers one complete tree for each of ${RUNS} runs, assembled whichever workers ran its parts`, async () => {
    runs.push(...(await startRuns(RUNS, 0)));
    const identities = new Set<string>();
    for (const run of runs) {
      const res = await until(async () => {
        const r = await traceLog(run);
        return r.status === 200 && r.body.source === 'remote' ? r : undefined;
      });
      expectComplete(run, res.body.data);
      const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
      for (const e of history.events ?? []) {
        const id = e.workflowTaskCompletedEventAttributes?.identity ?? e.activityTaskStartedEventAttributes?.identity;
        if (id) identities.add(id);
      }
    }
    // The runs' parts really were spread over the workers.
    expect(identities.size).toBeGreaterThan(1);
  }, 300_000);

  it('keeps every attempt’s error of a retried step, whichever workers ran the attempts and assembled the trace', async () => {
    const flaky = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const doom = i % 2 === 1;
        const res = await call('POST', '/workflow/run', { workflowName: 'flaky', input: { doom } });
        expect(res.body.status).toBe(doom ? 'failed' : 'completed');
        // What the caller sees is what the step threw: Skein's carrier never reaches it.
        expect(JSON.stringify(res.body)).not.toContain('$skeinAttemptErrors');
        return { workflowId: res.body.workflowId as string, runId: res.body.runId as string, doom };
      }),
    );
    let elsewhere = 0;
    for (const run of flaky) {
      const res = await until(async () => {
        const r = await traceLog(run);
        return r.status === 200 && r.body.source === 'remote' ? r : undefined;
      });
      const [shaky, doomed] = res.body.data.tree.children;
      const attemptError = (n: number) => ({
        name: 'Error',
        message: expect.stringMatching(new RegExp(`^attempt ${n} fails on \\d+$`)),
        cause: { message: `why ${n}` },
      });
      expect(shaky).toMatchObject({
        name: 'shaky',
        status: 'completed',
        attempt: 3,
        output: 3,
        retries: [
          { attempt: 1, error: attemptError(1) },
          { attempt: 2, error: attemptError(2) },
        ],
      });
      expect(shaky.retries).toHaveLength(2);
      expect(shaky.retriesDropped).toBeUndefined();
      const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
      const events = history.events ?? [];
      const closer = [...events].reverse().find((e) => e.workflowTaskCompletedEventAttributes)!.workflowTaskCompletedEventAttributes!.identity!;
      const pids = [...shaky.retries, ...(doomed?.retries ?? [])].map((r: any) => r.error.message.split(' on ')[1]);
      elsewhere += pids.filter((pid: string) => !closer.startsWith(`${pid}@`)).length;
      if (run.doom) {
        const typeError = (n: number) => ({
          name: 'TypeError',
          type: 'TypeError',
          message: expect.stringMatching(new RegExp(`^doomed attempt ${n} on \\d+$`)),
        });
        expect(doomed).toMatchObject({
          name: 'doomed',
          status: 'failed',
          attempt: 3,
          error: typeError(3),
          retries: [
            { attempt: 1, error: typeError(1) },
            { attempt: 2, error: typeError(2) },
          ],
        });
        expect(doomed.retries).toHaveLength(2);
        // The failure the workflow saw is the thrown one, with no details added.
        const failed = events.find((e) => e.activityTaskFailedEventAttributes)!.activityTaskFailedEventAttributes!;
        expect(failed.failure?.applicationFailureInfo?.details?.payloads ?? []).toEqual([]);
      } else {
        expect(doomed).toBeUndefined();
      }
    }
    // Attempts of these runs ran on other workers than the one that assembled their trace.
    expect(elsewhere).toBeGreaterThan(0);
  }, 120_000);

  it('runs complete while storage is down; their traces wait on disk through a worker restart and arrive once it is back', async () => {
    await weed.stop();
    const during = await startRuns(5, 1000);
    // Nothing remote yet; the local file of the worker that closed each run answers meanwhile.
    const r = await traceLog(during[0]!);
    expect([200, 404]).toContain(r.status);
    if (r.status === 200) expect(r.body.source).toBe('local');
    // Every worker stops while storage is down; one comes back, after storage.
    for (const w of workers.splice(0)) {
      w.child.kill('SIGTERM');
      expect(await w.exited).toBe(0);
    }
    expect((await readdir(path.join(base, 'spool'))).filter((f) => f.endsWith('.json'))).toHaveLength(during.length);
    await weed.restart();
    const again = spawnSkein(['worker', FIXTURE], workerEnv(1));
    workers.push(again);
    await again.waitFor(/worker serving/, 90_000);
    for (const run of during) {
      const res = await until(async () => {
        const t = await traceLog(run);
        return t.status === 200 && t.body.source === 'remote' ? t : undefined;
      }, 60_000);
      expectComplete(run, res.body.data);
    }
    runs.push(...during);
  }, 240_000);

  it('still answers every run from object storage once the workers are stopped and their trace folders deleted', async () => {
    for (const w of workers) {
      w.child.kill('SIGTERM');
      expect(await w.exited).toBe(0);
    }
    expect(await readdir(path.join(base, 'spool'))).toEqual([]);
    for (const i of [1, 2, 3]) await rm(path.join(base, `w${i}`, 'traces'), { recursive: true, force: true });
    for (const run of runs) {
      const res = await traceLog(run);
      expect(res.status).toBe(200);
      expect(res.body.source).toBe('remote');
      expectComplete(run, res.body.data);
    }
    // `skein workflow trace` prints the tree it gets from the API.
    const printed = await skein(apiUrl, ['workflow', 'trace', runs[0]!.workflowId]);
    expect(printed.code).toBe(0);
    for (const name of ['fleet', 'prepare', 'judge', 'stamp', 'summary', 'count']) expect(printed.stdout).toContain(name);
  }, 120_000);
});
