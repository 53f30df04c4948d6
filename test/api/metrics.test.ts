import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, loadApiConfig } from '@skein/api';
import { eventually, startHarness, type Harness } from './support.js';
import { parseExposition, sample, type Exposition } from '../support/exposition.js';

/**
 * `GET /metrics` of the API against a real worker and engine: the Prometheus text format, the HTTP server
 * histogram labelled by route template (never a raw path), engine calls by RPC, catalog cache reads, readiness,
 * open long-polls, the token rule and many scrapes at once.
 */
let h: Harness;
const TOKEN = 'metrics-test-token';
const auth = { authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  h = await startHarness({ SKEIN_API_TOKEN: TOKEN });
  // A new worker build is routed to once the engine has seen it poll: wait for the catalog to be served.
  await eventually(async () => (await fetch(`${h.url}/workflow/catalog`, { headers: auth })).status === 200);
});

afterAll(async () => {
  await h?.close();
});

async function scrape(headers: Record<string, string> = auth): Promise<Exposition> {
  const res = await fetch(`${h.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

describe('GET /metrics', () => {
  it('labels requests by route template, method and status; engine calls by RPC; catalog reads by source', async () => {
    const run = await fetch(`${h.url}/workflow/run`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'echo', input: { value: 'x' } }),
    });
    expect(run.status).toBe(200);
    const { workflowId } = (await run.json()) as { workflowId: string };
    expect((await fetch(`${h.url}/workflow/${workflowId}/status`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${h.url}/workflow/does-not-exist-123/status`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${h.url}/no/such/path/42`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${h.url}/workflow/${workflowId}/status`)).status).toBe(401);

    const m = await scrape();
    const http = m.get('http_server_request_duration_seconds');
    expect(http?.type).toBe('histogram');
    const count = (labels: Record<string, string>) => sample(m, 'http_server_request_duration_seconds_count', labels);
    expect(count({ http_route: '/workflow/run', http_request_method: 'POST', http_response_status_code: '200' })).toBe(1);
    expect(count({ http_route: '/workflow/{id}/status', http_request_method: 'GET', http_response_status_code: '200' })).toBe(1);
    expect(count({ http_route: '/workflow/{id}/status', http_request_method: 'GET', http_response_status_code: '404' })).toBe(1);
    // Refused before routing, still labelled by its template.
    expect(count({ http_route: '/workflow/{id}/status', http_request_method: 'GET', http_response_status_code: '401' })).toBe(1);
    expect(count({ http_route: 'unknown', http_request_method: 'GET', http_response_status_code: '404' })).toBe(1);
    // No label anywhere holds an id or a raw path.
    const text = await (await fetch(`${h.url}/metrics`, { headers: auth })).text();
    expect(text).not.toContain(workflowId);
    expect(text).not.toContain('does-not-exist-123');
    expect(text).not.toContain('/no/such/path');

    expect(
      sample(m, 'skein_api_engine_call_duration_seconds_count', { rpc_method: 'StartWorkflowExecution', rpc_grpc_status_code: 'OK' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(m, 'skein_api_engine_call_errors_total', { rpc_method: 'DescribeWorkflowExecution', rpc_grpc_status_code: 'NOT_FOUND' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'skein_api_catalog_lookups_total', { lookup: 'document', source: 'engine' })).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'skein_api_ready', {})).toBe(1);
    expect(sample(m, 'skein_api_open_requests', { kind: 'sse' })).toBe(0);
  });

  it("a run on a cold catalog cache watches the catalog with the watch's own deadline: a few history polls, not a flood when the start's deadline passes", async () => {
    // An API of its own (a cold catalog cache) whose engine calls have a 1 s deadline: the catalog's watch starts
    // inside the run's start call.
    const api = await createApiServer(loadApiConfig({ PORT: '0', SKEIN_CATALOG: h.catalog, TEMPORAL_ADDRESS: h.address, SKEIN_ENGINE_TIMEOUT_MS: '1000' }), {
      logger: pino({ level: 'silent' }),
    });
    try {
      const url = (await api.listen()).url;
      const run = await fetch(`${url}/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workflowName: 'echo', input: { value: 'cold' } }),
      });
      expect(run.status).toBe(200);
      await new Promise((r) => setTimeout(r, 3_000)); // past the start's deadline
      const m = parseExposition(await (await fetch(`${url}/metrics`)).text());
      const polls = sample(m, 'skein_api_engine_call_duration_seconds_count', { rpc_method: 'GetWorkflowExecutionHistory', rpc_grpc_status_code: 'OK' }) ?? 0;
      expect(polls).toBeGreaterThanOrEqual(1);
      expect(polls).toBeLessThanOrEqual(6);
    } finally {
      await api.close();
    }
  });

  it('counts catalog reads answered by the cache', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${h.url}/workflow/run`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ workflowName: 'echo', input: { value: i } }),
      });
      expect(res.status).toBe(200);
    }
    const m = await scrape();
    expect(sample(m, 'skein_api_catalog_lookups_total', { lookup: 'document', source: 'cache' })).toBeGreaterThanOrEqual(1);
  });

  it("reads a catalog's workflows from its build's record once per version: a republished head costs no second read", async () => {
    const { buildId } = h.worker.deployment;
    // The published $catalog holds the head of the document; the build's record holds the whole of it.
    const head = (await h.client.workflow.getHandle(`$catalog:${h.catalog}`).describe()).memo?.catalog as Record<string, unknown>;
    expect(head).toMatchObject({ catalog: h.catalog, deployment: { buildId }, version: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(head).not.toHaveProperty('workflows');
    const record = (await h.client.workflow.getHandle(`$catalog:${h.catalog}@${buildId}`).describe()).memo?.catalog as Record<string, unknown>;
    expect(record).toMatchObject({ version: head.version, workflows: expect.arrayContaining([expect.objectContaining({ name: 'echo' })]) });
    const before = await scrape();
    const lookups = (m: Exposition, lookup: string, source: string) => sample(m, 'skein_api_catalog_lookups_total', { lookup, source }) ?? 0;
    expect(lookups(before, 'record', 'engine')).toBeGreaterThanOrEqual(1);
    // The worker publishes the same document again when its $catalog closes: the API reads the new head, not the record.
    await h.client.workflow.getHandle(`$catalog:${h.catalog}`).terminate('republish');
    await eventually(async () => (await h.client.workflow.getHandle(`$catalog:${h.catalog}`).describe()).status.name === 'RUNNING');
    await eventually(async () => {
      await fetch(`${h.url}/workflow/catalog`, { headers: auth });
      return lookups(await scrape(), 'document', 'engine') > lookups(before, 'document', 'engine');
    }, 10_000);
    const catalog = await fetch(`${h.url}/workflow/catalog`, { headers: auth });
    expect(catalog.status).toBe(200);
    expect(((await catalog.json()) as { workflows: Array<{ name: string }> }).workflows.map((w) => w.name)).toContain('echo');
    const after = await scrape();
    expect(lookups(after, 'record', 'engine')).toBe(lookups(before, 'record', 'engine'));
    expect(lookups(after, 'record', 'cache')).toBeGreaterThan(lookups(before, 'record', 'cache'));
  });

  it('counts an open history long-poll while it waits, and not after', async () => {
    const started = await fetch(`${h.url}/workflow/start`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'waiter', input: {} }),
    });
    expect(started.status).toBe(200);
    const { workflowId } = (await started.json()) as { workflowId: string };
    // Read to the end of the history once the first workflow task completed (the run then waits for a signal and
    // its history stays as it is; a read that waits 1 ms answers no events there), then wait there.
    let token: string | null = null;
    let settled = false;
    for (let i = 0; i < 100; i++) {
      const q = new URLSearchParams({ longPollTimeoutMs: '1', ...(token ? { pageToken: token } : {}) });
      const page = (await (await fetch(`${h.url}/workflow/${workflowId}/history?${q}`, { headers: auth })).json()) as {
        events: Array<{ eventType: string }>;
        nextPageToken: string;
      };
      token = page.nextPageToken;
      settled ||= page.events.some((e) => e.eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED');
      if (settled && page.events.length === 0) break;
      if (page.events.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(settled).toBe(true);
    const aborter = new AbortController();
    const waiting = fetch(`${h.url}/workflow/${workflowId}/history?longPollTimeoutMs=10000${token ? `&pageToken=${token}` : ''}`, {
      headers: auth,
      signal: aborter.signal,
    }).catch(() => undefined);
    await expect.poll(async () => sample(await scrape(), 'skein_api_open_requests', { kind: 'long_poll' }), { timeout: 5_000 }).toBe(1);
    aborter.abort();
    await waiting;
    await expect.poll(async () => sample(await scrape(), 'skein_api_open_requests', { kind: 'long_poll' }), { timeout: 5_000 }).toBe(0);
    await fetch(`${h.url}/workflow/${workflowId}/terminate`, { method: 'POST', headers: auth }).catch(() => undefined);
  });

  it('counts an open history stream while it is open, and not after', async () => {
    const started = await fetch(`${h.url}/workflow/start`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'waiter', input: {} }),
    });
    const { workflowId } = (await started.json()) as { workflowId: string };
    const aborter = new AbortController();
    const res = await fetch(`${h.url}/workflow/${workflowId}/history/stream`, { headers: auth, signal: aborter.signal });
    expect(res.status).toBe(200);
    await expect.poll(async () => sample(await scrape(), 'skein_api_open_requests', { kind: 'sse' }), { timeout: 5_000 }).toBe(1);
    aborter.abort();
    await expect.poll(async () => sample(await scrape(), 'skein_api_open_requests', { kind: 'sse' }), { timeout: 5_000 }).toBe(0);
    await fetch(`${h.url}/workflow/${workflowId}/terminate`, { method: 'POST', headers: auth }).catch(() => undefined);
  });

  it('answers 50 concurrent scrapes, each complete', async () => {
    const texts = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const res = await fetch(`${h.url}/metrics`, { headers: auth });
        expect(res.status).toBe(200);
        return res.text();
      }),
    );
    for (const text of texts) {
      const m = parseExposition(text);
      expect(m.get('http_server_request_duration_seconds')?.type).toBe('histogram');
      expect(m.get('skein_api_ready')?.type).toBe('gauge');
    }
  });
});

describe('SKEIN_METRICS_PUBLIC=1', () => {
  it('opens /metrics to a scraper without the token and under another Host name; other routes keep the token', async () => {
    const pub = await startHarness({ SKEIN_API_TOKEN: TOKEN, SKEIN_METRICS_PUBLIC: '1' });
    try {
      const res = await fetch(`${pub.url}/metrics`);
      expect(res.status).toBe(200);
      expect(parseExposition(await res.text()).get('skein_api_ready')?.type).toBe('gauge');
      expect((await fetch(`${pub.url}/workflow/catalog`)).status).toBe(401);
      // Without the setting, the Host rule holds for /metrics too.
      const { request } = await import('node:http');
      const status = (url: string) =>
        new Promise<number>((resolve, reject) => {
          const req = request(url, { headers: { host: 'scraper.example', ...auth } }, (r) => {
            r.resume();
            resolve(r.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
        });
      expect(await status(`${pub.url}/metrics`)).toBe(200);
      expect(await status(`${h.url}/metrics`)).toBe(403);
    } finally {
      await pub.close();
    }
  });
});
