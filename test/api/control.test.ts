import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startHarness, type Harness } from './support.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

async function startWaiter(input: unknown = { value: 1 }) {
  const res = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter', input } });
  expect(res.status).toBe(200);
  const { workflowId, runId } = res.body as { workflowId: string; runId: string };
  // Wait until the first workflow task completed, so handlers are registered.
  await eventually(async () => {
    const r = await h.call('GET', '/workflow/{id}/history', { params: { id: workflowId } });
    return r.body.events.some((e: { eventType: string }) => e.eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED');
  });
  return { workflowId, runId };
}

async function waitClosed(workflowId: string) {
  return eventually(async () => {
    const r = await h.call('GET', '/workflow/{id}/status', { params: { id: workflowId } });
    return r.body.status !== 'running' ? r.body : undefined;
  });
}

describe('signal, query, update', () => {
  it('signals the latest run (202 with its run id), queries and updates it', async () => {
    const { workflowId, runId } = await startWaiter({ value: 'a' });
    const ping = await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: workflowId, signal: 'ping' }, body: { payload: {} } });
    expect(ping.status).toBe(202);
    expect(ping.body).toEqual({ workflowId, runId });
    const state = await eventually(async () => {
      const q = await h.call('POST', '/workflow/{id}/query/{query}', { params: { id: workflowId, query: 'state' }, body: {} });
      return q.body.pings === 1 ? q : undefined;
    });
    // The handler's value itself is the body (CONTRACT "Endpoint details"), whatever its JSON type.
    expect(state.status).toBe(200);
    expect(state.body).toEqual({ value: 'a', pings: 1, done: false });
    const count = await h.call('POST', '/workflow/{id}/query/{query}', { params: { id: workflowId, query: 'pingCount' }, body: {} });
    expect([count.status, count.text, count.headers.get('content-type')]).toEqual([200, '1', 'application/json; charset=utf-8']);
    const greeting = await h.call('POST', '/workflow/{id}/query/{query}', { params: { id: workflowId, query: 'greeting' }, body: {} });
    expect([greeting.status, greeting.text]).toEqual([200, '"pong"']);
    const update = await h.call('POST', '/workflow/{id}/update/{update}', {
      params: { id: workflowId, update: 'setValue' },
      body: { payload: { value: 'b' } },
    });
    expect(update.status).toBe(200);
    expect(update.body).toEqual({ previous: 'a', value: 'b' });
    // The validator's refusal is the client's mistake (422, its message, nothing recorded); a failure of the accepted
    // update is the handler's (500 with its message). Neither changes the value.
    const rejected = await h.call('POST', '/workflow/{id}/update/{update}', {
      params: { id: workflowId, update: 'setValue' },
      body: { payload: { value: 'forbidden' } },
    });
    expect(rejected.status).toBe(422);
    expect(rejected.body).toEqual({
      error: 'UpdateRejectedError',
      message: 'The update "setValue" was rejected by its validator: the value "forbidden" is not allowed',
      workflowId,
    });
    const failed = await h.call('POST', '/workflow/{id}/update/{update}', {
      params: { id: workflowId, update: 'setValue' },
      body: { payload: { value: 'boom' } },
    });
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ error: 'InternalError', message: 'The update handler failed: the value boom cannot be stored', workflowId });
    const touch = await h.call('POST', '/workflow/{id}/update/{update}', { params: { id: workflowId, update: 'touch' }, body: {} });
    expect([touch.status, touch.text, touch.headers.get('content-type')]).toEqual([200, '', 'application/json; charset=utf-8']);
    const finish = await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: workflowId, signal: 'finish' }, body: { payload: { by: 'test' } } });
    expect(finish.status).toBe(202);
    const result = await eventually(async () => {
      const r = await h.call('GET', '/workflow/{id}/result', { params: { id: workflowId } });
      return r.status === 200 ? r : undefined;
    });
    expect(result.body.output).toEqual({ value: 'b', pings: 1, finish: { by: 'test' } });
  });

  it('a signal without a payload hands its handler {} (the contract: an object), so the run goes on', async () => {
    const { workflowId } = await startWaiter({ value: 'c' });
    const finish = await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: workflowId, signal: 'finish' }, body: {} });
    expect(finish.status).toBe(202);
    const closed = await waitClosed(workflowId);
    expect(closed.status).toBe('completed');
    const result = await h.call('GET', '/workflow/{id}/result', { params: { id: workflowId } });
    expect(result.body.output).toEqual({ value: 'c', pings: 0, finish: {} });
  });

  it('signal validation and errors: 400 for a non-object payload, 404 unknown execution, 409 closed run', async () => {
    const bad = await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: 'x', signal: 'ping' }, body: { payload: 'text' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ValidationError');
    const missing = await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: 'no-such-execution', signal: 'ping' }, body: { payload: {} } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'WorkflowNotFoundError' });
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: 1 } });
    const closed = await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: run.body.workflowId, signal: 'ping' }, body: { payload: {} } });
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({ error: 'WorkflowExecutionAlreadyCompletedError', workflowId: run.body.workflowId });
    const update = await h.call('POST', '/workflow/{id}/update/{update}', { params: { id: run.body.workflowId, update: 'setValue' }, body: { payload: {} } });
    expect(update.status).toBe(409);
  });

  it('an unknown query or update name is a 404 naming the handlers the workflow registers', async () => {
    const { workflowId } = await startWaiter();
    const q = await h.call('POST', '/workflow/{id}/query/{query}', { params: { id: workflowId, query: 'nope' }, body: {} });
    expect(q.status).toBe(404);
    expect(q.body).toEqual({
      error: 'QueryNotFoundError',
      workflowId,
      message: 'The workflow registers no query "nope"; its queries: "greeting", "pingCount", "state"',
    });
    const u = await h.call('POST', '/workflow/{id}/update/{update}', { params: { id: workflowId, update: 'nope' }, body: {} });
    expect(u.status).toBe(404);
    expect(u.body).toEqual({ error: 'UpdateNotFoundError', workflowId, message: 'The workflow registers no update "nope"; its updates: "setValue", "touch"' });
    // Temporal's built-in handlers (stack traces with the worker's source paths, metadata) are not the workflow's: 400.
    for (const query of ['__stack_trace', '__enhanced_stack_trace', '__temporal_workflow_metadata']) {
      const builtIn = await h.call('POST', '/workflow/{id}/query/{query}', { params: { id: workflowId, query }, body: {} });
      expect(builtIn.status, query).toBe(400);
      expect(builtIn.body.issues[0]).toMatchObject({ path: ['params', 'query'], message: expect.stringContaining('built-in') });
      expect(builtIn.text).not.toContain('/work');
    }
    // The run is not harmed by either.
    const state = await h.call('POST', '/workflow/{id}/query/{query}', { params: { id: workflowId, query: 'state' }, body: {} });
    expect(state.body).toMatchObject({ done: false });
    await h.client.workflow.getHandle(workflowId).terminate();
  });
});

