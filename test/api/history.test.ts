import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startHarness, type Harness } from './support.js';
import { openSse } from './sse.js';

let h: Harness;
const MAX_WAIT = 1500;

beforeAll(async () => {
  h = await startHarness({ SKEIN_HISTORY_MAX_WAIT_MS: String(MAX_WAIT) });
});

afterAll(async () => {
  await h?.close();
});

type Ev = { eventId: number; eventType: string; [k: string]: any };

async function startWaiter() {
  const res = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter' } });
  const { workflowId, runId } = res.body as { workflowId: string; runId: string };
  await eventually(async () => {
    const r = await h.call('GET', '/workflow/{id}/history', { params: { id: workflowId }, query: { pageSize: 50 } });
    return r.body.events.some((e: Ev) => e.eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED');
  });
  return { workflowId, runId };
}

/** Pages without long-poll until `nextPageToken` is null (bounded); returns every event. */
async function pageAll(workflowId: string, runId: string, pageSize: number) {
  const events: Ev[] = [];
  let token: string | null | undefined;
  let pages = 0;
  for (;;) {
    expect(pages, 'paging must end').toBeLessThan(100);
    const r = await h.call('GET', '/workflow/{id}/runs/{rid}/history', {
      params: { id: workflowId, rid: runId },
      query: { pageSize, ...(token ? { pageToken: token } : {}) },
    });
    expect(r.status).toBe(200);
    expect(r.body.events.length).toBeLessThanOrEqual(pageSize);
    pages += 1;
    events.push(...r.body.events);
    if (r.body.nextPageToken === null) return { events, pages, last: r.body };
    token = r.body.nextPageToken;
  }
}

/** Follows a run with `longPollTimeoutMs` until a page comes back empty: every event so far and the cursor at the end. */
async function followToEnd(workflowId: string, runId: string, longPollTimeoutMs = 1) {
  const events: Ev[] = [];
  let token: string | undefined;
  for (let i = 0; ; i++) {
    expect(i, 'following must reach the end').toBeLessThan(50);
    const r = await h.call('GET', '/workflow/{id}/runs/{rid}/history', {
      params: { id: workflowId, rid: runId },
      query: { pageSize: 50, longPollTimeoutMs, ...(token ? { pageToken: token } : {}) },
    });
    expect(r.status).toBe(200);
    if (r.body.events.length === 0) {
      expect(r.body.nextPageToken, 'a timed-out long-poll answers the cursor unchanged').toBe(token ?? r.body.nextPageToken);
      return { events, token: r.body.nextPageToken as string };
    }
    events.push(...r.body.events);
    token = r.body.nextPageToken;
  }
}

describe('GET history (paged)', () => {
  it('pages through a closed run: contiguous event ids, workflow metadata, null token at the end', async () => {
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'twoSteps', input: { n: 1 } } });
    const { workflowId, runId } = run.body;
    const { events, pages, last } = await pageAll(workflowId, runId, 2);
    expect(pages).toBe(Math.ceil(events.length / 2));
    expect(events.map((e) => e.eventId)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]!.eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_STARTED');
    expect(events.at(-1)!.eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
    expect(last.workflow).toMatchObject({ workflowId, runId, workflowType: 'twoSteps', status: 'completed', historyLength: events.length });
    expect(last.workflow.startTime).toBe(new Date(last.workflow.startedAt).toISOString());
    expect(last.workflow.closeTime).toBe(new Date(last.workflow.completedAt).toISOString());
    expect(last.runId).toBe(runId);
    for (const e of events) expect(e.eventTypeName).toBe(e.eventType.replace(/^EVENT_TYPE_/, ''));
    const activity = events.filter((e) => e.eventTypeName.startsWith('ACTIVITY_TASK_'));
    expect(activity.map((e) => `${e.eventTypeName}:${e.stepName}`)).toEqual([
      'ACTIVITY_TASK_SCHEDULED:first',
      'ACTIVITY_TASK_STARTED:first',
      'ACTIVITY_TASK_COMPLETED:first',
      'ACTIVITY_TASK_SCHEDULED:second',
      'ACTIVITY_TASK_STARTED:second',
      'ACTIVITY_TASK_COMPLETED:second',
    ]);
    expect(events.filter((e) => 'stepName' in e)).toHaveLength(activity.length);
    const latest = await h.call('GET', '/workflow/{id}/history', { params: { id: workflowId }, query: { pageSize: 50 } });
    expect(latest.body.events.map((e: Ev) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expect(latest.body.nextPageToken).toBeNull();
  });

  it('includePayloads decodes payloads; without it they stay encoded', async () => {
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: { secret: 'xyz' } } });
    const { workflowId, runId } = run.body;
    const plain = await h.call('GET', '/workflow/{id}/runs/{rid}/history', { params: { id: workflowId, rid: runId }, query: { pageSize: 1 } });
    const encoded = plain.body.events[0].workflowExecutionStartedEventAttributes.input.payloads[0];
    expect(encoded.metadata.encoding).toBe(Buffer.from('json/plain').toString('base64'));
    expect(JSON.parse(Buffer.from(encoded.data, 'base64').toString())).toEqual({ secret: 'xyz' });
    const decoded = await h.call('GET', '/workflow/{id}/runs/{rid}/history', {
      params: { id: workflowId, rid: runId },
      query: { pageSize: 50, includePayloads: true },
    });
    expect(decoded.body.events[0].workflowExecutionStartedEventAttributes.input.payloads).toEqual([{ secret: 'xyz' }]);
    const completed = decoded.body.events.find((e: Ev) => e.eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
    expect(completed.workflowExecutionCompletedEventAttributes.result.payloads).toEqual([{ secret: 'xyz' }]);
  });

  it('rejects invalid queries and forged or foreign tokens with 400, never 500', async () => {
    const a = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: 1 } });
    const b = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: 2 } });
    const params = { id: a.body.workflowId, rid: a.body.runId };
    for (const query of [{ pageSize: 0 }, { pageSize: 51 }, { pageSize: 'x' }, { pageSize: '0x10' }, { includePayloads: 'yes' }, { longPollTimeoutMs: 0 }]) {
      const r = await h.call('GET', '/workflow/{id}/runs/{rid}/history', { params, query: query as never });
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(r.body.error).toBe('ValidationError');
      // The contract's three members: the execution the path names, though its query was wrong.
      expect(r.body.workflowId).toBe(params.id);
    }
    const first = await h.call('GET', '/workflow/{id}/runs/{rid}/history', { params: { id: b.body.workflowId, rid: b.body.runId }, query: { pageSize: 1 } });
    const foreign = first.body.nextPageToken as string;
    const cursor = JSON.parse(Buffer.from(foreign, 'base64').toString());
    const forged = [
      'not base64 !!',
      Buffer.from('{"hello":1}').toString('base64'),
      Buffer.from(JSON.stringify({ ...cursor, w: a.body.workflowId, r: a.body.runId, t: Buffer.from('garbage-token').toString('base64') })).toString('base64'),
      Buffer.from(JSON.stringify({ ...cursor, w: a.body.workflowId, r: a.body.runId, n: -3 })).toString('base64'),
      foreign,
    ];
    for (const pageToken of forged) {
      const r = await h.call('GET', '/workflow/{id}/runs/{rid}/history', { params, query: { pageToken } });
      expect(r.status, pageToken).toBe(400);
      expect(r.body.error).toBe('ValidationError');
      const latest = await h.call('GET', '/workflow/{id}/history', { params: { id: a.body.workflowId }, query: { pageToken } });
      expect(latest.status, pageToken).toBe(400);
    }
    const missing = await h.call('GET', '/workflow/{id}/history', { params: { id: 'no-such-execution' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('WorkflowNotFoundError');
  });

  it('without long-poll, paging a running run ends with a null token at the current end, at once', async () => {
    const { workflowId, runId } = await startWaiter();
    const started = Date.now();
    const { events, last } = await pageAll(workflowId, runId, 3);
    expect(Date.now() - started).toBeLessThan(MAX_WAIT);
    expect(last.workflow).toMatchObject({ status: 'running', closeTime: null, completedAt: null });
    expect(events.map((e) => e.eventId)).toEqual(events.map((_, i) => i + 1));
    expect(events.length).toBeGreaterThanOrEqual(last.workflow.historyLength);
    // A cursor taken at the end with long-poll, read without it: nothing new, and null.
    const { token } = await followToEnd(workflowId, runId);
    const end = await h.call('GET', '/workflow/{id}/runs/{rid}/history', { params: { id: workflowId, rid: runId }, query: { pageToken: token } });
    expect(end.body).toMatchObject({ events: [], nextPageToken: null });
    // History that grew since is seen by the next read (no stale page of the open run is reused).
    await h.client.workflow.getHandle(workflowId).signal('ping');
    await eventually(async () => (await pageAll(workflowId, runId, 3)).events.some((e) => e.eventTypeName === 'WORKFLOW_EXECUTION_SIGNALED'));
    await h.client.workflow.getHandle(workflowId).terminate();
  });

  it('with long-poll, existing events come back at once however short the wait; the end answers the same cursor', async () => {
    const { workflowId, runId } = await startWaiter();
    const { events: plain } = await pageAll(workflowId, runId, 50);
    const started = Date.now();
    const { events, token } = await followToEnd(workflowId, runId, 1);
    expect(Date.now() - started).toBeLessThan(MAX_WAIT);
    expect(events.map((e) => e.eventId)).toEqual(plain.map((e) => e.eventId));
    expect(token).toEqual(expect.any(String));
    // The latest-run route follows the same rules, and takes `runId` as the seed system's clients send it.
    const latest = await h.call('GET', '/workflow/{id}/history', { params: { id: workflowId }, query: { runId, pageSize: 50, longPollTimeoutMs: 1 } });
    expect(latest.body.events.map((e: Ev) => e.eventId)).toEqual(plain.map((e) => e.eventId));
    expect(latest.body.nextPageToken).toEqual(expect.any(String));
    const foreign = await h.call('GET', '/workflow/{id}/history', {
      params: { id: workflowId },
      query: { runId: '01a1feb5-0000-7000-8000-000000000000', pageToken: token },
    });
    expect(foreign.status).toBe(400);
    const badRun = await h.call('GET', '/workflow/{id}/history', { params: { id: workflowId }, query: { runId: 'not-a-uuid' } });
    expect(badRun.status).toBe(400);
    await h.client.workflow.getHandle(workflowId).terminate();
  });

  it('long-poll at the end of history waits for the next event', async () => {
    const { workflowId, runId } = await startWaiter();
    const { events, token } = await followToEnd(workflowId, runId);
    const started = Date.now();
    setTimeout(() => void h.client.workflow.getHandle(workflowId).signal('ping'), 400);
    const res = await h.call('GET', '/workflow/{id}/runs/{rid}/history', {
      params: { id: workflowId, rid: runId },
      query: { pageToken: token!, longPollTimeoutMs: MAX_WAIT },
    });
    const took = Date.now() - started;
    expect(res.status).toBe(200);
    expect(took).toBeGreaterThanOrEqual(300);
    expect(res.body.events.length).toBeGreaterThan(0);
    expect(res.body.events[0].eventId).toBe(events.length + 1);
    expect(res.body.events.map((e: Ev) => e.eventType)).toContain('EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED');
    expect(res.body.nextPageToken).not.toBe(token);
    await h.client.workflow.getHandle(workflowId).terminate();
  });

  it('long-poll timeout returns the same cursor with events []; the wait is clamped to the server maximum', async () => {
    const { workflowId, runId } = await startWaiter();
    const { token } = await followToEnd(workflowId, runId);
    let started = Date.now();
    const short = await h.call('GET', '/workflow/{id}/runs/{rid}/history', {
      params: { id: workflowId, rid: runId },
      query: { pageToken: token!, longPollTimeoutMs: 600 },
    });
    let took = Date.now() - started;
    expect(short.body).toMatchObject({ events: [], nextPageToken: token });
    expect(took).toBeGreaterThanOrEqual(550);
    expect(took).toBeLessThan(MAX_WAIT + 1000);
    started = Date.now();
    const clamped = await h.call('GET', '/workflow/{id}/runs/{rid}/history', {
      params: { id: workflowId, rid: runId },
      query: { pageToken: token!, longPollTimeoutMs: 600_000 },
    });
    took = Date.now() - started;
    expect(clamped.body).toMatchObject({ events: [], nextPageToken: token });
    expect(took).toBeGreaterThanOrEqual(MAX_WAIT - 100);
    expect(took).toBeLessThan(MAX_WAIT + 5000);
    await h.client.workflow.getHandle(workflowId).terminate();
  });

  it('a long-poll on a run that closes returns the close event and then a null cursor', async () => {
    const { workflowId, runId } = await startWaiter();
    const { token } = await followToEnd(workflowId, runId);
    setTimeout(() => void h.client.workflow.getHandle(workflowId).signal('finish', { ok: true }), 300);
    let cursor: string | null = token;
    const seen: Ev[] = [];
    for (let i = 0; i < 20 && cursor; i++) {
      const r: any = await h.call('GET', '/workflow/{id}/runs/{rid}/history', {
        params: { id: workflowId, rid: runId },
        query: { pageToken: cursor, longPollTimeoutMs: MAX_WAIT },
      });
      seen.push(...r.body.events);
      cursor = r.body.nextPageToken;
    }
    expect(cursor).toBeNull();
    expect(seen.at(-1)!.eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
    const done = await h.call('GET', '/workflow/{id}/runs/{rid}/history', { params: { id: workflowId, rid: runId }, query: { pageSize: 1 } });
    expect(done.body.workflow).toMatchObject({ status: 'completed', closeTime: expect.any(String) });
  });
});

