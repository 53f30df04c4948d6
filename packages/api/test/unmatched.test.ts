import { PassThrough, Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../src/errors.js';
import { defineRoute } from '../src/route.js';
import { serveApp, testDeps } from './test-deps.js';

// Routing and error rendering of the Koa app alone: these routes never reach the engine, so no client is given.
const routes = [
  defineRoute({
    method: 'post',
    path: '/things/{id}',
    operationId: 'makeThing',
    summary: 'test route',
    tag: 'Test',
    params: z.object({ id: z.string().regex(/^[a-z]+$/) }),
    responses: { 200: { description: 'ok' } },
    async handler({ ctx }) {
      ctx.body = { ok: true };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/things/{id}',
    operationId: 'getThing',
    summary: 'test route',
    tag: 'Test',
    responses: { 200: { description: 'ok' } },
    async handler({ ctx }) {
      ctx.body = { ok: true };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/things/{id}/parts/{part}',
    operationId: 'getPart',
    summary: 'test route',
    tag: 'Test',
    params: z.object({ id: z.string().regex(/^[a-z]+$/), part: z.string().regex(/^\d+$/) }),
    responses: { 200: { description: 'ok' } },
    async handler({ ctx }) {
      ctx.body = { ok: true };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/endless',
    operationId: 'endless',
    summary: 'a response that never ends (as an SSE stream of a running workflow)',
    tag: 'Test',
    responses: { 200: { description: 'ok' } },
    async handler({ ctx }) {
      const body = new PassThrough();
      body.write('data: first\n\n');
      ctx.type = 'text/event-stream';
      ctx.body = body;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/old/{id}',
    operationId: 'oldThing',
    summary: 'deprecated test route',
    tag: 'Test',
    deprecated: { successor: 'stop' },
    params: z.object({ id: z.string() }),
    query: z.object({ fail: z.enum(['client', 'server', 'crash', 'invalid']).optional() }),
    responses: { 200: { description: 'ok' } },
    async handler({ ctx, params, query }) {
      if (query.fail === 'invalid') throw new ApiError('ValidationError', { message: 'nope', issues: [] });
      ctx.state.runId = 'run-1';
      if (query.fail === 'client') throw new ApiError('WorkflowExecutionAlreadyCompletedError', { workflowId: params.id });
      if (query.fail === 'server') throw new ApiError('InternalError', { message: 'engine said: secret detail', workflowId: params.id });
      if (query.fail === 'crash') throw new Error('secret stack');
      ctx.body = { ok: true };
    },
  }),
];

let base: string;
/** What the app logged, one parsed pino line each. */
const logged: Array<{ level: number; msg: string }> = [];
const logs = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
    done();
  },
});

let app: Awaited<ReturnType<typeof serveApp>>;

beforeAll(async () => {
  app = await serveApp(testDeps({ logger: pino({ level: 'info' }, logs) }), routes);
  base = app.base;
});

afterAll(async () => {
  await app.close();
});

const call = async (method: string, path: string) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
    body: method === 'POST' ? '{}' : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};

describe('requests no route answers', () => {
  it('a known path with another method is 405 MethodNotAllowedError listing the allowed methods in Allow', async () => {
    const res = await call('PATCH', '/things/abc');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, HEAD, GET');
    expect(res.body).toEqual({ error: 'MethodNotAllowedError', message: 'PATCH is not allowed on /things/abc; allowed: POST, HEAD, GET', workflowId: null });
  });

  it('a method the router does not know on a known path is 405 too, never a bare 501', async () => {
    const res = await call('PURGE', '/things/abc');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, HEAD, GET');
    expect(res.body.error).toBe('MethodNotAllowedError');
  });

  it('an unknown path is 404 NotFoundError, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'PURGE']) {
      const res = await call(method, '/nothing/here');
      expect(res.status, method).toBe(404);
      expect(res.headers.get('allow'), method).toBeNull();
      expect(res.body, method).toEqual({ error: 'NotFoundError', message: `No route for ${method} /nothing/here`, workflowId: null });
    }
  });

  it('OPTIONS on a known path answers 200 with Allow', async () => {
    const res = await call('OPTIONS', '/things/abc');
    expect(res.status).toBe(200);
    expect(res.headers.get('allow')).toBe('POST, HEAD, GET');
  });

  it('a matching route still answers', async () => {
    expect(await call('GET', '/things/abc')).toMatchObject({ status: 200, body: { ok: true } });
    expect(await call('POST', '/things/abc')).toMatchObject({ status: 200, body: { ok: true } });
    expect(await call('POST', '/things/ABC')).toMatchObject({ status: 400, body: { error: 'ValidationError' } });
  });
});

