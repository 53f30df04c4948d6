import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';
import { readHookLog, waitForHooks, type HookRecord } from '../support/hook-log.js';
import { eventually } from '../support/poll.js';

/** Hooks (SPEC "Events") and local traces, observed on a real engine through the runtime fixture's hook file. */
let stack: Stack;
let http: Server;
let url: string;
let dir: string;
let hookLog: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-hooks-'));
  hookLog = path.join(dir, 'hooks.jsonl');
  process.env.SKEIN_HOOK_LOG = hookLog;
  process.env.SKEIN_TRACE_DIR = path.join(dir, 'traces');
  http = createServer((_req, res) => res.end('{"ok":true}'));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(http.address() as { port: number }).port}/thing`;
  stack = await startStack('fixtures/projects/runtime');
});

afterAll(async () => {
  await stack?.close();
  http?.close();
  delete process.env.SKEIN_HOOK_LOG;
  delete process.env.SKEIN_TRACE_DIR;
  await rm(dir, { recursive: true, force: true });
});

/**
 * Reads a root run's trace once it is final: the file is written right after the run closes (hook sinks are
 * delivered after the workflow's last activation), so it may lag the API's answer by a few milliseconds.
 */
async function readFinalTrace(file: string): Promise<any> {
  return eventually(
    async () => {
      const trace = await readFile(file, 'utf8').then(JSON.parse, () => undefined);
      return trace && trace.tree.status !== 'running' ? trace : undefined;
    },
    10_000,
    50,
  );
}

const forRun = (records: HookRecord[], runId: string) =>
  records.filter((r) => r.payload.workflowDetails?.runId === runId || r.payload.workflowDetails?.root?.runId === runId);

describe('hooks', () => {
  it('onBeforeStart ran once before the worker started, with the catalog', async () => {
    const before = (await readHookLog(hookLog)).filter((r) => r.hook === 'onBeforeStart');
    expect(before).toHaveLength(1);
    expect(before[0]!.payload).toMatchObject({ catalog: stack.catalog, eventId: expect.any(String), eventDate: expect.any(Number) });
    expect(before[0]!.payload.workflows).toContain('costs');
  });

  it('delivers workflow and activity lifecycle events, on() events and aggregations, despite a throwing hook', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'costs', input: { url, apiKey: 'sk-live-123' } });
    expect(res.body.status).toBe('completed');
    const { runId, workflowId } = res.body;
    const records = await waitForHooks(hookLog, (rs) => rs.some((r) => r.hook === 'onWorkflowEnd' && r.payload.workflowDetails.runId === runId));
    const mine = forRun(records, runId);
    const start = mine.find((r) => r.hook === 'onWorkflowStart')!;
    expect(start.payload).toMatchObject({
      eventId: expect.any(String),
      eventDate: expect.any(Number),
      input: { url, apiKey: 'sk-live-123' },
      workflowDetails: {
        attempt: 1,
        continuedFromExecutionRunId: null,
        firstExecutionRunId: runId,
        parent: null,
        runId,
        workflowId,
        workflowType: 'costs',
        runStartTime: expect.any(Number),
        startTime: expect.any(Number),
      },
    });
    const actStart = mine.find((r) => r.hook === 'onActivityStart')!;
    expect(actStart.payload).toMatchObject({
      outputActivityKind: 'step',
      activityInfo: { activityType: 'costs#callApi', name: 'callApi', attempt: 1, taskQueue: stack.catalog },
      workflowDetails: { workflowId, runId, workflowType: 'costs' },
    });
    const actEnd = mine.find((r) => r.hook === 'onActivityEnd')!;
    expect(actEnd.payload.aggregations).toEqual({ totalCost: 0.76, httpCalls: 2, tokens: { input: 100, output: 20, total: 120 } });
    expect(actEnd.payload.output).toMatchObject({ status: 200 });

    const http = mine.filter((r) => r.hook === 'http:request');
    expect(http.map((r) => r.payload.payload.method)).toEqual(['GET', 'POST']);
    expect(http[0]!.payload).toMatchObject({
      name: 'http:request',
      outputActivityKind: 'step',
      activityInfo: { activityType: 'costs#callApi' },
      payload: { url, status: 200, durationMs: expect.any(Number) },
    });
    expect(mine.filter((r) => r.hook === 'cost:http:request').map((r) => r.payload.payload.cost)).toEqual([0.25, 0.5]);
    expect(mine.find((r) => r.hook === 'cost:llm:request')!.payload.payload).toEqual({
      model: 'test-model',
      inputTokens: 100,
      outputTokens: 20,
      totalTokens: 120,
      cost: 0.01,
      currency: 'USD',
    });
    expect(mine.find((r) => r.hook === 'custom:step')!.payload.payload).toEqual({ note: 'hello' });
    // Emitted from workflow code: outside an activity, so the envelope has no activity members.
    const fromWorkflow = records.filter((r) => r.hook === 'custom:workflow');
    expect(fromWorkflow.length).toBeGreaterThan(0);
    expect(fromWorkflow.at(-1)!.payload).not.toHaveProperty('activityInfo');
    expect(fromWorkflow.at(-1)!.payload).toMatchObject({ name: 'custom:workflow', payload: { from: 'workflow' } });
    expect(mine.find((r) => r.hook === 'onWorkflowEnd')!.payload.output).toMatchObject({ status: 200 });
  });

  it('delivers activity and workflow errors, to their hooks and to onError with the right source', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'failing', input: 3 });
    expect(res.body.status).toBe('failed');
    const { runId } = res.body;
    const records = await waitForHooks(hookLog, (rs) => forRun(rs, runId).some((r) => r.hook === 'onWorkflowError'));
    const mine = forRun(records, runId);
    expect(mine.find((r) => r.hook === 'onActivityError')!.payload).toMatchObject({
      outputActivityKind: 'step',
      error: { message: 'level 2', cause: { message: 'level 1', cause: { message: 'level 0' } } },
      aggregations: { totalCost: 0, httpCalls: 0 },
    });
    const onError = mine
      .filter((r) => r.hook === 'onError')
      .map((r) => r.payload.source)
      .sort();
    expect(onError).toEqual(['activity', 'workflow']);
    expect(mine.find((r) => r.hook === 'onWorkflowError')!.payload.error.name).toBe('ActivityFailure');
  });

  it('never delivers hooks for the $catalog registry workflow', async () => {
    const records = await readHookLog(hookLog);
    expect(records.some((r) => r.payload.workflowDetails?.workflowType === '$catalog')).toBe(false);
  });
});

describe('traces', () => {
  it('writes one JSON tree per root run, publishes its path, and redacts credentials', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'costs', input: { url, apiKey: 'sk-live-123' } });
    const { workflowId, runId } = res.body;
    const file = path.join(process.env.SKEIN_TRACE_DIR!, encodeURIComponent(workflowId), `${runId}.json`);
    expect(res.body.trace).toEqual({ destinations: { local: file } });
    const trace = await readFinalTrace(file);
    expect(trace.root).toEqual({ workflowId, runId });
    expect(trace.tree).toMatchObject({ kind: 'workflow', name: 'costs', status: 'completed', input: { url, apiKey: '[REDACTED]' } });
    expect(trace.tree.children).toHaveLength(1);
    expect(trace.tree.children[0]).toMatchObject({
      kind: 'step',
      name: 'callApi',
      activityType: 'costs#callApi',
      status: 'completed',
      output: { status: 200, token: '[REDACTED]', nested: { password: '[REDACTED]', keep: 'visible' } },
      durationMs: expect.any(Number),
    });
  });

  it('nests child workflows under their parent in the root run file', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'family', input: { mode: 'ok' } });
    expect(res.body.status).toBe('completed');
    const trace = await readFinalTrace(res.body.trace.destinations.local);
    expect(trace.tree.name).toBe('family');
    expect(trace.tree.children.map((c: any) => [c.kind, c.name, c.status])).toEqual([
      ['child_workflow', 'kid', 'completed'],
      ['child_workflow', 'kid', 'completed'],
    ]);
  });

  it('cuts error cause chains at 10 levels', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'failing', input: 15 });
    const trace = await readFinalTrace(res.body.trace.destinations.local);
    let error = trace.tree.children[0].error;
    let depth = 1;
    while (error.cause) {
      error = error.cause;
      depth++;
    }
    expect(depth).toBe(10);
    expect(error.truncated).toBe(true);
    expect(trace.tree.children[0].error.message).toBe('level 14');
  });
});
