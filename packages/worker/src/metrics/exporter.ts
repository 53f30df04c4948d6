/**
 * Turns the worker's metrics settings into Temporal Core's metrics exporter options (`Runtime.install`'s
 * `telemetryOptions.metrics`): Prometheus on a host and port, or OTLP to a collector. Durations in seconds.
 */
import { createServer } from 'node:net';
import type { MetricsExporterConfig } from '@temporalio/worker';
import type { MetricsConfig } from '../host/config.js';
import { SKEIN_HISTOGRAM_BUCKETS } from './worker-metrics.js';

/** A metrics setting with its port decided (a Prometheus port 0 replaced by a free one). */
export type ResolvedMetrics = MetricsConfig & { url: string };

/** A free TCP port on `host` (asks the OS for one, then releases it). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Decides the port of a Prometheus setting (0 → a free port on its host) and the URL the metrics are at: the
 * scrape URL (`http://host:port/metrics`) or the OTLP collector's.
 */
export async function resolveMetrics(config: MetricsConfig): Promise<ResolvedMetrics> {
  if (config.kind === 'otlp') return { ...config, url: config.url };
  const port = config.port === 0 ? await freePort(config.host) : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const shown = host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host;
  return { ...config, port, url: `http://${shown}:${port}/metrics` };
}

/** Core's exporter options for a resolved setting (Core's metrics keep their `temporal_` prefix). */
export function coreMetricsExporter(metrics: ResolvedMetrics): MetricsExporterConfig {
  if (metrics.kind === 'otlp') {
    return { otel: { url: metrics.url, http: metrics.http, useSecondsForDurations: true, histogramBucketOverrides: SKEIN_HISTOGRAM_BUCKETS } };
  }
  const host = metrics.host.includes(':') ? `[${metrics.host}]` : metrics.host;
  return { prometheus: { bindAddress: `${host}:${metrics.port}`, useSecondsForDurations: true, histogramBucketOverrides: SKEIN_HISTOGRAM_BUCKETS } };
}