describe('stop and terminate', () => {
  it('terminates a pinned run with a reason; a second terminate and stop are 409', async () => {
    const { workflowId, runId } = await startWaiter();
    const res = await h.call('POST', '/workflow/{id}/runs/{rid}/terminate', { params: { id: workflowId, rid: runId }, body: { reason: 'test' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ workflowId, runId });
    expect((await waitClosed(workflowId)).status).toBe('terminated');
    const again = await h.call('POST', '/workflow/{id}/runs/{rid}/terminate', { params: { id: workflowId, rid: runId }, body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'WorkflowExecutionAlreadyCompletedError', workflowId });
    const stop = await h.call('PATCH', '/workflow/{id}/runs/{rid}/stop', { params: { id: workflowId, rid: runId } });
    expect(stop.status).toBe(409);
    const result = await h.call('GET', '/workflow/{id}/result', { params: { id: workflowId } });
    expect(result.body).toMatchObject({ status: 'terminated', output: null, error: null });
  });

  it('terminate without a body works; unknown run is 404', async () => {
    const { workflowId, runId } = await startWaiter();
    const missing = await h.call('POST', '/workflow/{id}/runs/{rid}/terminate', { params: { id: workflowId, rid: '01a1feb5-0000-7000-8000-000000000000' } });
    expect(missing.status).toBe(404);
    const res = await h.call('POST', '/workflow/{id}/runs/{rid}/terminate', { params: { id: workflowId, rid: runId } });
    expect(res.status).toBe(200);
    expect((await waitClosed(workflowId)).status).toBe('terminated');
  });
});

describe('deprecated routes', () => {
  /** Deprecation headers; `Link` names the targeted run's pinned route, or keeps `{rid}` when the run is unknown. */
  const expectDeprecated = (headers: Headers, op: string, workflowId: string, runId?: string) => {
    expect(headers.get('deprecation')).toBe('true');
    expect(headers.get('sunset')).toBe('Thu, 16 Jul 2026 00:00:00 GMT');
    expect(headers.get('link')).toBe(`</workflow/${encodeURIComponent(workflowId)}/runs/${runId ?? '{rid}'}/${op}>; rel="successor-version"`);
  };

  it('PATCH /workflow/{id}/stop stops the latest run, with deprecation headers on success and errors', async () => {
    const { workflowId, runId } = await startWaiter();
    const res = await h.call('PATCH', '/workflow/{id}/stop', { params: { id: workflowId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ workflowId, runId });
    expectDeprecated(res.headers, 'stop', workflowId, runId);
    expect((await waitClosed(workflowId)).status).toBe('canceled');
    const again = await h.call('PATCH', '/workflow/{id}/stop', { params: { id: workflowId } });
    expect(again.status).toBe(409);
    expectDeprecated(again.headers, 'stop', workflowId, runId);
    const missing = await h.call('PATCH', '/workflow/{id}/stop', { params: { id: 'no-such-execution' } });
    expect(missing.status).toBe(404);
    expectDeprecated(missing.headers, 'stop', 'no-such-execution');
  });

  it('POST /workflow/{id}/terminate terminates the latest run, with deprecation headers', async () => {
    const { workflowId, runId } = await startWaiter();
    const res = await h.call('POST', '/workflow/{id}/terminate', { params: { id: workflowId }, body: { reason: 'old route' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ workflowId, runId });
    expectDeprecated(res.headers, 'terminate', workflowId, runId);
    const bad = await h.call('POST', '/workflow/{id}/terminate', { params: { id: workflowId }, body: { reason: 5 } });
    expect(bad.status).toBe(400);
    expectDeprecated(bad.headers, 'terminate', workflowId);
  });

  it('POST /workflow/{id}/reset resets the latest run, with deprecation headers on every response', async () => {
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'twoSteps', input: { n: 1 } } });
    const res = await h.call('POST', '/workflow/{id}/reset', { params: { id: run.body.workflowId }, body: { stepName: 'first' } });
    expect(res.status).toBe(200);
    expect(res.body.workflowId).toBe(run.body.workflowId);
    expect(res.body.runId).not.toBe(run.body.runId);
    // The successor link names the run that was reset, not the new one.
    expectDeprecated(res.headers, 'reset', run.body.workflowId, run.body.runId);
    const invalid = await h.call('POST', '/workflow/{id}/reset', { params: { id: run.body.workflowId }, body: {} });
    expect(invalid.status).toBe(400);
    expectDeprecated(invalid.headers, 'reset', run.body.workflowId);
    const missing = await h.call('POST', '/workflow/{id}/reset', { params: { id: run.body.workflowId }, body: { stepName: 'nope' } });
    expect(missing.status).toBe(404);
    expectDeprecated(missing.headers, 'reset', run.body.workflowId, res.body.runId);
  });
});

