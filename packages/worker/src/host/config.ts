import path from 'node:path';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { ConfigError, loadSettings, type LogLevel, type Settings } from '@skein/settings';
import { msToNumber } from '@temporalio/common/lib/time.js';
import { metricsSettings, workerSettings } from './settings.js';

export { workerSettings } from './settings.js';

/** How to reach the engine: Temporal's environment configuration (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TLS, TOML profiles). */
export interface EngineConnectionConfig {
  /** `host:port`; default `localhost:7233`. */
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

/** Worker configuration resolved from the environment ({@link workerSettings}). */
export interface WorkerConfig {
  /** The catalog (task queue) to serve: `SKEIN_CATALOG`, default `main`. */
  catalog: string;
  engine: EngineConnectionConfig;
  /** Engine health check (`SKEIN_ENGINE_CHECK_INTERVAL_MS`, default 5 000; `SKEIN_ENGINE_CHECK_FAILURES`, default 3). */
  engineCheck: { intervalMs: number; failures: number };
  /** Worker Versioning: which deployment version this worker polls as, and whether it makes itself current. */
  deployment: DeploymentConfig;
  /** `SKEIN_TRACE_DIR` as set (a folder, or `off`); undefined = `<project>/.skein/traces`. */
  traceDir: string | undefined;
  trace: TraceConfig;
  /** `SKEIN_BUNDLE_CACHE` as set (a folder, or `off`); undefined = `<project>/.skein/bundles`. */
  bundleCache: string | undefined;
  /** `SKEIN_WEBPACK_CACHE`: whether a bundle cache miss uses and writes webpack's persistent cache (default true). */
  webpackCache: boolean;
  /** `SKEIN_STARTUP_CACHE` as set (a folder, or `off`); undefined = `<project>/.skein/startup`. */
  startupCache: string | undefined;
  /** `SKEIN_LOG_LEVEL`, default `info`. */
  logLevel: LogLevel;
  /** `SKEIN_SHUTDOWN_GRACE_MS`: how long in-flight activities may run after SIGTERM/SIGINT before they are cancelled, ms (default 10 000). */
  shutdownGraceMs: number;
  /**
   * Metrics: `SKEIN_METRICS_PORT` (0–65535; 0 = a free port) serves Prometheus on `SKEIN_METRICS_HOST` (default
   * `127.0.0.1`); `SKEIN_METRICS_OTLP=1` pushes by OTLP instead; null = off (the default).
   */
  metrics: MetricsConfig | null;
}

/**
 * Reads the metrics settings (see {@link WorkerConfig.metrics}); the OTLP endpoint and protocol are OpenTelemetry's
 * own variables.
 * @throws ConfigError naming the variable when `SKEIN_METRICS_PORT` is not a port (0–65535) or a flag is malformed.
 */
export function loadMetricsConfig(env: NodeJS.ProcessEnv = process.env): MetricsConfig | null {
  const s = loadSettings(metricsSettings, env);
  if (s.SKEIN_METRICS_OTLP) {
    const signal = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim();
    const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
    const protocol = (env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'grpc').trim();
    const http = protocol.startsWith('http');
    // The generic endpoint is a base URL: OTLP/HTTP appends the signal's path to it.
    const url =
      signal || (base ? (http ? `${base.replace(/\/+$/, '')}/v1/metrics` : base) : http ? 'http://localhost:4318/v1/metrics' : 'http://localhost:4317');
    return { kind: 'otlp', url, http };
  }
  if (s.SKEIN_METRICS_PORT === undefined) return null;
  const port = Number(s.SKEIN_METRICS_PORT);
  if (port > 65535) throw new ConfigError(`SKEIN_METRICS_PORT must be a port number (0 to 65535), got ${JSON.stringify(env.SKEIN_METRICS_PORT)}`);
  return { kind: 'prometheus', host: s.SKEIN_METRICS_HOST ?? '127.0.0.1', port };
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

/** Where the worker keeps traces. */
export interface TraceConfig {
  /** `SKEIN_TRACE_DIR`: the local trace folder; `off` = no local traces; undefined = `<project>/.skein/traces`. */
  dir: string | undefined;
  /**
   * The S3 destination, on when `SKEIN_TRACE_S3_BUCKET` is set; `SKEIN_TRACE_S3_PREFIX` (default empty) prefixes
   * every key. Region, endpoint and credentials come from the AWS SDK's own settings.
   */
  s3: { bucket: string; prefix: string } | null;
  /** `SKEIN_TRACE_SPOOL_DIR`: where traces wait for their upload; undefined = `<project>/.skein/trace-spool`. */
  spoolDir: string | undefined;
  /** `SKEIN_TRACE_RETENTION`: local trace files older than this are deleted, ms (default 7 days; `7d`, `12h` or ms). */
  retentionMs: number;
}

/** Default of `SKEIN_TRACE_RETENTION`: 7 days, in ms. */
export const DEFAULT_TRACE_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * The trace settings of `env` (part of {@link loadWorkerConfig}).
 * @throws ConfigError naming the variable when one is malformed.
 */
export function loadTraceConfig(env: NodeJS.ProcessEnv = process.env): TraceConfig {
  return traceConfig(loadSettings(workerSettings, env));
}

function traceConfig(s: Settings<typeof workerSettings>): TraceConfig {
  return {
    dir: s.SKEIN_TRACE_DIR,
    s3: s.SKEIN_TRACE_S3_BUCKET ? { bucket: s.SKEIN_TRACE_S3_BUCKET, prefix: s.SKEIN_TRACE_S3_PREFIX ?? '' } : null,
    spoolDir: s.SKEIN_TRACE_SPOOL_DIR,
    retentionMs: s.SKEIN_TRACE_RETENTION ? msToNumber(s.SKEIN_TRACE_RETENTION as never) : DEFAULT_TRACE_RETENTION_MS,
  };
}

/**
 * Reads the worker configuration from `env`.
 * @throws ConfigError (one line naming the variable) when a setting is malformed or a renamed one is set; Error
 *   when a configured Temporal TOML profile is malformed.
 */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const s = loadSettings(workerSettings, env);
  return {
    catalog: s.SKEIN_CATALOG,
    engine: loadEngineConfig(env),
    engineCheck: { intervalMs: s.SKEIN_ENGINE_CHECK_INTERVAL_MS, failures: s.SKEIN_ENGINE_CHECK_FAILURES },
    deployment: deploymentOf(s.SKEIN_CATALOG, s),
    traceDir: s.SKEIN_TRACE_DIR,
    trace: traceConfig(s),
    bundleCache: s.SKEIN_BUNDLE_CACHE,
    webpackCache: s.SKEIN_WEBPACK_CACHE === 'on',
    startupCache: s.SKEIN_STARTUP_CACHE,
    logLevel: s.SKEIN_LOG_LEVEL,
    shutdownGraceMs: s.SKEIN_SHUTDOWN_GRACE_MS,
    metrics: loadMetricsConfig(env),
  };
}

/**
 * The local trace directory of a worker serving the project at `root`: `option` when given (`false` or `off`:
 * none), else `configured` (`SKEIN_TRACE_DIR` as `loadWorkerConfig` reads it; `off`: none), else
 * `<root>/.skein/traces`. Absolute, or null for no local traces.
 */
export function traceDirOf(root: string, option: string | false | undefined, configured: string | undefined): string | null {
  const value = option ?? configured ?? path.join(root, '.skein', 'traces');
  return value === false || value === 'off' ? null : path.resolve(value);
}

/**
 * The workflow bundle cache directory of a worker serving the project at `root`: `option` when given (`false`:
 * none), else `configured` (`SKEIN_BUNDLE_CACHE` as `loadWorkerConfig` reads it: a directory, or `off`), else
 * `<root>/.skein/bundles`.
 */
export function bundleCacheDirOf(root: string, option: string | false | undefined, configured: string | undefined): string | false {
  if (option !== undefined) return option;
  return configured === 'off' ? false : configured ? path.resolve(configured) : path.join(root, '.skein', 'bundles');
}

/** Worker Versioning settings (see docs/deploying.md). */
export interface DeploymentConfig {
  /** `SKEIN_DEPLOYMENT_NAME`: the Temporal worker deployment; default the catalog's name. */
  name: string;
  /** `SKEIN_BUILD_ID`: overrides the build ID computed from the project's code (`computeBuildId`); undefined when unset. */
  buildId: string | undefined;
  /**
   * `SKEIN_PROMOTE`: `auto` (default) makes a new build the current version once its worker is ready; `manual`
   * leaves that to an operator (`skein deploy promote`) or a CD system.
   */
  promote: 'auto' | 'manual';
  /** `SKEIN_PROJECT`: the project identity recorded with the build, instead of package.json's `name`; undefined when unset. */
  project: string | undefined;
}

function deploymentOf(
  catalog: string,
  s: { SKEIN_DEPLOYMENT_NAME: string | undefined; SKEIN_BUILD_ID: string | undefined; SKEIN_PROMOTE: 'auto' | 'manual'; SKEIN_PROJECT: string | undefined },
): DeploymentConfig {
  return { name: s.SKEIN_DEPLOYMENT_NAME ?? catalog, buildId: s.SKEIN_BUILD_ID, promote: s.SKEIN_PROMOTE, project: s.SKEIN_PROJECT };
}

/**
 * Reads the Worker Versioning settings for `catalog` (a catalog other than `SKEIN_CATALOG`, given to `startWorker`,
 * names the default deployment).
 * @throws ConfigError (one line naming the variable) when `SKEIN_PROMOTE`, `SKEIN_DEPLOYMENT_NAME`, `SKEIN_BUILD_ID` or `SKEIN_PROJECT` is malformed.
 */
export function loadDeploymentConfig(catalog: string, env: NodeJS.ProcessEnv = process.env): DeploymentConfig {
  const { SKEIN_DEPLOYMENT_NAME, SKEIN_BUILD_ID, SKEIN_PROMOTE, SKEIN_PROJECT } = workerSettings;
  return deploymentOf(catalog, loadSettings({ SKEIN_DEPLOYMENT_NAME, SKEIN_BUILD_ID, SKEIN_PROMOTE, SKEIN_PROJECT }, env));
}
