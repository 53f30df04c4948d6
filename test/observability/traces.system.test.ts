import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createApiServer, loadApiConfig } from '@skein/api';
import { freePort } from '@skein/dev-server';
import { traceFields } from '@skein/telemetry';
import { startStack, type Stack } from '../support/stack.js';
import { startJaeger, type Jaeger, type JaegerTrace } from '../support/backends.js';
import { eventually } from '../support/poll.js';

/**
 * Distributed traces in a real Jaeger: one `POST /workflow/run` carrying a W3C `traceparent` becomes one trace
 * holding the API's HTTP span, the workflow, each activity by type and the child workflow, from two services.
 * The API and the worker run in this process, each with its own tracer provider and `service.name`.
 */
let jaeger: Jaeger;
let stack: Stack;
const saved = { ...process.env };

beforeAll(async () => {
  jaeger = await startJaeger();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = jaeger.otlpHttp;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '200';
  stack = await startStack('examples');
  await served(stack);
}, 180_000);

/** Waits until a new worker build is routed to (once the engine has seen it poll): the catalog is served. */
async function served(s: Stack): Promise<void> {
  await eventually(async () => (await s.get('/workflow/catalog')).status === 200, 20_000, 250);
}

afterAll(async () => {
  await stack?.close();
  await jaeger?.stop();
  process.env = saved;
});

const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

describe('traces', () => {
  it("continues the caller's traceparent through the API, the workflow, its activities and its child workflow", async () => {
    const traceId = hex(32);
    const callerSpan = hex(16);
    const res = await stack.post(
      '/workflow/run',
      { workflowName: 'onboard_customer', input: { name: 'ada lovelace', email: 'ada@example.com' } },
      { traceparent: `00-${traceId}-${callerSpan}-01` },
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.headers.get('traceparent')).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    const trace = await jaeger.traceHolding(traceId, [
      'POST /workflow/run',
      'StartWorkflow:onboard',
      'RunWorkflow:onboard',
      'RunActivity:onboard#normalizeEmail',
      'RunActivity:onboard#scoreLead',
      'StartChildWorkflow:welcome',
      'RunWorkflow:welcome',
    ]);
    const service = (span: JaegerTrace['spans'][number]) => trace.processes[span.processID]!.serviceName;
    const byName = (name: string) => trace.spans.find((s) => s.operationName === name)!;
    const http = byName('POST /workflow/run');
    expect(service(http)).toBe('skein-api');
    // The API's span is the caller's child.
    expect(http.references).toContainEqual(expect.objectContaining({ refType: 'CHILD_OF', spanID: callerSpan, traceID: traceId }));
    expect(http.tags).toContainEqual({ key: 'http.route', type: 'string', value: '/workflow/run' });
    expect(service(byName('RunWorkflow:onboard'))).toBe('skein-worker');
    // A workflow span names its run, and carries none of the run's data (memo, search attributes, last result).
    const workflowTags = byName('RunWorkflow:onboard').tags.map((t) => t.key);
    expect(workflowTags).toEqual(expect.arrayContaining(['workflowId', 'runId', 'workflowType', 'taskQueue']));
    expect(workflowTags.filter((k) => ['memo', 'searchAttributes', 'typedSearchAttributes', 'lastResult', 'lastFailure', 'unsafe'].includes(k))).toEqual([]);
    expect(byName('RunWorkflow:welcome').tags).toContainEqual(expect.objectContaining({ key: 'parentWorkflowId' }));
    expect(service(byName('RunActivity:onboard#normalizeEmail'))).toBe('skein-worker');
    expect(new Set(trace.spans.map(service))).toEqual(new Set(['skein-api', 'skein-worker']));
    // Every span of the run is in this one trace, and the tree hangs together: each parent is in the trace.
    const ids = new Set(trace.spans.map((s) => s.spanID));
    for (const span of trace.spans) {
      for (const ref of span.references.filter((r) => r.refType === 'CHILD_OF')) {
        if (span !== http) expect(ids.has(ref.spanID), `${span.operationName}'s parent is in the trace`).toBe(true);
      }
    }
  });

  it('starts a trace when the caller sends none, or a malformed traceparent, and returns its id', async () => {
    for (const headers of [{}, { traceparent: 'not-a-traceparent' }, { traceparent: `00-${'0'.repeat(32)}-${hex(16)}-01` }]) {
      const res = await stack.post('/workflow/run', { workflowName: 'welcome', input: { name: 'grace' } }, headers);
      expect(res.status).toBe(200);
      const header = res.headers.get('traceparent');
      expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const traceId = header!.split('-')[1]!;
      expect(traceId).not.toBe('0'.repeat(32));
      const trace = await jaeger.traceHolding(traceId, ['POST /workflow/run', 'RunWorkflow:welcome']);
      expect(trace.spans.find((s) => s.operationName === 'POST /workflow/run')!.references.filter((r) => r.refType === 'CHILD_OF')).toEqual([]);
    }
  });
});

describe('log lines', () => {
  it("carry the request span's trace_id and span_id", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const api = await createApiServer(loadApiConfig({ PORT: '0', TEMPORAL_ADDRESS: stack.address, SKEIN_CATALOG: stack.catalog }), {
      logger: pino({ level: 'info', mixin: traceFields }, sink),
    });
    try {
      const { url } = await api.listen();
      const traceId = hex(32);
      const res = await fetch(`${url}/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${hex(16)}-01` },
        body: JSON.stringify({ workflowName: 'welcome', input: { name: 'ada' } }),
      });
      expect(res.status).toBe(200);
      const spanId = res.headers.get('traceparent')!.split('-')[2];
      await expect
        .poll(() => lines.find((l) => l.msg === 'request' && l['http.route'] === 'POST /workflow/run'))
        .toMatchObject({ trace_id: traceId, span_id: spanId });
    } finally {
      await api.close();
    }
  });
});

describe('the collector down', () => {
  it('a run still completes, promptly', async () => {
    await stack.close();
    // Nothing listens there: every export fails.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${await freePort()}`;
    stack = await startStack('examples');
    await served(stack);
    const started = Date.now();
    const res = await stack.post('/workflow/run', { workflowName: 'onboard_customer', input: { name: 'alan turing', email: 'alan@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-/);
    expect(Date.now() - started).toBeLessThan(20_000);
    // The spans it could not export are counted.
    await expect
      .poll(async () => /^skein_trace_spans_dropped_total [1-9]/m.test(await (await fetch(`${stack.url}/metrics`)).text()), { timeout: 15_000 })
      .toBe(true);
  });
});
