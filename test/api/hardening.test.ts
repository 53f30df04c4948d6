/**
 * The API's hardening against a real dev server: every client mistake is a 4xx with the contract's body, no
 * accepted run wedges, traces stay in their folder, browser safety is on by default, and a query or update no worker
 * answers ends at its deadline. (The bounds with the engine down or slow, which measure reaction times, are in
 * `engine-bounds.system.test.ts`.)
 */
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { eventually, rawExchange, startHarness, type Harness } from './support.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

/** A raw exchange with `base` or the harness's API (no OpenAPI validation: some of these never reach a route). */
const raw = (route: string, init: RequestInit & { base?: string } = {}) => rawExchange((init.base ?? h.url) + route, init);

const json = (body: string, headers: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

/** JSON text of `1` wrapped in `levels` arrays (built as text: JSON.stringify itself overflows past ~4 000 levels). */
function nestedText(levels: number): string {
  return `${'['.repeat(levels)}1${']'.repeat(levels)}`;
}

/** Sends one raw HTTP/1.1 request over TCP and returns the raw response text. */
function rawHttp(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    // write, not end: a half-closed request may be dropped before an asynchronous answer.
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('client mistakes are 4xx with the contract body, checked before anything starts', () => {
  it('input nested beyond 512 levels (5 000 and 4 000) is a 400; nothing is started', async () => {
    for (const levels of [5_000, 4_000]) {
      const workflowId = `deep-${levels}-${Date.now()}`;
      const res = await raw('/workflow/run', json(`{"workflowName":"echo","workflowId":"${workflowId}","input":${nestedText(levels)}}`));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ValidationError', message: 'Request body nests deeper than 512 levels' });
      expect(res.body.issues[0].code).toBe('too_deep');
      expect((await raw(`/workflow/${workflowId}/status`)).status).toBe(404);
    }
    const query = await raw('/workflow/any/query/state', json(`{"payload":${nestedText(600)}}`));
    expect(query.status).toBe(400);
  });

  it('an input at the depth limit is accepted and the run completes (no accepted run wedges)', async () => {
    const input = JSON.parse(nestedText(510)); // body → input → 510 arrays: 512 levels
    const res = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input, timeout: 20_000 } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(JSON.stringify(res.body.output)).toBe(JSON.stringify(input));
  });

  it('ids are limited in UTF-8 bytes; lone surrogates in ids, catalog or reason are 400', async () => {
    const long = await raw('/workflow/start', json(JSON.stringify({ workflowName: 'echo', workflowId: 'é'.repeat(1000) })));
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body.issues)).toContain('at most 1000 bytes');
    expect((await raw('/workflow/start', json(JSON.stringify({ workflowName: 'echo', workflowId: 'é'.repeat(500) })))).status).toBe(200);
    for (const body of ['{"workflowName":"echo","workflowId":"\\ud800"}', '{"workflowName":"echo","catalog":"a\\udc00"}']) {
      const res = await raw('/workflow/start', json(body));
      expect(res.status).toBe(400);
      expect(res.body.issues[0].code).toBe('invalid_string');
    }
    const started = await h.call('POST', '/workflow/start', { body: { workflowName: 'sleeper', input: { ms: 60_000 } } });
    const reason = await raw(`/workflow/${started.body.workflowId}/runs/${started.body.runId}/terminate`, json('{"reason":"\\ud800"}'));
    expect(reason.status).toBe(400);
    expect((await h.call('GET', '/workflow/{id}/status', { params: { id: started.body.workflowId } })).body.status).toBe('running');
    await h.client.workflow.getHandle(started.body.workflowId).terminate();
  });

  it('content type and encoding: non-JSON body 415, unknown encoding 415, broken gzip 400, real gzip works', async () => {
    const plain = await raw('/workflow/start', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"workflowName":"echo"}' });
    expect(plain.status).toBe(415);
    expect(plain.body).toMatchObject({ error: 'UnsupportedMediaTypeError' });
    const zstd = await raw('/workflow/start', json('{"workflowName":"echo"}', { 'content-encoding': 'x-unknown' }));
    expect(zstd.status).toBe(415);
    const broken = await raw('/workflow/start', json('{"workflowName":"echo"}', { 'content-encoding': 'gzip' }));
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('ValidationError');
    const gz = await fetch(`${h.url}/workflow/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ workflowName: 'echo', input: 1 })),
    });
    expect(gz.status).toBe(200);
  });

  it("a wrong method is 405 with Allow; Node's own 400 and 431 are JSON with X-Request-ID", async () => {
    const res = await raw('/workflow/run', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
    expect(res.body).toMatchObject({ error: 'MethodNotAllowedError' });
    const port = Number(new URL(h.url).port);
    const big = await rawHttp(port, `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431/);
    expect(big).toMatch(/X-Request-ID: [0-9a-f-]{36}/);
    expect(big).toContain('"error":"RequestHeaderFieldsTooLargeError"');
    const garbage = await rawHttp(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    expect(garbage).toContain('"error":"ValidationError"');
  });
});

