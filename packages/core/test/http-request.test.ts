import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FatalError, ValidationError, on, sendHttpRequest, sendPostRequestAndAwaitWebhook, type CustomEvent } from '../src/index.js';
import { HTTP_REQUEST_ACTIVITY_OPTIONS, checkHttpRequest, clearHooks, hydrateHeaders, performHttpRequest, redactHeaders, redactUrl } from '../src/internal.js';

/** A real local HTTP server: /echo answers what it received, /status/<n> answers n, /text and /bytes other types, /bad-json broken JSON. */
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname.startsWith('/status/')) {
        res.writeHead(Number(url.pathname.slice('/status/'.length)), { 'content-type': 'text/plain' });
        return res.end('nope');
      }
      if (url.pathname === '/text') return res.writeHead(200, { 'content-type': 'text/plain' }).end('plain words');
      if (url.pathname === '/bytes') return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([1, 2, 3]));
      if (url.pathname === '/bad-json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{not json');
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-secret-token': 'abc', 'x-request-id': 'r1', 'set-cookie': 'a=b' });
      res.end(JSON.stringify({ method: req.method, contentType: req.headers['content-type'] ?? null, apiKey: req.headers['x-api-key'] ?? null, body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.close();
  clearHooks();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('checkHttpRequest', () => {
  it('defaults the method to GET and keeps valid arguments', () => {
    expect(checkHttpRequest({ url: 'https://example.com/a' })).toEqual({ url: 'https://example.com/a', method: 'GET' });
  });

  it.each([
    [{ url: 'ftp://example.com' }, /url: must be an http or https URL/],
    [{ url: 'not a url' }, /url/],
    [{ url: 'https://e.com', method: 'GET', payload: { a: 1 } }, /payload: a GET request carries no payload/],
    [{ url: 'https://e.com', method: 'HEAD', payload: 'x' }, /payload/],
    [{ url: 'https://e.com', method: 'TRACE' }, /method/],
    [{ url: 'https://e.com', headers: { a: 1 } }, /headers\.a/],
    [{ url: 'https://e.com', responseOptions: { includeBody: true, extra: 1 } }, /responseOptions/],
  ])('refuses %j with a ValidationError naming the argument', (args, message) => {
    expect(() => checkHttpRequest(args as never)).toThrow(ValidationError);
    expect(() => checkHttpRequest(args as never)).toThrow(message);
  });

  it('the built-in activity has the seed system defaults: 3 minutes, 3 attempts, 15 s, FatalError not retried', () => {
    expect(HTTP_REQUEST_ACTIVITY_OPTIONS).toEqual({
      startToCloseTimeout: '3m',
      retry: { initialInterval: '15s', maximumAttempts: 3, nonRetryableErrorTypes: ['FatalError', 'ValidationError'] },
    });
  });
});

describe('redaction and headers', () => {
  it('redactUrl hides query values, credentials and the fragment', () => {
    expect(redactUrl('https://user:pw@host.test/p?token=abc&x=1#frag')).toBe('https://***:***@host.test/p?token=***&x=***#***');
    expect(redactUrl('https://host.test/p')).toBe('https://host.test/p');
    expect(redactUrl('::')).toBe('[invalid URL]');
  });

  it('redactHeaders hides sensitive names only', () => {
    expect(
      redactHeaders({ Authorization: 'Bearer x', 'x-api-key': 'k', apikey: 'k', 'set-cookie': 'c', 'x-csrf-token': 't', 'content-type': 'a', keyboard: 'k' }),
    ).toEqual({
      Authorization: '[REDACTED]',
      'x-api-key': '[REDACTED]',
      apikey: '[REDACTED]',
      'set-cookie': '[REDACTED]',
      'x-csrf-token': 't',
      'content-type': 'a',
      keyboard: 'k',
    });
  });

  it('hydrateHeaders replaces $VARS from the environment and fails on a missing one', () => {
    expect(hydrateHeaders({ authorization: 'Bearer $TOKEN_1', plain: 'x' }, { TOKEN_1: 's3cret' })).toEqual({ authorization: 'Bearer s3cret', plain: 'x' });
    expect(() => hydrateHeaders({ a: '$NOPE_NOT_SET' }, {})).toThrow(new FatalError('Missing environment variable "NOPE_NOT_SET" while hydrating headers.'));
  });
});

describe('sendHttpRequest in Node (the built-in activity, in-process)', () => {
  it('answers the status only unless asked, then redacted headers and the parsed body', async () => {
    vi.stubEnv('SKEIN_TEST_API_KEY', 'key-123');
    const bare = await sendHttpRequest({ url: `${base}/echo` });
    expect(bare).toEqual({ url: `${base}/echo`, status: 200, statusText: 'OK', ok: true });
    const full = await performHttpRequest({
      url: `${base}/echo`,
      method: 'POST',
      payload: { a: 1 },
      headers: { 'x-api-key': '$SKEIN_TEST_API_KEY' },
      responseOptions: { includeHeaders: true, includeBody: true },
    });
    expect(full.body).toEqual({ method: 'POST', contentType: 'application/json; charset=UTF-8', apiKey: 'key-123', body: '{"a":1}' });
    expect(full.headers).toMatchObject({ 'x-secret-token': '[REDACTED]', 'set-cookie': '[REDACTED]', 'x-request-id': 'r1' });
  });

  it('sends text payloads as text, and reads text and bytes bodies', async () => {
    const post = await performHttpRequest({ url: `${base}/echo`, method: 'PUT', payload: 'hi', responseOptions: { includeBody: true } });
    expect(post.body).toMatchObject({ method: 'PUT', contentType: 'text/plain; charset=UTF-8', body: 'hi' });
    expect((await performHttpRequest({ url: `${base}/text`, responseOptions: { includeBody: true } })).body).toBe('plain words');
    expect((await performHttpRequest({ url: `${base}/bytes`, responseOptions: { includeBody: true } })).body).toBe('AQID');
  });

  it('fails with a FatalError naming the method and the redacted URL on a non-2xx answer or an unreachable host', async () => {
    await expect(performHttpRequest({ url: `${base}/status/503?key=hidden` })).rejects.toThrow(
      new FatalError(`GET ${base}/status/503?key=*** answered 503 Service Unavailable`),
    );
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const err = await performHttpRequest({ url: `http://u:p@127.0.0.1:${port}/x?secret=1` }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(FatalError);
    expect(err.message).toContain(`GET http://***:***@127.0.0.1:${port}/x?secret=*** failed: `);
    expect(err.message).not.toMatch(/secret=1|u:p@/);
  });

  it('a JSON content type with a body that does not parse is a retryable error (not a FatalError)', async () => {
    const err = await performHttpRequest({ url: `${base}/bad-json`, responseOptions: { includeBody: true } }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(FatalError);
    expect(err.message).toBe(`GET ${base}/bad-json answered application/json with a body that is not valid JSON`);
  });

  it('fires http:request with the redacted URL and the status, also when the request fails', async () => {
    const seen: CustomEvent[] = [];
    const off = on('http:request', (e) => void seen.push(e));
    try {
      await performHttpRequest({ url: `${base}/echo?token=t` });
      await performHttpRequest({ url: `${base}/status/500` }).catch(() => {});
    } finally {
      off();
    }
    await expect.poll(() => seen.length).toBe(2);
    expect(seen.map((e) => e.payload)).toEqual([
      { method: 'GET', url: `${base}/echo?token=***`, status: 200, durationMs: expect.any(Number) },
      { method: 'GET', url: `${base}/status/500`, status: 500, durationMs: expect.any(Number) },
    ]);
  });

  it('sendPostRequestAndAwaitWebhook checks its arguments, then refuses to run outside workflow code', async () => {
    await expect(sendPostRequestAndAwaitWebhook({ url: 'nope' })).rejects.toThrow(ValidationError);
    await expect(sendPostRequestAndAwaitWebhook({ url: `${base}/echo` })).rejects.toThrow(/runs only in workflow code/);
  });
});
