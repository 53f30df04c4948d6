import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { openBuild, prepareProject, replayHistories, replayHistoryOf, startWorker, writeBuild, type ReplayHistory, type SkeinWorker } from '@skein/worker';
import { repoRoot } from '../support/stack.js';
import { startJaeger, type Jaeger } from '../support/backends.js';
import { eventually } from '../support/poll.js';

/**
 * A build is made once and served under any setting: tracing is the worker's setting, not the bundle's. A build
 * made without any tracing setting, served by a worker with `OTEL_EXPORTER_OTLP_ENDPOINT` set, exports the
 * workflow's spans to a real Jaeger as a worker started on the project does; served by a worker without it, the
 * same build traces nothing. Each run keeps the decision of the worker that started it (recorded in its history).
 */
const logger = pino({ level: process.env.SKEIN_TEST_LOGS ? 'debug' : 'silent' });
const saved = { ...process.env };
/** Temporal's SDK flag "OpenTelemetry interceptors instrument all methods": recorded by a traced run's first task. */
const TRACED_FLAG = 6;
let jaeger: Jaeger;
let tmp: string;
let buildDir: string;
let buildId: string;
let address: string;

beforeAll(async () => {
  address = inject('temporalAddress');
  jaeger = await startJaeger();
  tmp = await mkdtemp(path.join(tmpdir(), 'skein-traces-build-'));
  buildDir = path.join(tmp, 'build');
  // Built with no tracing setting at all; caches off, so nothing is written into the repository's example.
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const prepared = await prepareProject(path.join(repoRoot, 'examples'), { logger, startupCache: false, bundleCache: false });
  buildId = (await writeBuild(prepared, buildDir, { catalog: 'main' })).buildId;
}, 180_000);

afterAll(async () => {
  await jaeger?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
  process.env = saved;
});

/** A worker serving the build and an API, on a catalog of their own; tracing as `process.env` says at start. */
async function serveBuild(): Promise<{ worker: SkeinWorker; api: ApiServer; url: string; catalog: string; close(): Promise<void> }> {
  const catalog = `tb${process.pid}-${Date.now()}`;
  const build = await openBuild(buildDir);
  const worker = await startWorker({ projectDir: build.record.projectDir, build, catalog, engine: { address }, logger });
  const api = await createApiServer(loadApiConfig({ ...process.env, TEMPORAL_ADDRESS: address, PORT: '0', SKEIN_CATALOG: catalog }), { logger });
  const { url } = await api.listen();
  await eventually(async () => (await fetch(`${url}/workflow/catalog`)).status === 200, 20_000, 250);
  return {
    worker,
    api,
    url,
    catalog,
    async close() {
      await api.close();
      await worker.shutdown();
    },
  };
}

const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

/** Runs `onboard_customer` through the API with a new `traceparent`; returns the trace id and the run's workflow id. */
async function run(url: string): Promise<{ traceId: string; workflowId: string }> {
  const traceId = hex(32);
  const res = await fetch(`${url}/workflow/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${hex(16)}-01` },
    body: JSON.stringify({ workflowName: 'onboard_customer', input: { name: 'ada lovelace', email: 'ada@example.com' } }),
  });
  const body = (await res.json()) as { status: string; workflowId: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.status).toBe('completed');
  return { traceId, workflowId: body.workflowId };
}

/** The run's history, kept for the replay check. */
const histories: ReplayHistory[] = [];

/** The SDK flags the run's first workflow task recorded (its history is kept in `histories`). */
async function firstTaskFlags(workflowId: string): Promise<number[]> {
  const connection = await Connection.connect({ address });
  try {
    const history = await new Client({ connection }).workflow.getHandle(workflowId).fetchHistory();
    histories.push(replayHistoryOf(workflowId, history));
    const completed = history.events!.find((e) => e.workflowTaskCompletedEventAttributes)!;
    return completed.workflowTaskCompletedEventAttributes!.sdkMetadata?.langUsedFlags ?? [];
  } finally {
    await connection.close();
  }
}

describe('a worker serving a build', () => {
  it('exports workflow, activity and child workflow spans when tracing is on where it runs', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = jaeger.otlpHttp;
    process.env.OTEL_BSP_SCHEDULE_DELAY = '200';
    const served = await serveBuild();
    try {
      expect(served.worker.deployment.buildId).toBe(buildId);
      const { traceId, workflowId } = await run(served.url);
      const trace = await jaeger.traceHolding(traceId, [
        'POST /workflow/run',
        'RunWorkflow:onboard',
        'StartActivity:onboard#normalizeEmail',
        'RunActivity:onboard#normalizeEmail',
        'StartChildWorkflow:welcome',
        'RunWorkflow:welcome',
      ]);
      const workflowSpan = trace.spans.find((s) => s.operationName === 'RunWorkflow:onboard')!;
      expect(trace.processes[workflowSpan.processID]!.serviceName).toBe('skein-worker');
      expect(await firstTaskFlags(workflowId)).toContain(TRACED_FLAG);
    } finally {
      await served.close();
    }
  }, 120_000);

  it('exports no workflow span, from the same build, when tracing is off where it runs', async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    const served = await serveBuild();
    try {
      expect(served.worker.deployment.buildId).toBe(buildId);
      const { traceId, workflowId } = await run(served.url);
      expect(await firstTaskFlags(workflowId)).not.toContain(TRACED_FLAG);
      // Give a stray export the time the traced run's took, then look: nothing of this trace reached Jaeger.
      await new Promise((r) => setTimeout(r, 2_000));
      expect((await jaeger.trace(traceId))?.spans ?? []).toEqual([]);
    } finally {
      await served.close();
    }
  }, 120_000);

  it("replays the traced and the untraced run on the build's bundle (a replay follows each run's own history)", async () => {
    expect(histories).toHaveLength(2);
    const outcomes = [];
    for await (const outcome of replayHistories((await openBuild(buildDir)).workflowCode, histories)) outcomes.push(outcome);
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.message))).toEqual(['ok', 'ok']);
  }, 60_000);
});
