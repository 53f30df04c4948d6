import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { startStack, type Stack } from '../support/stack.js';
import { eventually } from '../support/poll.js';

/** SPEC rule 11 (activity options layering), child workflows and shared activities (rules 6, 7, 10) on a real engine. */
let stack: Stack;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  stack = await startStack('fixtures/projects/runtime');
  connection = await Connection.connect({ address: stack.address });
  client = new Client({ connection });
});

afterAll(async () => {
  await stack?.close();
  await connection?.close();
});

const seconds = (d: temporal.api.duration.IDuration | null | undefined) => (d ? Number(d.seconds ?? 0) + (d.nanos ?? 0) / 1e9 : null);

/** Each scheduled activity's id, priority and summary (`userMetadata.summary`, a JSON payload), as recorded. */
async function scheduledMetadata(workflowId: string, runId?: string) {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return (history.events ?? []).flatMap((e) => {
    const a = e.activityTaskScheduledEventAttributes;
    if (!a) return [];
    const summary = e.userMetadata?.summary?.data;
    return [
      {
        activityId: a.activityId,
        priority: { priorityKey: a.priority?.priorityKey ?? 0, fairnessKey: a.priority?.fairnessKey ?? '', fairnessWeight: a.priority?.fairnessWeight ?? 0 },
        summary: summary ? JSON.parse(Buffer.from(summary).toString('utf8')) : null,
      },
    ];
  });
}

/** Ids of the child workflows a run started, in order, as its history records them. */
async function childIds(workflowId: string, runId?: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return (history.events ?? []).flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? []);
}

/** What the engine recorded of each activity a run scheduled: type, timeouts (s), retry policy. */
async function scheduled(workflowId: string, runId?: string) {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return (history.events ?? [])
    .map((e) => e.activityTaskScheduledEventAttributes)
    .filter((a): a is temporal.api.history.v1.IActivityTaskScheduledEventAttributes => !!a)
    .map(({ activityId: _id, priority: _priority, ...a }) => ({
      type: a.activityType?.name,
      startToClose: seconds(a.startToCloseTimeout),
      scheduleToClose: seconds(a.scheduleToCloseTimeout),
      heartbeat: seconds(a.heartbeatTimeout),
      retry: {
        initialInterval: seconds(a.retryPolicy?.initialInterval),
        backoffCoefficient: a.retryPolicy?.backoffCoefficient,
        maximumInterval: seconds(a.retryPolicy?.maximumInterval),
        maximumAttempts: a.retryPolicy?.maximumAttempts,
      },
    }));
}

describe('activity options (SPEC rule 11), as the engine recorded them', () => {
  it('layers defaults < inherited < definition < invocation < the step’s own', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'options', input: null });
    expect(res.body).toMatchObject({ status: 'completed', output: 'ok' }); // ok: context.control.isContinueAsNewSuggested() was false
    const { workflowId, runId } = res.body;
    // Parent: defaults (5 min, 1 s/x2/30 s/3) < definition (41 s, x3, 4 attempts) < step (2 s initial interval).
    expect(await scheduled(workflowId, runId)).toEqual([
      {
        type: 'options#probe',
        startToClose: 41,
        scheduleToClose: 0, // 0 = not set, as the engine records it
        heartbeat: 0,
        retry: { initialInterval: 2, backoffCoefficient: 3, maximumInterval: 30, maximumAttempts: 4 },
      },
    ]);
    // Child: inherited from the parent (41 s, x3) < its definition (13 s heartbeat, 5 attempts)
    // < the call site (3 min schedule-to-close, 6 attempts); its step sets nothing.
    const [childId] = await childIds(workflowId, runId);
    expect(await scheduled(childId!)).toEqual([
      {
        type: 'optionsChild#childProbe',
        startToClose: 41,
        scheduleToClose: 180,
        heartbeat: 13,
        retry: { initialInterval: 1, backoffCoefficient: 3, maximumInterval: 30, maximumAttempts: 6 },
      },
    ]);
    // The step's id, priority and summary reach the engine as they are; the child's step sets none (Temporal's
    // sequence number for an id, no priority, no summary).
    expect(await scheduledMetadata(workflowId, runId)).toEqual([
      { activityId: 'probe-activity', priority: { priorityKey: 2, fairnessKey: 'tenant-a', fairnessWeight: 2 }, summary: 'probes the caller' },
    ]);
    expect(await scheduledMetadata(childId!)).toEqual([{ activityId: '1', priority: { priorityKey: 0, fairnessKey: '', fairnessWeight: 0 }, summary: null }]);
  });
});

