import path from 'node:path';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { ConnectionOptions } from '@temporalio/client';

/** Everything `createApiServer` needs, read once from the environment by {@link loadApiConfig}. */
export interface ApiConfig {
  /** Listen port (`PORT`, default 3001; 0 = any free port). */
  port: number;
  /** Listen address (`HOST`, default `127.0.0.1`). */
  host: string;
  /** Default catalog (task queue) when a request names none (`SKEIN_CATALOG`, default `main`). */
  defaultCatalog: string;
  /** Default wait of `POST /workflow/run` in ms (`SKEIN_RUN_TIMEOUT_MS`, default 30 000). */
  runTimeoutMs: number;
  /** Server maximum of the history long-poll in ms (`SKEIN_HISTORY_MAX_WAIT_MS`, default 15 000). */
  historyMaxWaitMs: number;
  /** Engine health check period in ms (`SKEIN_READY_INTERVAL_MS`, default 5 000). */
  readyIntervalMs: number;
  /** Consecutive failed health checks after which `onFatal` fires (`SKEIN_READY_FAILURES`, default 3). */
  readyFailures: number;
  /** Keep-alive comment period of history streams in ms (15 000 per CONTRACT). */
  sseKeepAliveMs: number;
  /** How long `close()` waits for in-flight requests, in ms (10 000 per the brief). */
  shutdownGraceMs: number;
  /**
   * Extra allowed `Origin`s (`SKEIN_CORS_ORIGINS`, comma-separated, e.g. `https://app.example.com`; `*` allows
   * any). Loopback origins (`http://localhost:<any port>`, `127.0.0.1`, `[::1]`) are always allowed.
   */
  corsOrigins: string[];
  /**
   * Extra allowed `Host` names (`SKEIN_ALLOWED_HOSTS`, comma-separated host names without port; `*` allows any).
   * Loopback names are always allowed; guards against DNS rebinding.
   */
  allowedHosts: string[];
  /** Bearer token every request but `/health` and `/ready` must carry (`SKEIN_API_TOKEN`); null = no auth. */
  apiToken: string | null;
  /**
   * Deadline of one engine call in ms (`SKEIN_ENGINE_TIMEOUT_MS`, default 10 000; a loaded engine is waited for up
   * to it). An unreachable engine fails sooner: its retries stop after 2 s (`temporal/deadline.ts`).
   */
  engineTimeoutMs: number;
  /** How long a query or update may wait for a worker, in ms (`SKEIN_HANDLER_TIMEOUT_MS`, default 10 000) → 504 after. */
  handlerTimeoutMs: number;
  /** How long a catalog document and its poller liveness are cached, in ms (`SKEIN_CATALOG_CACHE_MS`, default 2 000). */
  catalogCacheMs: number;
  /**
   * A folder trace-log reads local trace files from besides those the catalog's workers advertise
   * (`SKEIN_TRACE_DIR`); null (default) = only the advertised folders.
   */
  traceDir: string | null;
  /**
   * The S3 trace destination trace-log reads (`SKEIN_TRACE_S3_BUCKET`, `SKEIN_TRACE_S3_PREFIX`); region, endpoint
   * and credentials come from the AWS SDK's own settings. null = remote traces are not read.
   */
  traceS3: { bucket: string; prefix: string } | null;
  /** Temporal connection, from `@temporalio/envconfig` (`TEMPORAL_ADDRESS`, `TEMPORAL_API_KEY`, TLS, ...). */
  temporal: { connection: ConnectionOptions; namespace: string };
}

/** Raised by {@link loadApiConfig} for a malformed environment variable; the message is one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function list(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return n;
}

/**
 * Reads the API configuration from environment variables (CONTRACT "Process and configuration").
 * @throws ConfigError when a numeric variable is not an integer in range.
 */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const temporal = loadClientConnectConfig({ overrideEnvVars: env as Record<string, string> });
  const opts = temporal.connectionOptions;
  const connection: ConnectionOptions = {
    address: opts.address ?? 'localhost:7233',
    ...(opts.tls !== undefined ? { tls: opts.tls as ConnectionOptions['tls'] } : {}),
    ...(opts.apiKey !== undefined ? { apiKey: opts.apiKey as string } : {}),
    ...(opts.metadata !== undefined ? { metadata: opts.metadata as Record<string, string> } : {}),
  };
  return {
    port: int(env, 'PORT', 3001, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    defaultCatalog: env.SKEIN_CATALOG?.trim() || 'main',
    runTimeoutMs: int(env, 'SKEIN_RUN_TIMEOUT_MS', 30_000, 250, 3_600_000),
    historyMaxWaitMs: int(env, 'SKEIN_HISTORY_MAX_WAIT_MS', 15_000, 1),
    readyIntervalMs: int(env, 'SKEIN_READY_INTERVAL_MS', 5_000, 10),
    readyFailures: int(env, 'SKEIN_READY_FAILURES', 3, 1),
    corsOrigins: list(env, 'SKEIN_CORS_ORIGINS').map((o) => (o === '*' ? o : o.replace(/\/+$/, '').toLowerCase())),
    allowedHosts: list(env, 'SKEIN_ALLOWED_HOSTS').map((h) => h.toLowerCase()),
    apiToken: env.SKEIN_API_TOKEN?.trim() || null,
    engineTimeoutMs: int(env, 'SKEIN_ENGINE_TIMEOUT_MS', 10_000, 100, 600_000),
    handlerTimeoutMs: int(env, 'SKEIN_HANDLER_TIMEOUT_MS', 10_000, 100, 600_000),
    catalogCacheMs: int(env, 'SKEIN_CATALOG_CACHE_MS', 2_000, 0, 60_000),
    traceDir: env.SKEIN_TRACE_DIR?.trim() ? path.resolve(env.SKEIN_TRACE_DIR.trim()) : null,
    traceS3: env.SKEIN_TRACE_S3_BUCKET?.trim() ? { bucket: env.SKEIN_TRACE_S3_BUCKET.trim(), prefix: env.SKEIN_TRACE_S3_PREFIX?.trim() ?? '' } : null,
    sseKeepAliveMs: 15_000,
    shutdownGraceMs: 10_000,
    temporal: { connection, namespace: temporal.namespace ?? 'default' },
  };
}
