import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseApiTime, SkeinApiError, SkeinClient, SkeinConnectionError } from '../src/index.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Server[] = [];

/** A loopback HTTP server answering with `handler`; resolves with its base URL. */
async function serve(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('SkeinClient requests', () => {
  it('sends the bearer token and JSON body, and resolves with the parsed response', async () => {
    const seen: Array<{ method?: string; url?: string; auth?: string; type?: string; body: string }> = [];
    const url = await serve((req, res, body) => {
      seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body });
      json(res, 200, { workflowId: 'w1', runId: 'r1' });
    });
    const client = new SkeinClient({ url: `${url}/`, token: 's3cret' });
    await expect(client.start({ workflowName: 'echo', input: { a: 1 }, workflowId: 'w1' })).resolves.toEqual({ workflowId: 'w1', runId: 'r1' });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/workflow/start',
        auth: 'Bearer s3cret',
        type: 'application/json',
        body: '{"workflowName":"echo","input":{"a":1},"workflowId":"w1"}',
      },
    ]);
  });

  it('targets the latest run or the pinned run, and resolves the latest run id for run-pinned control routes', async () => {
    const urls: string[] = [];
    const url = await serve((req, res) => {
      urls.push(`${req.method} ${req.url}`);
      if (req.url === '/workflow/w%201/status') return json(res, 200, { workflowId: 'w 1', runId: 'r9', status: 'running', startedAt: 1, completedAt: null });
      json(res, 200, { workflowId: 'w 1', runId: 'r9' });
    });
    const client = new SkeinClient({ url });
    await client.status('w 1');
    await client.status('w 1', { runId: 'r2' });
    await client.terminate('w 1', { reason: 'done' });
    await client.stop('w 1', { runId: 'r3' });
    await client.reset('w 1', 'countWords', { runId: 'r4' });
    expect(urls).toEqual([
      'GET /workflow/w%201/status',
      'GET /workflow/w%201/runs/r2/status',
      'GET /workflow/w%201/status',
      'POST /workflow/w%201/runs/r9/terminate',
      'PATCH /workflow/w%201/runs/r3/stop',
      'POST /workflow/w%201/runs/r4/reset',
    ]);
  });

  it('resolves query and update with the body itself (CONTRACT), undefined for an empty body', async () => {
    const url = await serve((req, res) => {
      if (req.url?.endsWith('/count')) return json(res, 200, 3);
      if (req.url?.endsWith('/state')) return json(res, 200, { result: 'kept as is' });
      res.writeHead(200, { 'content-length': '0' }).end();
    });
    const client = new SkeinClient({ url });
    await expect(client.query('w', 'count')).resolves.toBe(3);
    await expect(client.query('w', 'state')).resolves.toEqual({ result: 'kept as is' });
    await expect(client.update('w', 'noop', { x: 1 })).resolves.toBeUndefined();
  });

  it('turns an error body into SkeinApiError with type, message, workflowId, issues and request id', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/workflow/run') {
        return json(res, 400, {
          error: 'ValidationError',
          message: 'Invalid request body',
          issues: [{ code: 'invalid_type', path: ['body', 'workflowName'], message: 'expected string' }],
        });
      }
      json(res, 404, { error: 'WorkflowNotFoundError', message: 'Workflow execution not found', workflowId: 'gone' }, { 'x-request-id': 'req-1' });
    });
    const client = new SkeinClient({ url });
    const notFound = await client.result('gone').catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(SkeinApiError);
    expect(notFound).toMatchObject({
      status: 404,
      type: 'WorkflowNotFoundError',
      message: 'Workflow execution not found',
      workflowId: 'gone',
      requestId: 'req-1',
    });
    const invalid = await client.run({ workflowName: 'x' }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, type: 'ValidationError', issues: [{ path: ['body', 'workflowName'] }] });
  });

  it('reports a non-Skein error body (a proxy page) as HttpError with the status line', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    });
    await expect(new SkeinClient({ url }).catalog()).rejects.toMatchObject({
      name: 'SkeinApiError',
      status: 502,
      type: 'HttpError',
      message: 'HTTP 502 Bad Gateway',
    });
  });

  it('reports an unreachable API as SkeinConnectionError naming the socket error', async () => {
    const url = await serve(() => {});
    const port = new URL(url).port;
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
    const err = await new SkeinClient({ url }).status('w').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkeinConnectionError);
    expect((err as Error).message).toBe(`Cannot reach the Skein API at http://127.0.0.1:${port} (ECONNREFUSED)`);
  });

  it('gives up on a silent API after timeoutMs', async () => {
    const url = await serve(() => {}); // never answers
    const err = await new SkeinClient({ url, timeoutMs: 200 }).status('w').catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'SkeinConnectionError', timedOut: true });
  });

  it('/ready answers unavailable on 503 instead of throwing', async () => {
    const url = await serve((_req, res) => json(res, 503, { status: 'unavailable' }));
    await expect(new SkeinClient({ url }).ready()).resolves.toEqual({ status: 'unavailable' });
  });

  it('pages through history until nextPageToken is null', async () => {
    const tokens: Array<string | null> = [];
    const url = await serve((req, res) => {
      const token = new URL(req.url!, 'http://x').searchParams.get('pageToken');
      tokens.push(token);
      const page =
        token === null
          ? {
              events: [
                { eventId: 1, eventType: 'A' },
                { eventId: 2, eventType: 'B' },
              ],
              nextPageToken: 'p2',
            }
          : { events: [{ eventId: 3, eventType: 'C' }], nextPageToken: null };
      json(res, 200, { workflow: {}, runId: 'r', ...page });
    });
    const ids: number[] = [];
    for await (const e of new SkeinClient({ url }).historyEvents('w', { pageSize: 2 })) ids.push(e.eventId);
    expect(ids).toEqual([1, 2, 3]);
    expect(tokens).toEqual([null, 'p2']);
  });

  it('rejects a malformed base URL at construction', () => {
    expect(() => new SkeinClient({ url: 'not a url' })).toThrow(TypeError);
  });
});