describe('GET history/stream (server-sent events)', () => {
  it('streams a closed run: workflow, every history event with its id, done; then ends', async () => {
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'twoSteps', input: { n: 1 } } });
    const { workflowId, runId } = run.body;
    // The API runs in this process: a stream must not make Node warn (a listener count over its limit on the response).
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(w.name);
    process.on('warning', onWarning);
    const sse = await openSse(`${h.url}/workflow/${workflowId}/runs/${runId}/history/stream`);
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await sse.ended;
    process.off('warning', onWarning);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    const kinds = sse.frames.map((f) => f.event);
    expect(kinds[0]).toBe('workflow');
    expect(kinds.at(-1)).toBe('done');
    const history = sse.frames.filter((f) => f.event === 'history');
    expect(history.map((f) => Number(f.id))).toEqual(history.map((_, i) => i + 1));
    expect(history.map((f) => JSON.parse(f.data).eventId)).toEqual(history.map((_, i) => i + 1));
    expect(JSON.parse(sse.frames[0]!.data)).toMatchObject({
      workflowId,
      runId,
      status: 'completed',
      startTime: expect.any(String),
      closeTime: expect.any(String),
    });
    const events = history.map((f) => JSON.parse(f.data));
    for (const e of events) expect(`EVENT_TYPE_${e.eventTypeName}`).toBe(e.eventType);
    expect(events.filter((e) => e.stepName).map((e) => e.stepName)).toEqual(['first', 'first', 'first', 'second', 'second', 'second']);
    expect(JSON.parse(sse.frames.at(-1)!.data)).toEqual({ workflowId, runId, status: 'completed' });
  });

  it('follows a live run (latest-run route), delivers a signal as a history frame, and ends with done when it closes', async () => {
    const { workflowId } = await startWaiter();
    const sse = await openSse(`${h.url}/workflow/${workflowId}/history/stream`);
    await sse.waitFor((f) => f.event === 'history' && JSON.parse(f.data).eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED');
    await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: workflowId, signal: 'ping' }, body: { payload: {} } });
    await sse.waitFor((f) => f.event === 'history' && JSON.parse(f.data).eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED');
    await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: workflowId, signal: 'finish' }, body: { payload: {} } });
    const done = await sse.waitFor((f) => f.event === 'done');
    expect(JSON.parse(done.data)).toMatchObject({ workflowId, status: 'completed' });
    await sse.ended;
    const ids = sse.frames.filter((f) => f.event === 'history').map((f) => Number(f.id));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
  });

  it('resumes after Last-Event-ID (header or query)', async () => {
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'twoSteps', input: { n: 1 } } });
    const { workflowId, runId } = run.body;
    const viaHeader = await openSse(`${h.url}/workflow/${workflowId}/runs/${runId}/history/stream`, { 'last-event-id': '5' });
    await viaHeader.ended;
    const ids = viaHeader.frames.filter((f) => f.event === 'history').map((f) => Number(f.id));
    expect(ids[0]).toBe(6);
    expect(ids).toEqual(ids.map((_, i) => i + 6));
    // Activity events after the resume point still name their step, though their scheduled event was never sent
    // (nor read by this API before): the server looks it up.
    const fresh = await h.call('POST', '/workflow/run', { body: { workflowName: 'twoSteps', input: { n: 1 } } });
    const raw = await h.client.workflowService.getWorkflowExecutionHistory({
      namespace: 'default',
      execution: { workflowId: fresh.body.workflowId, runId: fresh.body.runId },
    });
    const scheduledId = Number(raw.history!.events!.find((e) => e.activityTaskScheduledEventAttributes)!.eventId);
    // (Through the latest-run route with `runId`, as the paged route takes it.)
    const resumedSse = await openSse(`${h.url}/workflow/${fresh.body.workflowId}/history/stream?runId=${fresh.body.runId}&lastEventId=${scheduledId}`);
    await resumedSse.ended;
    const resumed = resumedSse.frames.filter((f) => f.event === 'history').map((f) => JSON.parse(f.data));
    expect(resumed[0]).toMatchObject({ eventId: scheduledId + 1, eventTypeName: 'ACTIVITY_TASK_STARTED', stepName: 'first' });
    expect(resumed.filter((e) => e.stepName).map((e) => e.stepName)).toEqual(['first', 'first', 'second', 'second', 'second']);
    const viaQuery = await openSse(`${h.url}/workflow/${workflowId}/runs/${runId}/history/stream?lastEventId=7`);
    await viaQuery.ended;
    expect(Number(viaQuery.frames.find((f) => f.event === 'history')!.id)).toBe(8);
    const bad = await h.call('GET', '/workflow/{id}/runs/{rid}/history/stream', {
      params: { id: workflowId, rid: runId },
      headers: { 'last-event-id': 'abc' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ValidationError');
    const missing = await h.call('GET', '/workflow/{id}/history/stream', { params: { id: 'no-such-execution' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('WorkflowNotFoundError');
  });
});