describe('errors of a deprecated route', () => {
  const deprecation = (headers: Headers) => ({ deprecation: headers.get('deprecation'), sunset: headers.get('sunset'), link: headers.get('link') });

  it('carry the deprecation headers, with Link naming the run once the handler knew it', async () => {
    const ok = await call('POST', '/old/wf');
    expect(ok.status).toBe(200);
    expect(deprecation(ok.headers)).toEqual({
      deprecation: 'true',
      sunset: 'Thu, 16 Jul 2026 00:00:00 GMT',
      link: '</workflow/wf/runs/run-1/stop>; rel="successor-version"',
    });
    for (const [fail, status] of [
      ['client', 409],
      ['server', 500],
      ['crash', 500],
    ] as const) {
      const res = await call('POST', `/old/wf?fail=${fail}`);
      expect(res.status, fail).toBe(status);
      expect(deprecation(res.headers), fail).toEqual(deprecation(ok.headers));
    }
    const early = await call('POST', '/old/wf?fail=invalid');
    expect(early.status).toBe(400);
    expect(early.headers.get('link')).toBe('</workflow/wf/runs/{rid}/stop>; rel="successor-version"');
    const badQuery = await call('POST', '/old/wf?fail=other');
    expect(badQuery.status).toBe(400);
    expect(deprecation(badQuery.headers).deprecation).toBe('true');
  });

  it('carry them also when a step before the route refused the request: its body, content type, size or origin', async () => {
    const post = (init: RequestInit) => fetch(`${base}/old/wf`, { method: 'POST', ...init });
    const refusals = [
      [400, await post({ headers: { 'content-type': 'application/json' }, body: '{bad' })],
      [415, await post({ headers: { 'content-type': 'text/plain' }, body: '{}' })],
      [413, await post({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(1_100_000) }) })],
      [403, await post({ headers: { 'content-type': 'application/json', origin: 'http://evil.example' }, body: '{}' })],
    ] as const;
    for (const [status, res] of refusals) {
      expect(res.status, String(status)).toBe(status);
      expect(deprecation(res.headers), String(status)).toEqual({
        deprecation: 'true',
        sunset: 'Thu, 16 Jul 2026 00:00:00 GMT',
        link: '</workflow/wf/runs/{rid}/stop>; rel="successor-version"',
      });
    }
  });

  it('show their own message for a 4xx and only the generic one for a 5xx', async () => {
    expect((await call('POST', '/old/wf?fail=client')).body).toEqual({
      error: 'WorkflowExecutionAlreadyCompletedError',
      message: 'The workflow run is already closed',
      workflowId: 'wf',
    });
    const server = await call('POST', '/old/wf?fail=server');
    expect(server.body).toEqual({ error: 'InternalError', message: 'Internal server error', workflowId: 'wf' });
    const crash = await call('POST', '/old/wf?fail=crash');
    // An unexpected failure of a request whose path names a valid id is tied to that id too.
    expect(crash.body).toEqual({ error: 'InternalError', message: 'Internal server error', workflowId: 'wf' });
    expect(JSON.stringify([server.body, crash.body])).not.toContain('secret');
  });
});

describe('a 400 names the workflow id its path names', () => {
  it('whichever step refused the request, when the id itself is valid', async () => {
    const malformed = await fetch(`${base}/things/abc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: 'ValidationError', message: 'Malformed JSON body', workflowId: 'abc' });
    const bare = await fetch(`${base}/things/abc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '"x"' });
    expect(await bare.json()).toMatchObject({
      error: 'ValidationError',
      workflowId: 'abc',
      issues: [{ code: 'invalid_type', path: ['body'], message: 'Request body must be a JSON object, not a bare value such as null or a string' }],
    });
    // Another path parameter invalid: the id is still the execution the request names.
    const part = await call('GET', '/things/abc/parts/x');
    expect(part.status).toBe(400);
    expect(part.body).toMatchObject({ error: 'ValidationError', workflowId: 'abc' });
    // A path that does not decode names nothing, and is a client error.
    const undecodable = await call('GET', '/things/%E0%A4%A/parts/1');
    expect(undecodable.status).toBe(400);
    expect(undecodable.body).toMatchObject({ error: 'ValidationError', workflowId: null });
    // An id the route refuses names nothing.
    const invalidId = await fetch(`${base}/things/ABC`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect(await invalidId.json()).toMatchObject({ error: 'ValidationError', workflowId: null });
  });
});

describe('a client that closes a response it is still reading', () => {
  it('is logged as such, not as an unhandled error', async () => {
    const before = logged.length;
    const controller = new AbortController();
    const res = await fetch(`${base}/endless`, { signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('data: first');
    controller.abort();
    await expect.poll(() => logged.slice(before).map((l) => l.msg)).toContain('response closed by the client');
    expect(logged.slice(before).filter((l) => l.level >= 50)).toEqual([]);
  });
});
