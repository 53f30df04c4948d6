import path from 'node:path';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { ConnectionOptions } from '@temporalio/client';
import {
  catalogSetting,
  engineCheckSettings,
  flagSetting,
  intSetting,
  listSetting,
  loadSettings,
  logLevelSetting,
  patternSetting,
  textSetting,
  type LogLevel,
} from '@skein/settings';

export { ConfigError } from '@skein/settings';

/**
 * Every setting the API reads, each with its default, parsing and documentation (the settings page is generated
 * from it). The engine connection (`TEMPORAL_*`) is read by Temporal's own env-config.
 */
export const apiSettings = {
  PORT: intSetting(3001, { min: 0, max: 65535 }, { description: 'listen port of the API (`0`: any free port)' }),
  HOST: textSetting({ default: '127.0.0.1', description: 'listen address of the API; always an allowed `Host`' }),
  SKEIN_CATALOG: catalogSetting,
  SKEIN_RUN_TIMEOUT_MS: intSetting(30_000, { min: 250, max: 3_600_000 }, { description: 'default wait of `POST /workflow/run`, in ms' }),
  SKEIN_HISTORY_MAX_WAIT_MS: intSetting(15_000, { min: 1 }, { description: 'longest wait of a history long-poll, in ms; a request asking more is clamped' }),
  SKEIN_HISTORY_TOKEN_KEY: patternSetting(/^[\x21-\x7e]{32,512}$/, '32 to 512 printable characters without spaces', {
    description:
      'secret that signs history `pageToken`s; give every API process behind one address the same key so that each accepts the tokens of the others (unset: a random key per process, and a token is good only on the process that issued it, until it restarts)',
  }),
  ...engineCheckSettings,
  SKEIN_ENGINE_TIMEOUT_MS: intSetting(
    10_000,
    { min: 100, max: 600_000 },
    {
      description: 'deadline of one engine call, in ms (an unreachable engine fails within about 2 s regardless)',
    },
  ),
  SKEIN_HANDLER_TIMEOUT_MS: intSetting(
    10_000,
    { min: 100, max: 600_000 },
    {
      description: 'how long a query or update waits for a worker, in ms, before 504 `WorkflowTaskTimeoutError`',
    },
  ),
  SKEIN_CATALOG_CACHE_MS: intSetting(
    2_000,
    { min: 0, max: 60_000 },
    { description: "how long a catalog's live workers and its current build's liveness lease are cached, in ms" },
  ),
  SKEIN_CORS_ORIGINS: listSetting({
    description: 'extra allowed `Origin`s, comma-separated (`https://app.example.com`; `*`: any); loopback origins are always allowed',
  }),
  SKEIN_ALLOWED_HOSTS: listSetting({
    description: 'extra allowed `Host` names, comma-separated, without port (`skein.internal`; `*`: any); loopback names are always allowed',
  }),
  SKEIN_API_TOKEN: textSetting({
    description: 'when set, every route but `/health` and `/ready` needs `Authorization: Bearer <token>` (401 otherwise)',
  }),
  SKEIN_TRACE_DIR: textSetting({
    description:
      "a folder `trace-log` reads trace files from besides those the live workers of the catalog's current build, and of the run's own build, advertise (unset: only those)",
  }),
  SKEIN_TRACE_S3_BUCKET: textSetting({
    description: 'the S3 bucket `trace-log` reads remote traces from, with the AWS SDK settings (unset: remote traces are not read)',
  }),
  SKEIN_TRACE_S3_PREFIX: textSetting({ description: 'key prefix of the trace objects (unset: none)' }),
  SKEIN_LOG_LEVEL: logLevelSetting,
  SKEIN_METRICS_PUBLIC: flagSetting({
    description: '`GET /metrics` (Prometheus, always served) skips the `Host` allow-list and the token, for a scraper that reaches the API by another name',
  }),
};

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
  /**
   * Key that signs history page tokens (`SKEIN_HISTORY_TOKEN_KEY`, 32-512 printable characters); null = a random
   * key per API process. Processes sharing one key accept each other's tokens (a load-balanced deployment).
   */
  historyTokenKey: string | null;
  /**
   * Engine health check: period in ms (`SKEIN_ENGINE_CHECK_INTERVAL_MS`, default 5 000) and consecutive failed
   * checks after which `onFatal` fires (`SKEIN_ENGINE_CHECK_FAILURES`, default 3).
   */
  engineCheck: { intervalMs: number; failures: number };
  /** Keep-alive comment period of history streams, in ms (15 000). */
  sseKeepAliveMs: number;
  /** How long `close()` waits for in-flight requests, in ms (10 000). */
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
   * A folder trace-log reads local trace files from besides the one the live workers of the catalog's current
   * build advertise (`SKEIN_TRACE_DIR`); null (default) = only the advertised folder.
   */
  traceDir: string | null;
  /**
   * The S3 trace destination trace-log reads (`SKEIN_TRACE_S3_BUCKET`, `SKEIN_TRACE_S3_PREFIX`); region, endpoint
   * and credentials come from the AWS SDK's own settings. null = remote traces are not read.
   */
  traceS3: { bucket: string; prefix: string } | null;
  /** `SKEIN_LOG_LEVEL`, default `info`. */
  logLevel: LogLevel;
  /**
   * `GET /metrics` skips the `Host` allow-list and the bearer token (`SKEIN_METRICS_PUBLIC`), for a scraper that
   * reaches the API by another name; default false (the same rules as every other route).
   */
  metricsPublic: boolean;
  /** Temporal connection, from `@temporalio/envconfig` (`TEMPORAL_ADDRESS`, `TEMPORAL_API_KEY`, TLS, ...). */
  temporal: { connection: ConnectionOptions; namespace: string };
}

