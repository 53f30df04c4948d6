import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Client, Connection } from '@temporalio/client';
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import { createApiServer, loadApiConfig } from '@skein/api';
import { eventually, startHarness, type Harness } from './support.js';
import { openSse } from './sse.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

/** Every route the API must serve (the full API issue), as OpenAPI paths. */
const ROUTES = [
  'post /workflow/run',
  'post /workflow/start',
  'post /workflow/{id}/signal/{signal}',
  'post /workflow/{id}/query/{query}',
  'post /workflow/{id}/update/{update}',
  'get /workflow/{id}/status',
  'get /workflow/{id}/runs/{rid}/status',
  'get /workflow/runs',
  'post /workflow/batch',
  'get /workflow/batch',
  'get /workflow/batch/{batchId}',
  'get /workflow/{id}/input',
  'get /workflow/{id}/runs/{rid}/input',
  'get /workflow/{id}/result',
  'get /workflow/{id}/runs/{rid}/result',
  'get /workflow/{id}/history',
  'get /workflow/{id}/runs/{rid}/history',
  'get /workflow/{id}/history/stream',
  'get /workflow/{id}/runs/{rid}/history/stream',
  'get /workflow/{id}/runs/{rid}/trace-log',
  'patch /workflow/{id}/runs/{rid}/stop',
  'post /workflow/{id}/runs/{rid}/terminate',
  'post /workflow/{id}/runs/{rid}/reset',
  'patch /workflow/{id}/stop',
  'post /workflow/{id}/terminate',
  'post /workflow/{id}/reset',
  'get /workflow/catalog',
  'get /workflow/catalog/{catalog}',
  'post /schedules',
  'get /schedules',
  'get /schedules/{scheduleId}',
  'patch /schedules/{scheduleId}',
  'delete /schedules/{scheduleId}',
  'post /schedules/{scheduleId}/pause',
  'post /schedules/{scheduleId}/unpause',
  'post /schedules/{scheduleId}/trigger',
  'post /schedules/{scheduleId}/backfill',
  'get /ready',
  'get /health',
  'get /openapi.json',
  'get /docs',
];

describe('service routes', () => {
  it('/health and /ready answer 200', async () => {
    expect((await h.call('GET', '/health')).body).toEqual({ status: 'ok' });
    expect((await h.call('GET', '/ready')).body).toEqual({ status: 'ready' });
  });

  it('/openapi.json is an OpenAPI 3.1 document listing every route, deprecated ones marked', async () => {
    const res = await h.call('GET', '/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.security).toEqual([]);
    const listed = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    for (const r of ROUTES) expect(listed, r).toContain(r);
    for (const r of ['patch /workflow/{id}/stop', 'post /workflow/{id}/terminate', 'post /workflow/{id}/reset']) {
      const [m, p] = r.split(' ') as [string, string];
      expect(res.body.paths[p][m].deprecated).toBe(true);
    }
    expect(Object.keys(res.body.components.schemas)).toEqual(
      expect.arrayContaining(['RunRequest', 'RunResponse', 'ResultResponse', 'ErrorResponse', 'ValidationErrorResponse', 'HistoryPage']),
    );
  });

  it('/docs serves an offline API reference page and its assets', async () => {
    const page = await h.call('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('swagger-ui');
    expect(page.text).toContain('/docs/assets/swagger-ui-bundle.js');
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js']) {
      const r = await fetch(`${h.url}/docs/assets/${asset}`);
      expect(r.status, asset).toBe(200);
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(10);
    }
    const init = await (await fetch(`${h.url}/docs/assets/init.js`)).text();
    expect(init).toContain('/openapi.json');
    expect((await fetch(`${h.url}/docs/assets/../../package.json`)).status).toBe(404);
  });

  it('catalog routes answer the published catalog document; unknown catalog is 404 CatalogNotAvailableError', async () => {
    const def = await h.call('GET', '/workflow/catalog');
    expect(def.status).toBe(200);
    expect(def.body.catalog).toBe(h.catalog);
    const echo = def.body.workflows.find((w: { name: string }) => w.name === 'echo');
    expect(echo).toMatchObject({ aliases: ['echoAlias'], description: 'Returns its input (one step).' });
    expect(echo.activities).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'identity', kind: 'step', shared: false, type: 'echo#identity' })]),
    );
    // Live at once, by its build's lease (which the worker holds before it publishes), as runs are accepted: not only
    // once the engine lists the worker's first poll, which can come after `startWorker` resolves.
    expect(def.body.catalogs).toContainEqual({ catalog: h.catalog, live: true, version: def.body.version });
    const named = await h.call('GET', '/workflow/catalog/{catalog}', { params: { catalog: h.catalog } });
    // The same document, but for `workers`: the engine may list the worker's first poll between the two reads.
    const { catalogs: _catalogs, workers: _workers, ...document } = def.body;
    expect(named.body).toEqual({ ...document, workers: expect.any(Array) });
    const missing = await h.call('GET', '/workflow/catalog/{catalog}', { params: { catalog: 'nobody-serves-this' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('CatalogNotAvailableError');
  });

  it('echoes a valid X-Request-ID and invents one otherwise; unknown routes are a JSON 404', async () => {
    const mine = await h.call('GET', '/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(mine.headers.get('x-request-id')).toBe('abc-123');
    const invalid = await h.call('GET', '/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(invalid.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const r = await fetch(`${h.url}/nope`);
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ error: 'NotFoundError' });
  });
});

