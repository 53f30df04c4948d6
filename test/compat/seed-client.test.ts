/**
 * Compatibility suite: the API driven exactly as the seed system's command-line client drives it (see
 * `seed-client.ts`), against a real Temporal dev server and a real worker. Each case is a command of that client
 * that must work unchanged (CONTRACT "Endpoint details": runs list dates, history fields and paging, deprecated
 * routes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';
import { seedClient } from './seed-client.js';
import { eventually } from '../support/poll.js';

let stack: Stack;
let seed: ReturnType<typeof seedClient>;

/** Draft rounds of the test runs: about 6 events each, so a run's history spans more than one 50-event page. */
const ROUNDS = 10;

beforeAll(async () => {
  stack = await startStack('fixtures/projects/compat');
  seed = seedClient(stack.url);
});

afterAll(async () => {
  await stack?.close();
});

/** Starts a `review` run and waits (with the seed client's own history command) until it waits for approval. */
async function startWaitingReview(ticket: string) {
  const started = await seed.start('review', { ticket, rounds: ROUNDS });
  expect(started.status).toBe(200);
  const { workflowId, runId } = started.body as { workflowId: string; runId: string };
  const history = await eventually(async () => {
    const h = await seed.history(workflowId, { maxRequests: 5 });
    return h.steps.some((s) => s.name === 'judgeReply' && s.status === 'completed') ? h : undefined;
  });
  return { workflowId, runId, history };
}

describe('history, as the seed client reads it', () => {
  it('a completed run: pages end with a null token, steps and the evaluator are found by name, times are ISO', async () => {
    const run = await seed.run('review', { ticket: 'login fails', rounds: ROUNDS, autoApprove: true });
    expect(run.body.status).toBe('completed');
    const h = await seed.history(run.body.workflowId, { maxRequests: 5 });
    expect(h.events.length).toBeGreaterThan(50);
    expect(h.requests).toBe(Math.ceil(h.events.length / 50));
    expect(h.events.map((e) => e.eventId)).toEqual(h.events.map((_, i) => i + 1));
    expect(h.runId).toBe(run.body.runId);
    expect(h.steps.map((s) => s.name)).toEqual([...Array(ROUNDS).fill('draftReply'), 'judgeReply', 'sendReply']);
    expect(h.steps.every((s) => s.status === 'completed')).toBe(true);
    expect(h.steps[0]!.technicalName).toBe('review#draftReply');
    expect(h.workflow).toMatchObject({ workflowId: run.body.workflowId, runId: run.body.runId, status: 'completed', historyLength: h.events.length });
    expect(new Date(h.workflow!.startTime).toISOString()).toBe(h.workflow!.startTime);
    expect(new Date(h.workflow!.closeTime).toISOString()).toBe(h.workflow!.closeTime);
    expect(h.durationMs).toBeGreaterThan(0);
    for (const e of h.events) expect(`EVENT_TYPE_${e.eventTypeName}`).toBe(e.eventType);
    // `stepName` rides on every activity event (started and completed ones carry no activity type of their own).
    const byId = new Map(h.events.map((e) => [e.eventId, e]));
    for (const e of h.events.filter((x) => x.eventTypeName.startsWith('ACTIVITY_TASK_'))) {
      const attrs = e[Object.keys(e).find((k) => k.endsWith('EventAttributes'))!];
      const scheduled = e.eventTypeName === 'ACTIVITY_TASK_SCHEDULED' ? e : byId.get(attrs.scheduledEventId);
      const type: string = scheduled.activityTaskScheduledEventAttributes.activityType.name;
      expect(e.stepName, `event ${e.eventId}`).toBe(type.slice(type.indexOf('#') + 1));
    }
    expect(h.events.filter((e) => 'stepName' in e).length).toBe(3 * (ROUNDS + 2));
  });

  it('a running run: following tokens ends within a bounded number of requests; closeTime is null', async () => {
    const { workflowId, runId, history } = await startWaitingReview('running history');
    expect(history.workflow).toMatchObject({ workflowId, runId, status: 'running', closeTime: null });
    expect(history.durationMs).toBeNull();
    expect(history.requests).toBeLessThanOrEqual(Math.ceil(history.events.length / 50) + 1);
    expect(history.steps.map((s) => s.name)).toEqual([...Array(ROUNDS).fill('draftReply'), 'judgeReply']);
    // Read again: it ends again, with what was there before and whatever the run added since.
    const again = await seed.history(workflowId, { maxRequests: 5 });
    expect(again.events.slice(0, history.events.length)).toEqual(history.events);
    expect(again.events.map((e) => e.eventId)).toEqual(again.events.map((_, i) => i + 1));
    // After approval the run completes; reading it once more shows the last step.
    expect((await seed.signal(workflowId, 'approve')).status).toBe(202);
    const done = await eventually(async () => {
      const h = await seed.history(workflowId, { maxRequests: 5 });
      return h.workflow?.status === 'completed' ? h : undefined;
    });
    expect(done.steps.at(-1)).toMatchObject({ name: 'sendReply', status: 'completed' });
  });

  it('history --run-id reads that run: runId rides along with every page token', async () => {
    const first = await seed.run('review', { ticket: 'first run', rounds: ROUNDS, autoApprove: true });
    const reset = await seed.reset(first.body.workflowId, 'judgeReply');
    expect(reset.status).toBe(200);
    expect(reset.body.runId).not.toBe(first.body.runId);
    const pinned = await seed.history(first.body.workflowId, { runId: first.body.runId, maxRequests: 5 });
    expect(pinned.runId).toBe(first.body.runId);
    expect(pinned.workflow?.runId).toBe(first.body.runId);
    expect(pinned.requests).toBeGreaterThan(1);
    const latest = await seed.history(first.body.workflowId, { maxRequests: 5 });
    expect(latest.runId).toBe(reset.body.runId);
  });

  it('a long-poll of 1 ms from the first page returns every existing event, then the same cursor with no events', async () => {
    const { workflowId, runId, history } = await startWaitingReview('short long-poll');
    let token: string | undefined;
    const seen: number[] = [];
    let last: any;
    for (let requests = 0; ; requests++) {
      expect(requests, 'bounded').toBeLessThan(10);
      const qs = new URLSearchParams({ pageSize: '50', longPollTimeoutMs: '1', ...(token ? { pageToken: token } : {}) });
      last = await seed.call('GET', `/workflow/${workflowId}/runs/${runId}/history?${qs}`);
      expect(last.status).toBe(200);
      seen.push(...last.body.events.map((e: any) => e.eventId));
      if (last.body.events.length === 0) break;
      token = last.body.nextPageToken;
      expect(token).toEqual(expect.any(String));
    }
    // Every event that existed before the first request, then whatever the run appended meanwhile (its workflow
    // task after judgeReply may land after that snapshot): contiguous, nothing missing, nothing twice.
    expect(seen.slice(0, history.events.length)).toEqual(history.events.map((e) => e.eventId));
    expect(seen).toEqual(seen.map((_, i) => i + 1));
    expect(last.body.nextPageToken).toBe(token);
    await seed.terminate(workflowId, 'done');
  });
});