describe('parseApiTime', () => {
  it('reads ISO 8601 strings and epoch milliseconds alike', () => {
    expect(parseApiTime('2026-11-22T20:54:12.943Z')?.getTime()).toBe(Date.UTC(2026, 10, 22, 20, 54, 12, 943));
    expect(parseApiTime(1795380852943)?.toISOString()).toBe('2026-11-22T20:54:12.943Z');
    expect(parseApiTime(null)).toBeNull();
    expect(parseApiTime('yesterday')).toBeNull();
  });
});

describe('SkeinClient starts that are safe to retry', () => {
  it('retries a start that failed in a way that may pass, under one Idempotency-Key', async () => {
    const keys: (string | undefined)[] = [];
    const url = await serve((req, res) => {
      keys.push(req.headers['idempotency-key'] as string | undefined);
      if (keys.length === 1) json(res, 503, { error: 'InternalError', message: 'restarting', workflowId: null });
      else if (keys.length === 2) req.socket.destroy();
      else json(res, 200, { workflowId: 'idem-w', runId: 'r1' });
    });
    const ref = await new SkeinClient({ url }).start({ workflowName: 'w' });
    expect(ref).toEqual({ workflowId: 'idem-w', runId: 'r1' });
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it("sends the caller's key, and gives up on a 4xx at once", async () => {
    const keys: (string | undefined)[] = [];
    const url = await serve((req, res) => {
      keys.push(req.headers['idempotency-key'] as string | undefined);
      json(res, 404, { error: 'UnsupportedWorkflowError', message: 'no', workflowId: null });
    });
    await expect(new SkeinClient({ url }).start({ workflowName: 'w' }, { idempotencyKey: 'order-42' })).rejects.toMatchObject({ status: 404 });
    expect(keys).toEqual(['order-42']);
  });

  it('sends a start once, without a key, when the request chose its id or policies', async () => {
    const keys: (string | undefined)[] = [];
    const url = await serve((req, res) => {
      keys.push(req.headers['idempotency-key'] as string | undefined);
      json(res, 503, { error: 'InternalError', message: 'down', workflowId: null });
    });
    const client = new SkeinClient({ url });
    await expect(client.start({ workflowName: 'w', workflowId: 'mine' })).rejects.toMatchObject({ status: 503 });
    await expect(client.start({ workflowName: 'w', onConflict: 'use-existing' })).rejects.toMatchObject({ status: 503 });
    expect(keys).toEqual([undefined, undefined]);
    await expect(client.start({ workflowName: 'w' }, { retries: 0 })).rejects.toMatchObject({ status: 503 });
    expect(keys).toHaveLength(3);
    expect(keys[2]).toBeTypeOf('string');
  });

  it('passes an Idempotency-Key on run, a query on listRuns, and reaches the batch routes', async () => {
    const seen: string[] = [];
    const url = await serve((req, res, body) => {
      seen.push(`${req.method} ${req.url} ${req.headers['idempotency-key'] ?? '-'} ${body}`);
      if (req.url === '/workflow/batch' && req.method === 'POST') json(res, 202, { batchId: 'b1', matched: 3 });
      else if (req.url?.startsWith('/workflow/batch/')) json(res, 200, { batchId: 'b1', state: 'completed' });
      else if (req.url?.startsWith('/workflow/batch')) json(res, 200, { batches: [], nextPageToken: null });
      else json(res, 200, { runs: [], count: 0 });
    });
    const client = new SkeinClient({ url });
    await client.run({ workflowName: 'w' }, { idempotencyKey: 'k1' });
    await client.listRuns({ query: "ExecutionStatus = 'Running'" });
    expect(await client.startBatch({ operation: 'terminate', workflowIds: ['a', 'b', 'c'] })).toEqual({ batchId: 'b1', matched: 3 });
    expect(await client.batch('b 1')).toMatchObject({ state: 'completed' });
    expect(await client.listBatches({ pageSize: 5 })).toEqual({ batches: [], nextPageToken: null });
    expect(seen).toEqual([
      'POST /workflow/run k1 {"workflowName":"w"}',
      'GET /workflow/runs?query=ExecutionStatus%20%3D%20%27Running%27 - ',
      'POST /workflow/batch - {"operation":"terminate","workflowIds":["a","b","c"]}',
      'GET /workflow/batch/b%201 - ',
      'GET /workflow/batch?pageSize=5 - ',
    ]);
  });
});