describe('reset by stepName', () => {
  it('resets a run after a step: the new run re-executes what follows and completes', async () => {
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'twoSteps', input: { n: 1 } } });
    expect(run.body.output).toEqual({ first: { n: 2 }, second: { n: 20 } });
    const { workflowId, runId } = run.body;
    const res = await h.call('POST', '/workflow/{id}/runs/{rid}/reset', {
      params: { id: workflowId, rid: runId },
      body: { stepName: 'first', reason: 'test' },
    });
    expect(res.status).toBe(200);
    expect(res.body.workflowId).toBe(workflowId);
    expect(res.body.runId).not.toBe(runId);
    const result = await eventually(async () => {
      const r = await h.call('GET', '/workflow/{id}/runs/{rid}/result', { params: { id: workflowId, rid: res.body.runId } });
      return r.status === 200 ? r : undefined;
    });
    expect(result.body).toMatchObject({ status: 'completed', output: { first: { n: 2 }, second: { n: 20 } }, input: { n: 1 } });
    // The new run's history shows the second step scheduled again, not the first.
    const history = await h.call('GET', '/workflow/{id}/runs/{rid}/history', { params: { id: workflowId, rid: res.body.runId }, query: { pageSize: 50 } });
    const scheduled = history.body.events
      .filter((e: { eventType: string }) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED')
      .map((e: any) => e.activityTaskScheduledEventAttributes.activityType.name);
    expect(scheduled).toEqual(['twoSteps#first', 'twoSteps#second']);
    const latest = await h.call('GET', '/workflow/{id}/status', { params: { id: workflowId } });
    expect(latest.body.runId).toBe(res.body.runId);
  });

  it('404 StepNotFoundError for a step never scheduled, 409 StepNotCompletedError for a step that failed', async () => {
    const ok = await h.call('POST', '/workflow/run', { body: { workflowName: 'twoSteps', input: { n: 1 } } });
    const notFound = await h.call('POST', '/workflow/{id}/runs/{rid}/reset', {
      params: { id: ok.body.workflowId, rid: ok.body.runId },
      body: { stepName: 'third' },
    });
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({ error: 'StepNotFoundError', workflowId: ok.body.workflowId });
    const failed = await h.call('POST', '/workflow/run', { body: { workflowName: 'failing' } });
    const notCompleted = await h.call('POST', '/workflow/{id}/runs/{rid}/reset', {
      params: { id: failed.body.workflowId, rid: failed.body.runId },
      body: { stepName: 'explode' },
    });
    expect(notCompleted.status).toBe(409);
    expect(notCompleted.body).toMatchObject({ error: 'StepNotCompletedError', workflowId: failed.body.workflowId });
    const missingRun = await h.call('POST', '/workflow/{id}/runs/{rid}/reset', {
      params: { id: 'no-such-execution', rid: ok.body.runId },
      body: { stepName: 'first' },
    });
    expect(missingRun.status).toBe(404);
    expect(missingRun.body.error).toBe('WorkflowNotFoundError');
  });
});
