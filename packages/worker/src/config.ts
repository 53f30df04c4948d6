import { loadClientConnectConfig } from '@temporalio/envconfig';
import { msToNumber } from '@temporalio/common/lib/time.js';
import { DEFAULT_CATALOG } from '@skein/core';

/** How to reach the engine: Temporal's environment configuration (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TLS, TOML profiles). */
export interface EngineConnectionConfig {
  /** `host:port`; default `localhost:7233` (CONTRACT). */
  address: string;
  namespace: string;
  /** Extra native connection options from envconfig (TLS, API key, gRPC metadata). */
  connectionOptions: Record<string, unknown>;
}

/** Worker configuration resolved from the environment (CONTRACT "Process and configuration"). */
export interface WorkerConfig {
  /** The catalog (task queue) to serve: `SKEIN_CATALOG`, default `main`. */
  catalog: string;
  engine: EngineConnectionConfig;
  /** Engine health check (`SKEIN_ENGINE_CHECK_INTERVAL_MS`, default 5 000; `SKEIN_ENGINE_CHECK_FAILURES`, default 3). */
  engineCheck: { intervalMs: number; failures: number };
  /** `SKEIN_ROLLING_DEPLOY=1` (or `true`): start next to a live worker of another catalog version (see `claimCatalog`). */
  rollingDeploy: boolean;
  trace: TraceConfig;
}

/** Where the worker keeps traces. */
export interface TraceConfig {
  /** `SKEIN_TRACE_DIR`: the local trace folder; `off` = no local traces; undefined = `<project>/.skein/traces`. */
  dir: string | 'off' | undefined;
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

function duration(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  let n: number | undefined;
  try {
    n = /^\d+$/.test(raw) ? Number(raw) : msToNumber(raw as never);
  } catch {
    n = undefined;
  }
  if (n === undefined || !Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a duration such as "7d", "12h" or a number of ms, got "${raw}"`);
  return n;
}

/**
 * Reads the trace settings from `env`.
 * @throws Error naming the variable when `SKEIN_TRACE_RETENTION` is malformed.
 */
export function loadTraceConfig(env: NodeJS.ProcessEnv = process.env): TraceConfig {
  const bucket = env.SKEIN_TRACE_S3_BUCKET?.trim();
  return {
    dir: env.SKEIN_TRACE_DIR?.trim() || undefined,
    s3: bucket ? { bucket, prefix: env.SKEIN_TRACE_S3_PREFIX?.trim() ?? '' } : null,
    spoolDir: env.SKEIN_TRACE_SPOOL_DIR?.trim() || undefined,
    retentionMs: duration(env, 'SKEIN_TRACE_RETENTION', DEFAULT_TRACE_RETENTION_MS),
  };
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
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
    trace: loadTraceConfig(env),
  };
}