describe('trace-log and trace destinations', () => {
  it("reads the run's local trace file; result and run list it as the only destination", async () => {
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: { t: 1 } } });
    const local = run.body.trace.destinations.local as string;
    expect(run.body.trace.destinations).toEqual({ local });
    expect(local.startsWith(h.traceDir)).toBe(true);
    const params = { id: run.body.workflowId, rid: run.body.runId };
    const res = await eventually(async () => {
      const r = await h.call('GET', '/workflow/{id}/runs/{rid}/trace-log', { params });
      return r.status === 200 ? r : undefined;
    });
    expect(res.body).toMatchObject({ workflowId: params.id, runId: params.rid, source: 'local', location: local });
    expect(typeof res.body.data).toBe('object');
    expect(JSON.stringify(res.body.data)).toContain('identity');
    const result = await h.call('GET', '/workflow/{id}/runs/{rid}/result', { params });
    expect(result.body.trace).toEqual({ destinations: { local } });
    await rm(local, { force: true });
    const gone = await h.call('GET', '/workflow/{id}/runs/{rid}/trace-log', { params });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: 'NotFoundError', workflowId: params.id });
  });

  it('trace-log of a running run is 409 WorkflowNotCompletedError; of an unknown run 404', async () => {
    const start = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter' } });
    const running = await h.call('GET', '/workflow/{id}/runs/{rid}/trace-log', { params: { id: start.body.workflowId, rid: start.body.runId } });
    expect(running.status).toBe(409);
    expect(running.body.error).toBe('WorkflowNotCompletedError');
    await h.client.workflow.getHandle(start.body.workflowId).terminate();
    const missing = await h.call('GET', '/workflow/{id}/runs/{rid}/trace-log', { params: { id: 'no-such-execution', rid: start.body.runId } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('WorkflowNotFoundError');
  });
});