describe('a client that stops sending', () => {
  it('gets 408 RequestTimeoutError once the headers, or the whole request, take longer than allowed; the connection closes', async () => {
    const api = await createApiServer(loadApiConfig({ PORT: '0', SKEIN_CATALOG: h.catalog, TEMPORAL_ADDRESS: h.address }), {
      logger: pino({ level: 'silent' }),
      requestTimeouts: { headersMs: 400, requestMs: 800 },
    });
    try {
      const port = Number(new URL((await api.listen()).url).port);
      const started = Date.now();
      const headers = await rawHttp(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      expect(headers).toMatch(/^HTTP\/1\.1 408/);
      expect(headers).toContain('"error":"RequestTimeoutError"');
      const body = await rawHttp(
        port,
        'POST /workflow/start HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"workflowName"',
      );
      expect(body).toMatch(/^HTTP\/1\.1 408/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await api.close();
    }
  });
});

describe('traces confined to their folder', () => {
  it('a workflow id of ".." or 1 000 bytes writes its trace inside the trace folder, and trace-log reads it', async () => {
    // The API starts no run of id `..` (no URL could reach it): another Temporal client can, and its trace stays inside too.
    const refused = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', workflowId: '..', input: 1 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ValidationError');
    const dots = await h.client.workflow.start('echo', { taskQueue: h.catalog, workflowId: '..', args: [1] });
    await dots.result();
    for (const workflowId of ['..', `${'x'.repeat(300)}/..${'é'.repeat(340)}`]) {
      const run =
        workflowId === '..'
          ? { body: { runId: dots.firstExecutionRunId } }
          : await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', workflowId, input: 1 } });
      if (workflowId !== '..') expect(run.body.status).toBe('completed');
      // Sent over a raw socket: URL clients resolve `..` (even `%2E%2E`) away.
      const id = encodeURIComponent(workflowId).replace(/\./g, '%2E');
      const port = Number(new URL(h.url).port);
      const log = await eventually(async () => {
        const r = await rawHttp(port, `GET /workflow/${id}/runs/${run.body.runId}/trace-log HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        return r.startsWith('HTTP/1.1 200') ? JSON.parse(r.slice(r.indexOf('\r\n\r\n') + 4)) : undefined;
      });
      expect(log).toMatchObject({ workflowId, runId: run.body.runId, source: 'local' });
      expect(path.resolve(log.location).startsWith(h.traceDir + path.sep)).toBe(true);
      expect(existsSync(path.join(h.traceDir, '..', `${run.body.runId}.json`))).toBe(false);
    }
  });

  it('trace-log ignores a memo naming a file outside the trace folder or an unconfigured URL', async () => {
    const handle = await h.client.workflow.start('forged', {
      taskQueue: `nobody-${Date.now()}`,
      workflowId: `forged-${Date.now()}`,
      memo: { skeinTrace: { local: '/etc/hostname', remote: 'http://127.0.0.1:9/secret' } },
    });
    await handle.terminate();
    const res = await h.call('GET', '/workflow/{id}/runs/{rid}/trace-log', { params: { id: handle.workflowId, rid: handle.firstExecutionRunId } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('NotFoundError');
  });
});

describe('browser safety and the opt-in token', () => {
  let guarded: ApiServer;
  let url: string;

  beforeAll(async () => {
    guarded = await createApiServer(
      loadApiConfig({
        PORT: '0',
        SKEIN_CATALOG: h.catalog,
        TEMPORAL_ADDRESS: h.address,
        SKEIN_CORS_ORIGINS: 'https://app.example.com',
        SKEIN_ALLOWED_HOSTS: 'skein.internal',
        SKEIN_API_TOKEN: 's3cret',
        SKEIN_HANDLER_TIMEOUT_MS: '1500',
      }),
      { logger: pino({ level: process.env.SKEIN_TEST_LOG ?? 'silent' }) },
    );
    url = (await guarded.listen()).url;
  });

  afterAll(async () => {
    await guarded?.close();
  });

  it('refuses a foreign Origin or Host with 403 before any engine call: the run is not terminated', async () => {
    const started = await h.call('POST', '/workflow/start', { body: { workflowName: 'sleeper', input: { ms: 60_000 } } });
    const { workflowId, runId } = started.body;
    const evil = await raw(`/workflow/${workflowId}/runs/${runId}/terminate`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      body: '',
    });
    expect(evil.status).toBe(403);
    expect(evil.body).toMatchObject({ error: 'ForbiddenOriginError' });
    const rebinding = await rawHttp(
      Number(new URL(h.url).port),
      `GET /workflow/${workflowId}/status HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(rebinding).toMatch(/^HTTP\/1\.1 403/);
    // Health probes answer whatever Host an orchestrator sends (a pod's address).
    for (const probe of ['/health', '/ready']) {
      const answer = await rawHttp(Number(new URL(h.url).port), `GET ${probe} HTTP/1.1\r\nHost: 10.1.2.3:3001\r\nConnection: close\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
    }
    expect((await h.call('GET', '/workflow/{id}/status', { params: { id: workflowId } })).body.status).toBe('running');
    // A loopback page may call the API; its preflight is answered.
    const preflight = await raw('/workflow/run', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    // Every method and request header a route takes: DELETE of a schedule, an Idempotency-Key, a gzip body.
    expect(preflight.headers.get('access-control-allow-methods')?.split(',').sort()).toEqual(['DELETE', 'GET', 'OPTIONS', 'PATCH', 'POST']);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['content-type', 'content-encoding', 'authorization', 'idempotency-key', 'last-event-id', 'x-request-id']),
    );
    await h.client.workflow.getHandle(workflowId).terminate();
  });

  it('SKEIN_CORS_ORIGINS and SKEIN_ALLOWED_HOSTS extend the lists; SKEIN_API_TOKEN is required except on /health and /ready', async () => {
    const auth = { authorization: 'Bearer s3cret' };
    const none = await raw('/workflow/catalog', { base: url });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await raw('/workflow/catalog', { base: url, headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await raw('/workflow/catalog', { base: url, headers: auth })).status).toBe(200);
    expect((await raw('/health', { base: url })).status).toBe(200);
    expect((await raw('/ready', { base: url })).status).toBe(200);
    const cors = await raw('/workflow/catalog', { base: url, headers: { ...auth, origin: 'https://app.example.com' } });
    expect(cors.status).toBe(200);
    expect(cors.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const host = await rawHttp(Number(new URL(url).port), 'GET /health HTTP/1.1\r\nHost: skein.internal:8080\r\nConnection: close\r\n\r\n');
    expect(host).toMatch(/^HTTP\/1\.1 200/);
    const doc = await raw('/openapi.json', { base: url, headers: auth });
    expect(doc.body.security).toEqual([{ bearerAuth: [] }]);
    expect((await raw('/openapi.json')).body.security).toEqual([]);
  });

  it('a query or update that no worker answers is a 504 WorkflowTaskTimeoutError within the deadline', async () => {
    const handle = await h.client.workflow.start('waiter', { taskQueue: `nobody-${Date.now()}`, workflowId: `unanswered-${Date.now()}`, args: [{}] });
    const auth = { authorization: 'Bearer s3cret' };
    for (const op of ['query/state', 'update/setValue']) {
      const t0 = Date.now();
      const res = await raw(`/workflow/${handle.workflowId}/${op}`, { base: url, ...json('{}', auth) });
      expect(res.status, `${op}: ${res.text}`).toBe(504);
      expect(res.body).toMatchObject({ error: 'WorkflowTaskTimeoutError', workflowId: handle.workflowId });
      expect(Date.now() - t0).toBeLessThan(4_000);
    }
    await handle.terminate();
  });
});