/**
 * Reads the API configuration from environment variables ({@link apiSettings}).
 * @throws ConfigError (one line naming the variable) when a setting is malformed or a renamed one is set.
 */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const s = loadSettings(apiSettings, env);
  const temporal = loadClientConnectConfig({ overrideEnvVars: env as Record<string, string> });
  const opts = temporal.connectionOptions;
  const connection: ConnectionOptions = {
    address: opts.address ?? 'localhost:7233',
    ...(opts.tls !== undefined ? { tls: opts.tls } : {}),
    ...(opts.apiKey !== undefined ? { apiKey: opts.apiKey } : {}),
    ...(opts.metadata !== undefined ? { metadata: opts.metadata } : {}),
  };
  return {
    port: s.PORT,
    host: s.HOST ?? '127.0.0.1',
    defaultCatalog: s.SKEIN_CATALOG,
    runTimeoutMs: s.SKEIN_RUN_TIMEOUT_MS,
    historyMaxWaitMs: s.SKEIN_HISTORY_MAX_WAIT_MS,
    historyTokenKey: s.SKEIN_HISTORY_TOKEN_KEY ?? null,
    engineCheck: { intervalMs: s.SKEIN_ENGINE_CHECK_INTERVAL_MS, failures: s.SKEIN_ENGINE_CHECK_FAILURES },
    corsOrigins: s.SKEIN_CORS_ORIGINS.map((o) => (o === '*' ? o : o.replace(/\/+$/, '').toLowerCase())),
    allowedHosts: s.SKEIN_ALLOWED_HOSTS.map((h) => h.toLowerCase()),
    apiToken: s.SKEIN_API_TOKEN ?? null,
    engineTimeoutMs: s.SKEIN_ENGINE_TIMEOUT_MS,
    handlerTimeoutMs: s.SKEIN_HANDLER_TIMEOUT_MS,
    catalogCacheMs: s.SKEIN_CATALOG_CACHE_MS,
    traceDir: s.SKEIN_TRACE_DIR ? path.resolve(s.SKEIN_TRACE_DIR) : null,
    traceS3: s.SKEIN_TRACE_S3_BUCKET ? { bucket: s.SKEIN_TRACE_S3_BUCKET, prefix: s.SKEIN_TRACE_S3_PREFIX ?? '' } : null,
    logLevel: s.SKEIN_LOG_LEVEL,
    metricsPublic: s.SKEIN_METRICS_PUBLIC,
    sseKeepAliveMs: 15_000,
    shutdownGraceMs: 10_000,
    temporal: { connection, namespace: temporal.namespace ?? 'default' },
  };
}
