import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';
import { eventually } from '../support/poll.js';

/**
 * What a single worker's trace keeps now that traces are assembled from history: every attempt's error of a
 * retried step (history itself keeps only the last), and a detached child that closes after its root.
 */
let stack: Stack;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-single-trace-'));
  stack = await startStack('fixtures/projects/trace-fleet', {}, { traceDir: dir });
});

afterAll(async () => {
  await stack?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The trace in `file` once `done` holds for it (at most 15 s). */
async function traceWhen(file: string, done: (trace: any) => boolean): Promise<any> {
  return eventually(async () => {
    const trace = await readFile(file, 'utf8').then(JSON.parse, () => undefined);
    return trace && done(trace) ? trace : undefined;
  }, 15_000);
}

describe('a single worker’s trace', () => {
  it('keeps the error of every earlier attempt of a retried step', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'wobble', input: `k-${Date.now()}` });
    expect(res.body).toMatchObject({ status: 'completed', output: 3 });
    const trace = await traceWhen(res.body.trace.destinations.local, () => true);
    expect(trace.tree.children).toHaveLength(1);
    expect(trace.tree.children[0]).toMatchObject({
      kind: 'step',
      name: 'wobbly',
      status: 'completed',
      attempt: 3,
      output: 3,
      retries: [
        { attempt: 1, error: { name: 'Error', message: 'attempt 1 fails' } },
        { attempt: 2, error: { name: 'Error', message: 'attempt 2 fails' } },
      ],
    });
  });

  it('keeps every attempt’s error of a step retried to success and of one that fails for good, in the fleet’s shape', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'flaky', input: { doom: true } });
    expect(res.body.status).toBe('failed');
    expect(JSON.stringify(res.body)).not.toContain('$skeinAttemptErrors');
    const trace = await traceWhen(res.body.trace.destinations.local, (t) => t.tree.status === 'failed');
    const pid = expect.stringMatching(/ on \d+$/);
    const [shaky, doomed] = trace.tree.children;
    expect(shaky).toMatchObject({ name: 'shaky', status: 'completed', attempt: 3, output: 3 });
    expect(shaky.retries).toEqual([
      { attempt: 1, error: { name: 'Error', type: 'Error', message: pid, cause: { name: 'Error', message: 'why 1' } } },
      { attempt: 2, error: { name: 'Error', type: 'Error', message: pid, cause: { name: 'Error', message: 'why 2' } } },
    ]);
    expect(doomed).toMatchObject({ name: 'doomed', status: 'failed', attempt: 3, error: { name: 'TypeError', type: 'TypeError', message: pid } });
    expect(doomed.retries).toEqual([
      { attempt: 1, error: { name: 'TypeError', type: 'TypeError', message: pid } },
      { attempt: 2, error: { name: 'TypeError', type: 'TypeError', message: pid } },
    ]);
    // History itself holds every attempt, for a worker that ran none of them: the failure before the final attempt
    // carries the ones before it (it reached the next attempt through the engine, in the heartbeat the failure
    // report carried); the final failure, which the workflow saw, carries nothing.
    const connection = await Connection.connect({ address: stack.address });
    try {
      const history = await new Client({ connection }).workflow.getHandle(res.body.workflowId, res.body.runId).fetchHistory();
      const events = history.events ?? [];
      const started = events.filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!);
      expect(started.map((a) => a.attempt)).toEqual([3, 3]);
      for (const [a, error] of [
        [started[0]!, { name: 'Error', type: 'Error', message: pid, cause: { name: 'Error', message: 'why 1' } }],
        [started[1]!, { name: 'TypeError', type: 'TypeError', message: pid }],
      ] as const) {
        expect(a.lastFailure?.message).toMatch(/ 2 (fails )?on \d+$/);
        const details = (a.lastFailure?.applicationFailureInfo?.details?.payloads ?? []).map((p) => defaultPayloadConverter.fromPayload(p));
        expect(details).toEqual([{ $skeinAttemptErrors: { errors: [{ attempt: 1, error }], dropped: 0 } }]);
      }
      const failed = events.find((e) => e.activityTaskFailedEventAttributes)!.activityTaskFailedEventAttributes!;
      expect(failed.failure?.message).toMatch(/^doomed attempt 3 on \d+$/);
      expect(failed.failure?.applicationFailureInfo?.details?.payloads ?? []).toEqual([]);
    } finally {
      await connection.close();
    }
  });

  it('hands the workflow a timed-out step’s failure without the attempt errors carried for the trace', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'flaky', input: { expire: true } });
    expect(res.body.status).toBe('completed');
    // The engine's timeout holds the last heartbeat details, which are the attempts' errors carried for the trace…
    const connection = await Connection.connect({ address: stack.address });
    try {
      const history = await new Client({ connection }).workflow.getHandle(res.body.workflowId, res.body.runId).fetchHistory();
      const timedOut = (history.events ?? []).find((e) => e.activityTaskTimedOutEventAttributes)!.activityTaskTimedOutEventAttributes!;
      const heartbeat = timedOut.failure?.timeoutFailureInfo?.lastHeartbeatDetails?.payloads ?? [];
      expect(heartbeat.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual([
        { $skeinAttemptErrors: { errors: [expect.objectContaining({ attempt: 1 }), expect.objectContaining({ attempt: 2 })], dropped: 0 } },
      ]);
    } finally {
      await connection.close();
    }
    // … which the workflow does not see.
    expect(res.body.output).toEqual([
      expect.objectContaining({ name: 'ActivityFailure', details: null }),
      { name: 'TimeoutFailure', message: 'activity ScheduleToClose timeout', details: null, lastHeartbeatDetails: null },
    ]);
    const trace = await traceWhen(res.body.trace.destinations.local, (t) => t.tree.status === 'completed');
    expect(trace.tree.children[0]).toMatchObject({
      name: 'expiring',
      status: 'failed',
      error: { name: 'TimeoutFailure' },
      retries: [
        { attempt: 1, error: { name: 'Error', message: 'expiring attempt 1' } },
        { attempt: 2, error: { name: 'Error', message: 'expiring attempt 2' } },
      ],
    });
  });

  it('completes a detached child in its root’s trace once the child closes after the root', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'launcher', input: null });
    expect(res.body.status).toBe('completed');
    const file = res.body.trace.destinations.local;
    const first = await traceWhen(file, (t) => t.tree.status === 'completed');
    expect(first.tree.children).toMatchObject([{ kind: 'child_workflow', name: 'nap', status: 'running' }]);
    // The child closes only now, after its root's trace was written.
    const woken = await stack.post(`/workflow/${res.body.output.workflowId}/signal/wake`, {});
    expect(woken.status).toBe(202);
    const later = await traceWhen(file, (t) => t.tree.children[0]?.status === 'completed');
    expect(later.tree.children[0]).toMatchObject({
      kind: 'child_workflow',
      name: 'nap',
      workflowId: res.body.output.workflowId,
      output: 'stamped:awake',
      children: [{ kind: 'step', name: 'stamp', status: 'completed', output: 'stamped:awake' }],
    });
    expect(later.tree).toMatchObject({ status: 'completed', output: res.body.output });
    // The child's own trace-log is its root's tree (the API has no trace setting: the worker advertises its folder).
    const child = res.body.output as { workflowId: string; runId: string };
    const log = await stack.get(`/workflow/${child.workflowId}/runs/${child.runId}/trace-log`);
    expect(log.status).toBe(200);
    expect(log.body).toMatchObject({ source: 'local', location: file, data: { root: { workflowId: res.body.workflowId, runId: res.body.runId } } });
  });
});
