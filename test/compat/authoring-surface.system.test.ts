import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '@skein/dev-server';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';

/**
 * The seed system's authoring surface, served as a whole (fixtures/projects/seed-surface: written the way the seed
 * system's own test project writes its workflows, every export and subpath of the core package used, the scope
 * renamed and nothing else) by `skein dev` from its `.ts` sources. Every workflow runs through `POST /workflow/run` to
 * the outcome it is meant to have; its HTTP and webhook calls go to a local service started here, and the webhook
 * workflow completes when that service answers through `POST /workflow/{id}/feedback`.
 */
const fixture = path.join(repoRoot, 'fixtures/projects/seed-surface');

let dev: CliProcess;
let api: string;
let service: Server;
let serviceUrl: string;
let dir: string;
let hookLog: string;
/** Requests the local service received: method, path and the parsed JSON body. */
const received: Array<{ method: string; path: string; body: unknown }> = [];

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

/** The local service: `/echo`, `/status/<n>`, and `/hooks/answer`, which answers the webhook through the API. */
function startService(): Promise<void> {
  service = createServer((req, res) => {
    void bodyOf(req).then((text) => {
      const url = new URL(req.url ?? '/', 'http://service');
      const body = text ? (JSON.parse(text) as unknown) : null;
      received.push({ method: req.method ?? '', path: url.pathname, body });
      if (url.pathname.startsWith('/status/')) return res.writeHead(Number(url.pathname.split('/')[2])).end();
      if (url.pathname === '/hooks/answer') {
        res.writeHead(202).end();
        // The service answers later, through the API, as a real integration would.
        const { workflowId, payload } = body as { workflowId: string; payload: unknown };
        void fetch(`${api}/workflow/${encodeURIComponent(workflowId)}/feedback`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ payload: { value: 42, asked: payload } }),
        });
        return;
      }
      if (url.pathname === '/hooks/silent') return res.writeHead(200).end();
      res.writeHead(200, { 'content-type': 'application/json', 'x-secret-token': 'shh', 'x-request-id': 'req-1' });
      res.end(JSON.stringify({ method: req.method, apiKey: req.headers['x-api-key'] ?? null, query: url.search, body }));
    });
  });
  return new Promise((resolve) => service.listen(0, '127.0.0.1', () => resolve()));
}

