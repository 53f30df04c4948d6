import type { AddressInfo } from 'node:net';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerCheck } from '../src/middleware/auth.js';
import { requestTracing } from '../src/middleware/tracing.js';

/**
 * The request span and a caller's trace context: continued only through W3C `traceparent`/`tracestate`, and,
 * when a token is configured, only for a request that carries it; otherwise linked. Baggage never enters the
 * request's context (so nothing the API starts carries it into a workflow's history).
 */
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');
const servers: Array<{ close(): void }> = [];

/** What the handler saw in its active context: the span's ids and any baggage. */
interface Seen {
  traceId: string;
  spanId: string;
  baggage: Record<string, string> | null;
}

async function serve(token: string | null): Promise<(headers: Record<string, string>) => Promise<{ seen: Seen; traceparent: string | null }>> {
  const app = new Koa();
  app.use(requestTracing(tracer, () => '/probe', bearerCheck(token)) as Koa.Middleware);
  app.use((ctx) => {
    const span = trace.getSpan(context.active())!.spanContext();
    const baggage = propagation.getBaggage(context.active());
    ctx.body = {
      traceId: span.traceId,
      spanId: span.spanId,
      baggage: baggage ? Object.fromEntries(baggage.getAllEntries().map(([k, v]) => [k, v.value])) : null,
    };
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/probe`;
  return async (headers) => {
    const res = await fetch(url, { headers });
    return { seen: (await res.json()) as Seen, traceparent: res.headers.get('traceparent') };
  };
}

const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpan = '00f067aa0ba902b7';
const hostile = {
  traceparent: `00-${callerTrace}-${callerSpan}-01`,
  tracestate: 'vendor=opaque',
  baggage: Array.from({ length: 180 }, (_, i) => `k${i}=v${i}`).join(','),
  b3: `${'a'.repeat(32)}-${'b'.repeat(16)}-1`,
};

/** The exported server span whose span id is `spanId`. */
const exported = (spanId: string) => exporter.getFinishedSpans().find((s) => s.spanContext().spanId === spanId)!;

beforeAll(() => {
  // Its own globals, whatever an earlier file of the worker installed (OpenTelemetry refuses to replace one).
  context.disable();
  propagation.disable();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // As the tracing SDK installs them by default (OTEL_PROPAGATORS unset): trace context and baggage.
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
});

afterAll(async () => {
  for (const s of servers) s.close();
  context.disable();
  propagation.disable();
  await provider.shutdown();
});

describe('the request span and the caller’s trace context', () => {
  it('without a token: continues traceparent and tracestate; baggage and other formats are not read', async () => {
    const call = await serve(null);
    const { seen, traceparent } = await call(hostile);
    expect(seen.traceId).toBe(callerTrace);
    expect(seen.baggage).toBeNull();
    expect(traceparent).toBe(`00-${callerTrace}-${seen.spanId}-01`);
    const span = exported(seen.spanId);
    expect(span.parentSpanId).toBe(callerSpan);
    expect(span.spanContext().traceState?.get('vendor')).toBe('opaque');
    // A B3 header alone is not a trace context here.
    const b3Only = await call({ b3: hostile.b3 });
    expect(b3Only.seen.traceId).not.toBe('a'.repeat(32));
    expect(exported(b3Only.seen.spanId).parentSpanId).toBeUndefined();
  });

  it('with a token: an unauthenticated request starts its own trace and only links to the caller’s', async () => {
    const call = await serve('s3cret');
    const { seen } = await call(hostile);
    expect(seen.traceId).not.toBe(callerTrace);
    const span = exported(seen.spanId);
    expect(span.parentSpanId).toBeUndefined();
    expect(span.spanContext().traceState).toBeUndefined();
    expect(span.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([[callerTrace, callerSpan]]);
    const wrong = await call({ ...hostile, authorization: 'Bearer nope' });
    expect(wrong.seen.traceId).not.toBe(callerTrace);
  });

  it('with a token: an authenticated request continues the caller’s trace, still without baggage', async () => {
    const call = await serve('s3cret');
    const { seen } = await call({ ...hostile, authorization: 'Bearer s3cret' });
    expect(seen.traceId).toBe(callerTrace);
    expect(seen.baggage).toBeNull();
    const span = exported(seen.spanId);
    expect(span.parentSpanId).toBe(callerSpan);
    expect(span.links).toEqual([]);
  });

  it('health probes and metrics scrapes make no span', async () => {
    const app = new Koa();
    app.use(requestTracing(tracer, (path) => path, bearerCheck(null)) as Koa.Middleware);
    app.use((ctx) => {
      ctx.body = { traced: trace.getSpan(context.active()) !== undefined };
    });
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const before = exporter.getFinishedSpans().length;
    for (const path of ['/health', '/ready', '/metrics']) expect(await (await fetch(`${base}${path}`)).json()).toEqual({ traced: false });
    expect(exporter.getFinishedSpans().length).toBe(before);
    expect(await (await fetch(`${base}/workflow/catalog`)).json()).toEqual({ traced: true });
  });

  it('a malformed traceparent is ignored: a new trace, no link', async () => {
    const call = await serve('s3cret');
    const { seen } = await call({ traceparent: 'not-a-traceparent' });
    const span = exported(seen.spanId);
    expect(span.parentSpanId).toBeUndefined();
    expect(span.links).toEqual([]);
  });
});
