/**
 * History pages cut from engine pages: every event exactly once whatever the page size and batch shape, the next
 * API pages served without asking the engine again, an open run's last engine page read again, and signed page
 * tokens shared by API processes that share a key.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { eventually, startHarness, type Harness } from './support.js';

const KEY = 'history-paging-test-key-0123456789abcdef';
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ SKEIN_HISTORY_TOKEN_KEY: KEY, SKEIN_HISTORY_MAX_WAIT_MS: '1500' });
});

afterAll(async () => {
  await h?.close();
});

type Ev = { eventId: number; eventType: string; eventTypeName: string; stepName?: string };

/** Every event id of a run straight from the engine, in order. */
async function engineIds(workflowId: string, runId: string): Promise<number[]> {
  const ids: number[] = [];
  let token: Uint8Array | undefined;
  for (let i = 0; i < 100; i++) {
    const res = await h.client.workflowService.getWorkflowExecutionHistory({
      namespace: 'default',
      execution: { workflowId, runId },
      maximumPageSize: 1000,
      ...(token ? { nextPageToken: token } : {}),
    });
    ids.push(...(res.history?.events ?? []).map((e) => Number(e.eventId)));
    token = res.nextPageToken?.length ? res.nextPageToken : undefined;
    if (!token) return ids;
  }
  throw new Error('engine paging did not end');
}

/** Pages a run through `url` (or alternately through each of `urls`) until `nextPageToken` is null. */
async function pageAll(urls: string[], workflowId: string, runId: string, pageSize: number) {
  const events: Ev[] = [];
  let token: string | null = null;
  for (let pages = 0; ; pages++) {
    expect(pages, 'paging must end').toBeLessThan(2000);
    const qs = new URLSearchParams({ pageSize: String(pageSize), ...(token ? { pageToken: token } : {}) });
    const res = await fetch(`${urls[pages % urls.length]}/workflow/${encodeURIComponent(workflowId)}/runs/${runId}/history?${qs}`);
    const body = (await res.json()) as { events: Ev[]; nextPageToken: string | null };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.events.length).toBeLessThanOrEqual(pageSize);
    events.push(...body.events);
    if (body.nextPageToken === null) return { events, pages: pages + 1 };
    token = body.nextPageToken;
  }
}

