import { hostname } from 'node:os';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { startTracing, traceFields, tracingEnabled } from '../src/index.js';

describe('tracingEnabled', () => {
  it('is on only with an OTLP endpoint, and off when the SDK is disabled or the exporter is none', () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_SERVICE_NAME: 'x' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_SDK_DISABLED: 'TRUE' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_SDK_DISABLED: 'false' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });
});

describe('startTracing', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  // startTracing installs OpenTelemetry's global tracer provider, context manager and propagator, once per process:
  // removed again so that the files after this one in the worker start without them.
  afterAll(async () => {
    const { context, propagation, trace } = await import('@opentelemetry/api');
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('starts nothing when off', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', undefined);
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', undefined);
    expect(await startTracing({ defaultServiceName: 'skein-test' })).toBeUndefined();
    expect(traceFields()).toEqual({});
  });

  it('names the service by OTEL_SERVICE_NAME, else the default; counts the spans it could not export and stops within its bound', async () => {
    // Nothing listens on port 9 (discard) on loopback: every export fails at once.
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://127.0.0.1:9');
    vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '10');
    vi.stubEnv('OTEL_BSP_MAX_QUEUE_SIZE', '5');
    vi.stubEnv('OTEL_SERVICE_NAME', 'mine');
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'host.name=from-env');
    const named = await startTracing({ defaultServiceName: 'skein-test', serviceVersion: '9.9.9' });
    expect(named!.resource.attributes['service.name']).toBe('mine');
    // Which process made a span: the worker identity Temporal uses, the host, the pid and the version; the
    // environment's attributes win.
    expect(named!.resource.attributes).toMatchObject({
      'service.instance.id': `${process.pid}@${hostname()}`,
      'process.pid': process.pid,
      'service.version': '9.9.9',
      'host.name': 'from-env',
    });
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', undefined);
    await named!.shutdown(100);
    vi.stubEnv('OTEL_SERVICE_NAME', undefined);
    const tracing = (await startTracing({ defaultServiceName: 'skein-test' }))!;
    expect(tracing.resource.attributes['service.name']).toBe('skein-test');
    // Every export fails: each span is dropped and counted, none is held by the caller.
    for (let i = 0; i < 8; i++) tracing.tracer.startSpan(`s${i}`).end();
    await expect.poll(() => tracing.dropped(), { timeout: 10_000 }).toBe(8);
    const span = tracing.tracer.startSpan('active');
    const { context, trace } = await import('@opentelemetry/api');
    context.with(trace.setSpan(context.active(), span), () => {
      expect(traceFields()).toEqual({ trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
    });
    span.end();
    const started = Date.now();
    await tracing.shutdown(2_000);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