describe('runs list, as the seed client reads it', () => {
  it('dates are ISO 8601 strings (completedAt null while running); the status route keeps epoch ms', async () => {
    const done = await seed.run('review', { ticket: 'listed', autoApprove: true });
    const { workflowId } = await startWaitingReview('listed running');
    const runs = await eventually(async () => {
      const r = await seed.runs({ workflowType: 'review', catalog: stack.catalog, limit: 100 });
      return r.some((x) => x.workflowId === workflowId) && r.some((x) => x.workflowId === done.body.workflowId) ? r : undefined;
    });
    for (const run of runs) {
      expect(run.startedAt).toEqual(expect.any(String));
      expect(run.started.toISOString()).toBe(run.startedAt);
    }
    const running = runs.find((r) => r.workflowId === workflowId)!;
    expect(running).toMatchObject({ status: 'running', completedAt: null, duration: 'running' });
    const completed = runs.find((r) => r.workflowId === done.body.workflowId)!;
    expect(completed.status).toBe('completed');
    expect(completed.duration).toMatch(/^\d+ seconds?$/);
    const status = await seed.status(workflowId);
    expect(status.body).toMatchObject({ status: 'running', startedAt: running.started.getTime(), completedAt: null });
    await seed.terminate(workflowId);
  });
});

describe('deprecated routes, as the seed client calls them', () => {
  /** The deprecation headers every answer of a deprecated route carries; the routes work whatever `Sunset` says. */
  function expectDeprecated(res: { headers: Headers }, op: string) {
    expect(res.headers.get('deprecation')).toBe('true');
    expect(Number.isNaN(Date.parse(res.headers.get('sunset') ?? ''))).toBe(false);
    expect(res.headers.get('link')).toMatch(new RegExp(`/${op}>; rel="successor-version"$`));
  }

  it('stop cancels the latest run and answers { workflowId, runId }', async () => {
    const { workflowId, runId } = await startWaitingReview('stop me');
    const res = await seed.stop(workflowId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ workflowId, runId });
    expectDeprecated(res, 'stop');
    await eventually(async () => (await seed.status(workflowId)).body.status === 'canceled');
    const result = await seed.result(workflowId);
    expect(result.body.status).toBe('cancelled');
  });

  it('terminate ends the latest run', async () => {
    const { workflowId, runId } = await startWaitingReview('terminate me');
    const res = await seed.terminate(workflowId, 'no longer needed');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ workflowId, runId });
    expectDeprecated(res, 'terminate');
    expect((await seed.status(workflowId)).body.status).toBe('terminated');
    const again = await seed.terminate(workflowId);
    expect(again.status).toBe(409);
    expectDeprecated(again, 'terminate');
  });

  it('reset re-runs the latest run after a step; unknown steps are 404', async () => {
    const run = await seed.run('review', { ticket: 'reset me', autoApprove: true });
    const res = await seed.reset(run.body.workflowId, 'draftReply', 'retry');
    expect(res.status).toBe(200);
    expect(res.body.workflowId).toBe(run.body.workflowId);
    expect(res.body.runId).not.toBe(run.body.runId);
    expectDeprecated(res, 'reset');
    const result = await eventually(async () => {
      const r = await seed.result(run.body.workflowId);
      return r.status === 200 && r.body.runId === res.body.runId ? r : undefined;
    });
    expect(result.body).toMatchObject({ status: 'completed', output: { sent: { sent: true } } });
    const missing = await seed.reset(run.body.workflowId, 'noSuchStep');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('StepNotFoundError');
  });
});
