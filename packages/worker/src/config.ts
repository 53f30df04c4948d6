import { loadClientConnectConfig } from '@temporalio/envconfig';
import { DEFAULT_CATALOG } from '@skein/core';

/** How to reach the engine: Temporal's environment configuration (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TLS, TOML profiles). */
export interface EngineConnectionConfig {
  /** `host:port`; default `localhost:7233` (CONTRACT). */
  address: string;
  namespace: string;
  /** Extra native connection options from envconfig (TLS, API key, gRPC metadata). */
  connectionOptions: Record<string, unknown>;
}

/**
 * Where the worker's metrics (Temporal Core's `temporal_*` and Skein's `skein_*`) go. Off when neither
 * `SKEIN_METRICS_PORT` nor `SKEIN_METRICS_OTLP` is set.
 */
export type MetricsConfig =
  /** Prometheus text served at `http://<host>:<port>/metrics`; port 0 = a free port picked at start. */
  | { kind: 'prometheus'; host: string; port: number }
  /**
   * OTLP push to a collector: `url` from `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT`
   * (default `http://localhost:4317`); `http` when the protocol (`OTEL_EXPORTER_OTLP_METRICS_PROTOCOL`, else
   * `OTEL_EXPORTER_OTLP_PROTOCOL`) is `http/protobuf` or `http/json`.
   */
  | { kind: 'otlp'; url: string; http: boolean };

/** Worker configuration resolved from the environment (CONTRACT "Process and configuration"). */
export interface WorkerConfig {
  /** The catalog (task queue) to serve: `SKEIN_CATALOG`, default `main`. */
  catalog: string;
  engine: EngineConnectionConfig;
  /** Engine health check (`SKEIN_ENGINE_CHECK_INTERVAL_MS`, default 5 000; `SKEIN_ENGINE_CHECK_FAILURES`, default 3). */
  engineCheck: { intervalMs: number; failures: number };
  /** `SKEIN_ROLLING_DEPLOY=1` (or `true`): start next to a live worker of another catalog version (see `claimCatalog`). */
  rollingDeploy: boolean;
  /**
   * Metrics: `SKEIN_METRICS_PORT` (0–65535; 0 = a free port) serves Prometheus on `SKEIN_METRICS_HOST` (default
   * `127.0.0.1`); `SKEIN_METRICS_OTLP=1` pushes by OTLP instead; null = off (the default).
   */
  metrics: MetricsConfig | null;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

const truthy = (v: string | undefined) => /^(1|true|yes)$/i.test(v?.trim() ?? '');

/**
 * Reads the metrics settings (see {@link WorkerConfig.metrics}).
 * @throws Error naming `SKEIN_METRICS_PORT` when it is not an integer from 0 to 65535.
 */
export function loadMetricsConfig(env: NodeJS.ProcessEnv = process.env): MetricsConfig | null {
  if (truthy(env.SKEIN_METRICS_OTLP)) {
    const signal = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim();
    const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
    const protocol = (env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'grpc').trim();
    const http = protocol.startsWith('http');
    // The generic endpoint is a base URL: OTLP/HTTP appends the signal's path to it.
    const url = signal || (base ? (http ? `${base.replace(/\/+$/, '')}/v1/metrics` : base) : http ? 'http://localhost:4318/v1/metrics' : 'http://localhost:4317');
    return { kind: 'otlp', url, http };
  }
  const raw = env.SKEIN_METRICS_PORT?.trim();
  if (raw === undefined || raw === '') return null;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`SKEIN_METRICS_PORT must be an integer between 0 and 65535, got "${raw}"`);
  return { kind: 'prometheus', host: env.SKEIN_METRICS_HOST?.trim() || '127.0.0.1', port };
}

/**
 * Reads the engine connection per Temporal's env-config conventions; `TEMPORAL_ADDRESS` defaults to `localhost:7233`.
 * @throws Error when a configured TOML profile is malformed.
 */
export function loadEngineConfig(env: NodeJS.ProcessEnv = process.env): EngineConnectionConfig {
  const cfg = loadClientConnectConfig({ overrideEnvVars: env as Record<string, string> });
  const { address, ...rest } = cfg.connectionOptions as { address?: string } & Record<string, unknown>;
  return {
    address: address ?? env.TEMPORAL_ADDRESS ?? 'localhost:7233',
    namespace: cfg.namespace ?? env.TEMPORAL_NAMESPACE ?? 'default',
    connectionOptions: rest,
  };
}

/**
 * Reads the worker configuration from `env`.
 * @throws Error naming the variable when a number is malformed.
 */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return {
    catalog: env.SKEIN_CATALOG || DEFAULT_CATALOG,
    engine: loadEngineConfig(env),
    engineCheck: {
      intervalMs: positiveInt(env, 'SKEIN_ENGINE_CHECK_INTERVAL_MS', 5000),
      failures: positiveInt(env, 'SKEIN_ENGINE_CHECK_FAILURES', 3),
    },
    rollingDeploy: /^(1|true|yes)$/i.test(env.SKEIN_ROLLING_DEPLOY ?? ''),
    metrics: loadMetricsConfig(env),
  };
}