describe('engine calls, readiness and shutdown', () => {
  /** A client whose gRPC calls are counted while in flight. */
  async function countingClient() {
    let active = 0;
    const interceptor: Interceptor = (options, nextCall) =>
      new InterceptingCall(nextCall(options), {
        start(metadata, listener, next) {
          active += 1;
          next(metadata, {
            onReceiveStatus(status, nextStatus) {
              active -= 1;
              nextStatus(status);
            },
          });
        },
      });
    const connection = await Connection.connect({ address: h.address, interceptors: [interceptor] });
    return { client: new Client({ connection, namespace: 'default' }), connection, active: () => active };
  }

  it('a client disconnecting from a stream releases its engine calls at once', async () => {
    const counted = await countingClient();
    const api = await createApiServer(loadApiConfig({ PORT: '0', SKEIN_CATALOG: h.catalog, TEMPORAL_ADDRESS: h.address }), {
      client: counted.client,
      logger: pino({ level: 'silent' }),
    });
    const { url } = await api.listen();
    try {
      const start = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter' } });
      const sse = await openSse(`${url}/workflow/${start.body.workflowId}/history/stream`);
      await sse.waitFor((f) => f.event === 'history' && JSON.parse(f.data).eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED');
      await eventually(async () => counted.active() > 0, 5000, 20);
      const before = Date.now();
      sse.abort();
      await eventually(async () => counted.active() === 0, 5000, 10);
      expect(Date.now() - before).toBeLessThan(2000);
      await h.client.workflow.getHandle(start.body.workflowId).terminate();
    } finally {
      await api.close();
      await counted.connection.close();
    }
  });

  it('idle streams get keep-alive comments', async () => {
    const config = { ...loadApiConfig({ PORT: '0', SKEIN_CATALOG: h.catalog, TEMPORAL_ADDRESS: h.address }), sseKeepAliveMs: 150 };
    const api = await createApiServer(config, { logger: pino({ level: 'silent' }) });
    const { url } = await api.listen();
    try {
      const start = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter' } });
      const sse = await openSse(`${url}/workflow/${start.body.workflowId}/history/stream`);
      await sse.waitFor((f) => f.event === 'workflow');
      await eventually(async () => sse.comments >= 2, 10_000, 50);
      sse.abort();
      await h.client.workflow.getHandle(start.body.workflowId).terminate();
    } finally {
      await api.close();
    }
  });

  it('close(): new connections refused, in-flight requests finish, streams end, connection closed', async () => {
    const api = await createApiServer(loadApiConfig({ PORT: '0', SKEIN_CATALOG: h.catalog, TEMPORAL_ADDRESS: h.address }), {
      logger: pino({ level: 'silent' }),
    });
    const { url } = await api.listen();
    const start = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter' } });
    const sse = await openSse(`${url}/workflow/${start.body.workflowId}/history/stream`);
    await sse.waitFor((f) => f.event === 'workflow');
    const inFlight = fetch(`${url}/workflow/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'sleeper', input: { ms: 1500 } }),
    });
    await new Promise((r) => setTimeout(r, 300));
    const began = Date.now();
    const closing = api.close();
    await sse.ended;
    expect(Date.now() - began).toBeLessThan(2000);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect((await res.json()).output).toEqual({ slept: 1500 });
    await closing;
    expect(Date.now() - began).toBeLessThan(10_000);
    await h.client.workflow.getHandle(start.body.workflowId).terminate();
  });

  it('close(): a history long-poll answers at once, a run still waited on when the grace ends answers 408, none is cut off', async () => {
    const config = { ...loadApiConfig({ PORT: '0', SKEIN_CATALOG: h.catalog, TEMPORAL_ADDRESS: h.address }), shutdownGraceMs: 600 };
    const api = await createApiServer(config, { logger: pino({ level: 'silent' }) });
    const { url } = await api.listen();
    const waiter = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter' } });
    const id = waiter.body.workflowId as string;
    // Read to the end of the waiting run's history (its first workflow task done), then long-poll there.
    await eventually(async () => (await h.client.workflow.getHandle(id).describe()).historyLength >= 4);
    const first = await (await fetch(`${url}/workflow/${id}/history?pageSize=50&longPollTimeoutMs=60000`)).json();
    expect(first.events.map((e: { eventType: string }) => e.eventType)).toContain('EVENT_TYPE_WORKFLOW_TASK_COMPLETED');
    const longPoll = fetch(`${url}/workflow/${id}/history?pageSize=50&longPollTimeoutMs=60000&pageToken=${encodeURIComponent(first.nextPageToken)}`);
    const run = fetch(`${url}/workflow/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'sleeper', input: { ms: 20_000 } }),
    });
    await new Promise((r) => setTimeout(r, 500));
    const began = Date.now();
    const closing = api.close();
    const polled = await longPoll;
    expect(Date.now() - began).toBeLessThan(500);
    expect(polled.status).toBe(200);
    const page = await polled.json();
    expect(page.events).toEqual([]);
    expect(page.nextPageToken).toEqual(expect.any(String));
    const answered = await run;
    expect(answered.status).toBe(408);
    const body = await answered.json();
    expect(body).toEqual({ error: 'WorkflowExecutionTimedOutError', message: expect.stringContaining('shutting down'), workflowId: expect.any(String) });
    // The execution keeps running: the engine still has it open.
    expect((await h.client.workflow.getHandle(body.workflowId).describe()).status.name).toBe('RUNNING');
    await closing;
    expect(Date.now() - began).toBeLessThan(3_000);
    await h.client.workflow.getHandle(body.workflowId).terminate();
    await h.client.workflow.getHandle(id).terminate();
  });

  it('/ready turns 503 while the engine health check fails and onFatal fires after SKEIN_ENGINE_CHECK_FAILURES failures', async () => {
    const connection = await Connection.connect({ address: h.address });
    const client = new Client({ connection, namespace: 'default' });
    const api = await createApiServer(
      loadApiConfig({
        PORT: '0',
        SKEIN_CATALOG: h.catalog,
        TEMPORAL_ADDRESS: h.address,
        SKEIN_ENGINE_CHECK_INTERVAL_MS: '100',
        SKEIN_ENGINE_CHECK_FAILURES: '3',
      }),
      { client, logger: pino({ level: 'silent' }) },
    );
    const { url } = await api.listen();
    const reasons: string[] = [];
    api.onFatal((r) => reasons.push(r));
    try {
      expect((await fetch(`${url}/ready`)).status).toBe(200);
      await connection.close();
      const unready = await eventually(
        async () => {
          const r = await fetch(`${url}/ready`);
          return r.status === 503 ? r : undefined;
        },
        10_000,
        20,
      );
      expect(await unready.json()).toEqual({ status: 'unavailable' });
      // An engine failure is a sanitized 500 InternalError (details only in the server log).
      const broken = await fetch(`${url}/workflow/any-id/status`);
      expect(broken.status).toBe(500);
      expect(await broken.json()).toEqual({ error: 'InternalError', message: 'Internal server error', workflowId: 'any-id' });
      await eventually(async () => reasons.length > 0, 10_000, 20);
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toMatch(/health checks/);
      expect((await fetch(`${url}/health`)).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('createApiServer rejects with one clear line when the engine is unreachable', async () => {
    const started = Date.now();
    const err = await createApiServer(loadApiConfig({ PORT: '0', TEMPORAL_ADDRESS: '127.0.0.1:1' }), { logger: pino({ level: 'silent' }) }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toContain('127.0.0.1:1');
    expect(err!.message).not.toContain('\n');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('createApiServer rejects with one clear line when the engine has no such namespace', async () => {
    const err = await createApiServer(loadApiConfig({ PORT: '0', TEMPORAL_ADDRESS: h.address, TEMPORAL_NAMESPACE: 'no-such-namespace' }), {
      logger: pino({ level: 'silent' }),
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/^Temporal server at .+ has no namespace "no-such-namespace" \(TEMPORAL_NAMESPACE\): .*not found/i);
    expect(err!.message).not.toContain('\n');
  });

  it('logs one JSON line per request with request id, route, workflow id and http.status_code; errors carry the engine error', async () => {
    const lines: any[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        cb();
      },
    });
    const api = await createApiServer(loadApiConfig({ PORT: '0', SKEIN_CATALOG: h.catalog, TEMPORAL_ADDRESS: h.address }), {
      logger: pino({ level: 'debug' }, sink),
    });
    const { url } = await api.listen();
    try {
      const r = await fetch(`${url}/workflow/no-such-execution/status`, { headers: { 'x-request-id': 'log-test-1' } });
      expect(r.status).toBe(404);
      const body = await r.text();
      expect(body).not.toMatch(/grpc|NOT_FOUND|stack/i);
      await eventually(async () => lines.some((l) => l.reqId === 'log-test-1' && l['http.status_code'] === 404), 5000, 20);
      const line = lines.find((l) => l.reqId === 'log-test-1' && l['http.status_code'] === 404);
      expect(line).toMatchObject({ 'http.route': 'GET /workflow/{id}/status', workflowId: 'no-such-execution', 'http.method': 'GET' });
      const errLine = lines.find((l) => l.reqId === 'log-test-1' && l.errorType === 'WorkflowNotFoundError');
      expect(errLine?.err?.message).toBeTruthy();
      // A start's line names the run it started, as a run's does.
      const start = await fetch(`${url}/workflow/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'log-start-1' },
        body: JSON.stringify({ workflowName: 'waiter' }),
      });
      const started = (await start.json()) as { workflowId: string; runId: string };
      expect(start.status).toBe(200);
      await eventually(async () => lines.some((l) => l.reqId === 'log-start-1' && l.msg === 'request'), 5000, 20);
      expect(lines.find((l) => l.reqId === 'log-start-1' && l.msg === 'request')).toMatchObject({
        'http.route': 'POST /workflow/start',
        workflowId: started.workflowId,
        runId: started.runId,
      });
      await h.client.workflow.getHandle(started.workflowId).terminate('test over');
      // A probe or a scrape that succeeds is a debug line; the start line says what the API runs with.
      await fetch(`${url}/ready`, { headers: { 'x-request-id': 'log-probe-1' } });
      await eventually(async () => lines.some((l) => l.reqId === 'log-probe-1'), 5000, 20);
      expect(lines.find((l) => l.reqId === 'log-probe-1')).toMatchObject({ level: 20, 'http.route': 'GET /ready', 'http.status_code': 200 });
      expect(lines.find((l) => l.msg === 'API listening')).toMatchObject({
        url,
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        temporal: { address: h.address, namespace: 'default' },
        defaultCatalog: h.catalog,
        auth: 'none',
        tracing: false,
      });
    } finally {
      await api.close();
    }
  });
});