/** `GetWorkflowExecutionHistory` calls the harness API has made so far (its own engine call metric). */
async function historyCalls(): Promise<number> {
  const text = await (await fetch(`${h.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('skein_api_engine_call_duration_seconds_count{') && l.includes('rpc="GetWorkflowExecutionHistory"'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

async function runToCompletion(workflowName: string, input: unknown) {
  const run = await h.call('POST', '/workflow/run', { body: { workflowName, input, timeout: 120_000 } });
  expect(run.status, JSON.stringify(run.body)).toBe(200);
  return run.body as { workflowId: string; runId: string };
}

describe('history pages cut from engine pages', () => {
  it('delivers every event exactly once, in order, for small batches and for one large batch, at any page size', async () => {
    const sequence = await runToCompletion('sequence', { n: 40 });
    const fanout = await runToCompletion('fanout', { n: 150 });
    for (const run of [sequence, fanout]) {
      const expected = await engineIds(run.workflowId, run.runId);
      expect(expected.length).toBeGreaterThan(200);
      for (const size of [50, 7, 1]) {
        const { events, pages } = await pageAll([h.url], run.workflowId, run.runId, size);
        expect(
          events.map((e) => e.eventId),
          `page size ${size}`,
        ).toEqual(expected);
        expect(pages).toBe(Math.ceil(expected.length / size));
        for (const e of events) expect(e.eventTypeName).toBe(e.eventType.replace(/^EVENT_TYPE_/, ''));
        const activity = events.filter((e) => e.eventTypeName.startsWith('ACTIVITY_TASK_'));
        expect(activity.length).toBeGreaterThan(0);
        expect(activity.every((e) => e.stepName === (run === sequence ? 'tick' : 'noop'))).toBe(true);
      }
    }
  });

  it('serves the following API pages of a closed run from the engine page that holds them, without asking the engine again', async () => {
    const run = await runToCompletion('sequence', { n: 40 });
    const before = await historyCalls();
    const first = await pageAll([h.url], run.workflowId, run.runId, 7);
    const firstWalk = (await historyCalls()) - before;
    expect(first.pages).toBeGreaterThan(30);
    // One engine read at the caller's page size before the run is known to be closed, then one large page (and its
    // read-ahead): a handful of engine calls for 30+ API pages.
    expect(firstWalk).toBeLessThanOrEqual(4);
    const again = await historyCalls();
    const second = await pageAll([h.url], run.workflowId, run.runId, 50);
    expect(second.events.map((e) => e.eventId)).toEqual(first.events.map((e) => e.eventId));
    expect((await historyCalls()) - again, 'a closed run read again comes from the cache').toBe(0);
  });

  it('reads an open run’s last engine page again: events appended after a cursor inside it are delivered once', async () => {
    const start = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter' } });
    const { workflowId, runId } = start.body as { workflowId: string; runId: string };
    const handle = h.client.workflow.getHandle(workflowId);
    await eventually(async () => (await engineIds(workflowId, runId)).length >= 4);
    const seen: Ev[] = [];
    let token: string | null = null;
    for (let i = 0; i < 24; i++) {
      const r = await h.call('GET', '/workflow/{id}/runs/{rid}/history', {
        params: { id: workflowId, rid: runId },
        query: { pageSize: 1 + (i % 3), longPollTimeoutMs: 1, ...(token ? { pageToken: token } : {}) },
      });
      expect(r.status).toBe(200);
      seen.push(...r.body.events);
      token = r.body.nextPageToken;
      expect(token).toEqual(expect.any(String));
      if (i % 4 === 1) await handle.signal('ping');
    }
    await handle.signal('finish', { ok: true });
    for (let i = 0; i < 200 && token; i++) {
      const r = await h.call('GET', '/workflow/{id}/runs/{rid}/history', {
        params: { id: workflowId, rid: runId },
        query: { pageSize: 2, longPollTimeoutMs: 1500, pageToken: token },
      });
      expect(r.status).toBe(200);
      seen.push(...r.body.events);
      token = r.body.nextPageToken;
    }
    expect(token).toBeNull();
    const ids = seen.map((e) => e.eventId);
    expect(ids).toEqual(await engineIds(workflowId, runId));
    expect(seen.filter((e) => e.eventTypeName === 'WORKFLOW_EXECUTION_SIGNALED')).toHaveLength(7);
    expect(seen.at(-1)!.eventTypeName).toBe('WORKFLOW_EXECUTION_COMPLETED');
  });
});

describe('signed page tokens across API processes', () => {
  let peer: ApiServer | undefined;
  let stranger: ApiServer | undefined;

  afterAll(async () => {
    await Promise.all([peer?.close(), stranger?.close()]);
  });

  it('a second API process with the same key continues any page; one with its own key refuses the token with a 400', async () => {
    const base = { PORT: '0', SKEIN_CATALOG: h.catalog, TEMPORAL_ADDRESS: h.address, TEMPORAL_NAMESPACE: 'default' };
    const logger = pino({ level: 'silent' });
    peer = await createApiServer(loadApiConfig({ ...base, SKEIN_HISTORY_TOKEN_KEY: KEY }), { logger });
    stranger = await createApiServer(loadApiConfig(base), { logger });
    const peerUrl = (await peer.listen()).url;
    const strangerUrl = (await stranger.listen()).url;
    const run = await runToCompletion('sequence', { n: 20 });
    // Behind a balancer, consecutive pages land on either process.
    const { events } = await pageAll([h.url, peerUrl], run.workflowId, run.runId, 9);
    expect(events.map((e) => e.eventId)).toEqual(await engineIds(run.workflowId, run.runId));

    const first = await h.call('GET', '/workflow/{id}/runs/{rid}/history', { params: { id: run.workflowId, rid: run.runId }, query: { pageSize: 9 } });
    const qs = new URLSearchParams({ pageSize: '9', pageToken: first.body.nextPageToken });
    const refused = await fetch(`${strangerUrl}/workflow/${run.workflowId}/runs/${run.runId}/history?${qs}`);
    const body = (await refused.json()) as { error: string; issues: Array<{ message: string }> };
    expect(refused.status).toBe(400);
    expect(body.error).toBe('ValidationError');
    expect(body.issues[0]!.message).toMatch(/SKEIN_HISTORY_TOKEN_KEY/);
    // The stranger's own tokens work on it, and not on the harness.
    const own = await fetch(`${strangerUrl}/workflow/${run.workflowId}/runs/${run.runId}/history?pageSize=9`);
    const ownToken = ((await own.json()) as { nextPageToken: string }).nextPageToken;
    const next = await fetch(
      `${strangerUrl}/workflow/${run.workflowId}/runs/${run.runId}/history?${new URLSearchParams({ pageSize: '9', pageToken: ownToken })}`,
    );
    expect(next.status).toBe(200);
    const back = await h.call('GET', '/workflow/{id}/runs/{rid}/history', { params: { id: run.workflowId, rid: run.runId }, query: { pageToken: ownToken } });
    expect(back.status).toBe(400);
  });
});