async function call(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(api + route, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

const run = (workflowName: string, input?: unknown) => call('POST', '/workflow/run', { workflowName, input, timeout: 90_000 });

/** Every JSON line the dev process printed whose `component` is `Logger`. */
function loggerLines(): Array<Record<string, any>> {
  return dev
    .stdout()
    .split('\n')
    .filter((l) => l.includes('"component":"Logger"'))
    .map((l) => JSON.parse(l) as Record<string, any>);
}

async function hookLines(): Promise<Array<Record<string, any>>> {
  const text = await readFile(hookLog, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
}

/** The trace file a run names, once it is written and its root closed. */
async function traceOf(res: { body: { trace: { destinations: { local?: string } } } }): Promise<any> {
  const file = res.body.trace.destinations.local!;
  expect(file).toEqual(expect.any(String));
  let trace: any;
  await expect
    .poll(async () => (trace = await readFile(file, 'utf8').then(JSON.parse, () => undefined))?.tree.status, { timeout: 15_000, interval: 200 })
    .toMatch(/^(completed|failed)$/);
  return trace;
}

const flatten = (node: any): any[] => [node, ...node.children.flatMap(flatten)];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-seed-surface-'));
  hookLog = path.join(dir, 'hooks.jsonl');
  await startService();
  serviceUrl = `http://127.0.0.1:${(service.address() as { port: number }).port}`;
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  dev = spawnSkein(['dev', fixture], {
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    SKEIN_CATALOG: `seed-surface-${process.pid}-${Date.now()}`,
    PORT: String(port),
    SKEIN_TRACE_DIR: path.join(dir, 'traces'),
    SKEIN_HOOK_LOG: hookLog,
    SKEIN_LOG_LEVEL: 'trace',
    SEED_SURFACE_API_KEY: 'key-from-env',
  });
  await dev.waitFor(/Skein is up/, 150_000);
}, 180_000);

afterAll(async () => {
  if (dev && dev.child.exitCode === null) dev.child.kill('SIGINT');
  await dev?.exited;
  service?.close();
  await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('the seed-surface project under skein dev', () => {
  it('serves every workflow of the project, and the hook file ran before the worker started', async () => {
    const catalog = await call('GET', '/workflow/catalog');
    // Exposed packages installed above the project (this repository's fixture packages) are served too.
    expect(catalog.body.workflows.map((w: { name: string }) => w.name)).toEqual(
      expect.arrayContaining([
        'disable_trace',
        'evaluation',
        'event_hub',
        'get_context',
        'helpers',
        'http_error',
        'logger',
        'send_http_request',
        'temporal_client',
        'webhook',
      ]),
    );
    expect(await hookLines()).toContainEqual({ hook: 'onBeforeWorkerStart' });
  });

  it('logger: lines from workflow code (once, through the sink) and from a step, with the run and activity ids', async () => {
    const res = await run('logger', { seed: 'abc' });
    expect(res.body).toMatchObject({ status: 'completed', output: { word: 'abc-word' } });
    const { workflowId, runId } = res.body;
    await expect.poll(() => loggerLines().filter((l) => l.runId === runId).length, { timeout: 10_000 }).toBe(10);
    const mine = loggerLines().filter((l) => l.runId === runId);
    expect(mine.filter((l) => l.msg === 'workflow line')).toEqual([
      expect.objectContaining({ workflowId, workflowType: 'logger', logLevel: 'info', seed: 'abc' }),
    ]);
    const stepLines = mine.filter((l) => l.msg === 'step line');
    expect(stepLines.map((l) => l.logLevel)).toEqual(['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly']);
    expect(stepLines.map((l) => l.level)).toEqual([50, 40, 30, 30, 20, 20, 10]);
    for (const l of stepLines) expect(l).toMatchObject({ workflowId, activityType: 'logger#generate_word', activityId: expect.any(String), seed: 'abc' });
    expect(mine.find((l) => l.msg === 'step namespaced line')).toMatchObject({ namespace: 'Namespaced' });
    expect(mine.find((l) => l.msg === 'workflow reserved line')).toMatchObject({ fields: { message: 'not the message' }, word: 'abc-word' });
  });

  it('send_http_request: GET, POST and HEAD through the built-in activity, headers hydrated and redacted, http:request fired', async () => {
    const res = await run('send_http_request', { baseUrl: serviceUrl });
    expect(res.body.status).toBe('completed');
    const { get, post, bare } = res.body.output;
    expect(get).toMatchObject({ status: 200, ok: true, body: { method: 'GET', apiKey: 'key-from-env', query: '?token=secret' } });
    expect(get.headers).toMatchObject({ 'x-secret-token': '[REDACTED]', 'x-request-id': 'req-1' });
    expect(post.body).toMatchObject({ method: 'POST', body: { hello: 'world' } });
    expect(bare).toEqual({ url: `${serviceUrl}/echo`, status: 200, statusText: 'OK', ok: true });
    await expect
      .poll(async () => (await hookLines()).filter((l) => l.hook === 'http:request' && l.workflowType === 'send_http_request'), { timeout: 10_000 })
      .toEqual(
        expect.arrayContaining([
          { hook: 'http:request', method: 'GET', url: `${serviceUrl}/echo?token=***`, status: 200, workflowType: 'send_http_request' },
          { hook: 'http:request', method: 'POST', url: `${serviceUrl}/echo`, status: 200, workflowType: 'send_http_request' },
        ]),
      );
    const trace = await traceOf(res);
    expect(trace.tree.children.map((n: any) => `${n.kind}:${n.name}:${n.status}`)).toEqual([
      'internal_step:sendHttpRequest:completed',
      'internal_step:sendHttpRequest:completed',
      'internal_step:sendHttpRequest:completed',
    ]);
  });

  it('http_error: bad arguments are refused up front, a non-2xx answer is a FatalError tried once', async () => {
    const caught = await run('http_error', { baseUrl: serviceUrl });
    expect(caught.body.status).toBe('completed');
    expect(caught.body.output).toEqual({
      getWithPayload: { ok: false, fatal: true, validation: true, message: 'Invalid sendHttpRequest arguments: payload: a GET request carries no payload' },
      badUrl: { ok: false, fatal: true, validation: true, message: 'Invalid sendHttpRequest arguments: url: must be an http or https URL' },
      serverError: { ok: false, fatal: true, validation: false, message: expect.any(String) },
    });
    const raised = await run('http_error', { baseUrl: serviceUrl, raise: true });
    expect(raised.body.status).toBe('failed');
    expect(JSON.stringify(raised.body.errorDetails ?? raised.body.error)).toContain(`GET ${serviceUrl}/status/404 answered 404`);
    const trace = await traceOf(raised);
    const request = trace.tree.children.find((n: any) => n.name === 'sendHttpRequest');
    expect(request).toMatchObject({ status: 'failed', attempt: 1, error: { type: 'FatalError' } });
    // One request, one attempt: the run failed at its first call.
    expect(trace.tree.children).toHaveLength(1);
    expect(received.filter((r) => r.path === '/status/404')).toHaveLength(1);
    // The 503 answer named its URL without the query secret.
    expect(caught.body.output.serverError.message).toContain(`${serviceUrl}/status/503?key=***`);
  });

  it('webhook: POSTs { workflowId, payload }, waits, and completes with what the service sent to /feedback', async () => {
    const res = await run('webhook', { url: `${serviceUrl}/hooks/answer` });
    expect(res.body).toMatchObject({ status: 'completed', output: { value: 42 } });
    expect(received).toContainEqual({ method: 'POST', path: '/hooks/answer', body: { workflowId: res.body.workflowId, payload: { question: 'the answer?' } } });
    const trace = await traceOf(res);
    expect(trace.tree.children.map((n: any) => `${n.kind}:${n.name}:${n.status}`)).toEqual([
      'internal_step:sendHttpRequest:completed',
      'webhook:resume:completed',
    ]);
    expect(trace.tree.children[1]).toMatchObject({ input: { question: 'the answer?' }, output: { value: 42, asked: { question: 'the answer?' } } });
  });

  it('evaluation: evaluators answering evaluation result classes', async () => {
    const res = await run('evaluation', { name: 'John Bigboote' });
    expect(res.body.status).toBe('completed');
    expect(res.body.output).toEqual({
      passed: true,
      complete: {
        value: true,
        confidence: 0.95,
        reasoning: 'counted the words',
        feedback: [],
        dimensions: [{ name: 'words', value: 2, confidence: 1, feedback: [], dimensions: [] }],
      },
      tone: { value: 'pass', confidence: 0.8, feedback: [{ issue: 'none found', priority: 'low' }], dimensions: [] },
      summary: { name: 'overall', value: true, confidence: 0.8, feedback: [], dimensions: [] },
      refused: 'EvaluationResultValidationError',
    });
  });

  it('get_context: Context.getActivityContext() in a step names the run that called it', async () => {
    const res = await run('get_context');
    expect(res.body.status).toBe('completed');
    const { fromStep, run: ids } = res.body.output;
    expect(fromStep).toEqual({
      ...ids,
      activityId: expect.any(String),
      activityType: 'get_context#demo_context',
      workflowType: 'get_context',
      workflowFile: 'get_context/workflow.ts',
    });
  });

  it('event_hub: Event.emit reaches on() in the hook file; Tracing events are children of the step in the trace', async () => {
    const res = await run('event_hub', { greeting: 'mark' });
    expect(res.body).toMatchObject({ status: 'completed', output: { listened: true } });
    await expect
      .poll(async () => (await hookLines()).filter((l) => l.hook === 'custom_event' && l.workflowId === res.body.workflowId), { timeout: 10_000 })
      .toEqual([{ hook: 'custom_event', payload: { hi: 'mark' }, workflowId: res.body.workflowId, activityType: 'event_hub#emit_event' }]);
    const trace = await traceOf(res);
    const event = flatten(trace.tree).find((n: any) => n.kind === 'lookup');
    expect(event).toMatchObject({ name: 'directory lookup', status: 'completed', input: { who: 'mark' }, output: { found: true } });
    expect(event.attributes).toEqual([expect.objectContaining({ type: 'llm:usage', modelId: 'model-x', tokensUsed: 1000, total: 0.002 })]);
  });

  it('temporal_client: a step signals its own run through getCurrentWorkflowHandle() and createTemporalClient()', async () => {
    const res = await run('temporal_client');
    expect(res.body.status).toBe('completed');
    expect(res.body.output).toEqual({ workflowId: res.body.workflowId, namespace: 'default', signals: { currentHandleReady: true, clientReady: true } });
    await expect
      .poll(() =>
        loggerLines()
          .filter((l) => l.runId === res.body.runId)
          .map((l) => l.msg),
      )
      .toEqual(expect.arrayContaining(['current handle signal received', 'new client signal received']));
  });

  it('disable_trace: the run writes no trace and its destinations are {}', async () => {
    const res = await run('disable_trace', { values: [1, 2, 3] });
    expect(res.body).toMatchObject({ status: 'completed', output: { result: 6 }, trace: { destinations: {} } });
    // A traced run finishing after it has its file written; the untraced one still has none.
    const traced = await run('get_context');
    await traceOf(traced);
    const folders = await readdir(path.join(dir, 'traces'));
    expect(folders.some((f) => f.includes(res.body.workflowId))).toBe(false);
  });

  it('helpers: continueAsNew, sleep, executeInParallel, TransparentFatalError and sdk/helpers in workflow code; a step with disableTrace is not in the trace', async () => {
    const first = await run('helpers', { round: 0, values: [1, 2, 3] });
    // Temporal's continueAsNew closes the first run as continued_as_new; the run route answers the chain's last run.
    const output = { round: 2, sums: [6, 12], transparent: { name: 'RangeError', message: 'out of range' }, stepName: 'sum_values' };
    expect(first.body).toMatchObject({ status: 'completed', output });
    const res = await call('GET', `/workflow/${encodeURIComponent(first.body.workflowId)}/result`);
    expect(res.body).toMatchObject({ status: 'completed', output });
    expect(res.body.runId).not.toBe(first.body.runId);
    const trace = await traceOf(res);
    expect(trace.tree).toMatchObject({ name: 'helpers', status: 'completed' });
    expect(flatten(trace.tree).filter((n: any) => n.name === 'sum_values')).toEqual([]);
  });
  it('approval: runs until its own signal; a feedback sent meanwhile is delivered and ignored', async () => {
    const workflowId = `approval-${Date.now()}`;
    const running = call('POST', '/workflow/run', { workflowName: 'approval', workflowId, timeout: 90_000 });
    const route = `/workflow/${workflowId}`;
    await expect.poll(async () => (await call('GET', `${route}/status`)).body.status, { timeout: 20_000 }).toBe('running');
    expect((await call('POST', `${route}/feedback`, { payload: { value: 1 } })).status).toBe(200);
    expect((await call('POST', `${route}/signal/approve`, { payload: { by: 'ada' } })).status).toBe(202);
    expect((await running).body).toMatchObject({ workflowId, status: 'completed', output: { approvedBy: 'ada' } });
  });
});

describe('the feedback and heartbeat routes', () => {
  it('POST /heartbeat answers 204 with no body', async () => {
    expect(await call('POST', '/heartbeat')).toEqual({ status: 204, body: null });
  });

  it('feedback: 404 for an unknown id, 400 for a payload that is not an object, 413 over the body limit (nothing signalled), 409 once closed', async () => {
    expect((await call('POST', '/workflow/no-such-workflow/feedback', { payload: {} })).body).toMatchObject({ error: 'WorkflowNotFoundError' });
    const started = await call('POST', '/workflow/start', { workflowName: 'webhook', input: { url: `${serviceUrl}/hooks/silent` } });
    expect(started.status).toBeLessThan(300);
    const { workflowId } = started.body;
    await expect
      .poll(() => received.some((r) => r.path === '/hooks/silent' && (r.body as { workflowId?: string }).workflowId === workflowId), { timeout: 20_000 })
      .toBe(true);
    const route = `/workflow/${encodeURIComponent(workflowId)}/feedback`;
    for (const payload of ['text', [1, 2], 3]) {
      const bad = await call('POST', route, { payload });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('ValidationError');
    }
    const huge = await call('POST', route, { payload: { blob: 'x'.repeat(1_100_000) } });
    expect(huge.status).toBe(413);
    expect((await call('GET', `/workflow/${encodeURIComponent(workflowId)}/status`)).body.status).toBe('running');
    const ok = await call('POST', route, { payload: { value: 7 } });
    expect(ok).toEqual({ status: 200, body: { workflowId, runId: started.body.runId } });
    await expect
      .poll(async () => (await call('GET', `/workflow/${encodeURIComponent(workflowId)}/result`)).body.output, { timeout: 20_000 })
      .toEqual({ value: 7 });
    const closed = await call('POST', route, { payload: { value: 8 } });
    expect(closed.status).toBe(409);
  });
});