describe('child workflows', () => {
  it('runs imported workflows as children with URL-safe ids of their own, parent and root recorded', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'family', input: { mode: 'ok' } });
    expect(res.body.status).toBe('completed');
    const id = res.body.workflowId;
    const token = /^-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const [first, second] = res.body.output;
    expect(res.body.output).toEqual([
      { n: 1, workflowId: expect.any(String), parent: id, root: id },
      { n: 2, workflowId: expect.any(String), parent: id, root: id },
    ]);
    for (const kid of [first, second]) {
      expect(kid.workflowId.startsWith(id)).toBe(true);
      expect(kid.workflowId.slice(id.length)).toMatch(token);
    }
    expect(first.workflowId).not.toBe(second.workflowId);
    expect(await childIds(id)).toEqual([first.workflowId, second.workflowId]);
    // Used as-is in a URL path, a child's id reaches its own run.
    for (const kid of [first, second]) {
      const status = await stack.get(`/workflow/${kid.workflowId}/status`);
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({ workflowId: kid.workflowId, status: 'completed' });
    }
  });

  it('gives a reset run new child ids (a replay keeps them)', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'family', input: { mode: 'ok' } });
    const id = res.body.workflowId;
    const before = await childIds(id, res.body.runId);
    const history = await client.workflow.getHandle(id, res.body.runId).fetchHistory();
    const firstTaskDone = (history.events ?? []).find((e) => e.workflowTaskCompletedEventAttributes)!;
    const { runId: resetRunId } = await client.workflowService.resetWorkflowExecution({
      namespace: 'default',
      workflowExecution: { workflowId: id, runId: res.body.runId },
      workflowTaskFinishEventId: firstTaskDone.eventId,
      requestId: crypto.randomUUID(),
      reason: 'test',
    });
    const after = await client.workflow.getHandle(id, resetRunId!).result();
    const afterIds = await childIds(id, resetRunId!);
    expect(afterIds).toHaveLength(2);
    expect(afterIds.filter((c) => before.includes(c))).toEqual([]);
    expect((after as Array<{ workflowId: string }>).map((k) => k.workflowId)).toEqual(afterIds);
  });

  it('lets a child failure flow back to the parent', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'family', input: { mode: 'kid-fails' } });
    expect(res.body.status).toBe('failed');
    expect(JSON.stringify(res.body.failure)).toContain('kid 2 refuses');
  });

  it('a detached child outlives its parent; an attached one is terminated with it', async () => {
    for (const [mode, expected] of [
      ['detached', 'RUNNING'],
      ['attached', 'TERMINATED'],
    ] as const) {
      const started = await stack.post('/workflow/start', { workflowName: 'family', input: { mode } });
      const parent = client.workflow.getHandle(started.body.workflowId);
      let childId: string | undefined;
      await waitUntil(async () => (childId = (await childIds(started.body.workflowId))[0]) !== undefined);
      const child = client.workflow.getHandle(childId!);
      await waitUntil(async () => (await child.describe().catch(() => null))?.status.name === 'RUNNING');
      await parent.terminate('test');
      await waitUntil(async () => (await child.describe()).status.name !== 'RUNNING' || mode === 'detached', 10_000);
      await new Promise((r) => setTimeout(r, 500));
      expect((await child.describe()).status.name).toBe(expected);
      if (mode === 'detached') expect(await child.result()).toBe('awake');
    }
  });
});

describe('shared activities (SPEC rules 6, 7, 10)', () => {
  it('are callable from any workflow as <workflow>#<name>; the project’s registration wins over a package’s', async () => {
    const local = await stack.post('/workflow/run', { workflowName: 'stamped', input: 'a' });
    const fromPackage = await stack.post('/workflow/run', { workflowName: 'pkgflow', input: 'b' });
    expect(local.body).toMatchObject({ status: 'completed', output: 'project:a' });
    expect(fromPackage.body).toMatchObject({ status: 'completed', output: 'project:b' });
    expect((await scheduled(fromPackage.body.workflowId)).map((a) => a.type)).toEqual(['pkgflow#stamp']);
  });

  it('a package workflow calls package-level shared steps of another package', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'welcome', input: { name: 'lin' } });
    expect(res.body).toMatchObject({ status: 'completed', output: { message: 'Welcome, Lin!' } });
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  await eventually(check, timeoutMs);
}
