import { describe, expect, it } from 'vitest';
import { loadMetricsConfig } from '../src/host/config.js';
import { coreMetricsExporter, resolveMetrics } from '../src/metrics/exporter.js';

describe('loadMetricsConfig', () => {
  it('is off unless a port or OTLP is asked for', () => {
    expect(loadMetricsConfig({})).toBeNull();
    expect(loadMetricsConfig({ SKEIN_METRICS_PORT: '' })).toBeNull();
  });

  it('serves Prometheus on the port, on loopback unless told otherwise', () => {
    expect(loadMetricsConfig({ SKEIN_METRICS_PORT: '9464' })).toEqual({ kind: 'prometheus', host: '127.0.0.1', port: 9464 });
    expect(loadMetricsConfig({ SKEIN_METRICS_PORT: '0', SKEIN_METRICS_HOST: '0.0.0.0' })).toEqual({ kind: 'prometheus', host: '0.0.0.0', port: 0 });
  });

  it('refuses a port that is not one, naming the variable', () => {
    for (const bad of ['-1', '65536', '12.5', 'abc'])
      expect(() => loadMetricsConfig({ SKEIN_METRICS_PORT: bad })).toThrow(/SKEIN_METRICS_PORT must be a port number \(0 to 65535\)/);
  });

  it('pushes by OTLP to the signal endpoint, else the generic one (with the signal path for HTTP), else the default', () => {
    expect(loadMetricsConfig({ SKEIN_METRICS_OTLP: '1' })).toEqual({ kind: 'otlp', url: 'http://localhost:4317', http: false });
    expect(loadMetricsConfig({ SKEIN_METRICS_OTLP: 'true', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toEqual({
      kind: 'otlp',
      url: 'http://localhost:4318/v1/metrics',
      http: true,
    });
    expect(loadMetricsConfig({ SKEIN_METRICS_OTLP: '1', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toEqual(
      { kind: 'otlp', url: 'http://c:4318/v1/metrics', http: true },
    );
    expect(loadMetricsConfig({ SKEIN_METRICS_OTLP: '1', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317' })).toEqual({
      kind: 'otlp',
      url: 'http://c:4317',
      http: false,
    });
    expect(loadMetricsConfig({ SKEIN_METRICS_OTLP: '1', SKEIN_METRICS_PORT: '9464', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://m/x' })).toEqual({
      kind: 'otlp',
      url: 'http://m/x',
      http: false,
    });
  });
});

describe('resolveMetrics and coreMetricsExporter', () => {
  it('picks a free port for port 0 and gives Core a bind address with durations in seconds', async () => {
    const resolved = await resolveMetrics({ kind: 'prometheus', host: '127.0.0.1', port: 0 });
    expect(resolved.kind === 'prometheus' && resolved.port).toBeGreaterThan(0);
    expect(resolved.url).toBe(`http://127.0.0.1:${(resolved as { port: number }).port}/metrics`);
    expect(coreMetricsExporter(resolved)).toMatchObject({
      prometheus: { bindAddress: `127.0.0.1:${(resolved as { port: number }).port}`, useSecondsForDurations: true },
    });
    const otlp = await resolveMetrics({ kind: 'otlp', url: 'http://c:4318/v1/metrics', http: true });
    expect(coreMetricsExporter(otlp)).toMatchObject({ otel: { url: 'http://c:4318/v1/metrics', http: true, useSecondsForDurations: true } });
  });
});
