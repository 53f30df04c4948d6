import { loadClientConnectConfig } from '@temporalio/envconfig';
import { loadSettings, type LogLevel } from '@skein/runtime';
import { workerSettings } from './settings.js';

export { workerSettings } from './settings.js';

/** How to reach the engine: Temporal's environment configuration (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TLS, TOML profiles). */
export interface EngineConnectionConfig {
  /** `host:port`; default `localhost:7233`. */
  address: string;
  namespace: string;
  /** Extra native connection options from envconfig (TLS, API key, gRPC metadata). */
  connectionOptions: Record<string, unknown>;
}

/** Worker configuration resolved from the environment ({@link workerSettings}). */
export interface WorkerConfig {
  /** The catalog (task queue) to serve: `SKEIN_CATALOG`, default `main`. */
  catalog: string;
  engine: EngineConnectionConfig;
  /** Engine health check (`SKEIN_ENGINE_CHECK_INTERVAL_MS`, default 5 000; `SKEIN_ENGINE_CHECK_FAILURES`, default 3). */
  engineCheck: { intervalMs: number; failures: number };
  /** `SKEIN_ROLLING_DEPLOY=1` (or `true`): start next to a live worker of another catalog version (see `claimCatalog`). */
  rollingDeploy: boolean;
  /** `SKEIN_TRACE_DIR` as set (a folder, or `off`); undefined = `<project>/.skein/traces`. */
  traceDir: string | undefined;
  /** `SKEIN_BUNDLE_CACHE` as set (a folder, or `off`); undefined = `<project>/.skein/bundles`. */
  bundleCache: string | undefined;
  /** `SKEIN_STARTUP_CACHE` as set (a folder, or `off`); undefined = `<project>/.skein/startup`. */
  startupCache: string | undefined;
  /** `SKEIN_LOG_LEVEL`, default `info`. */
  logLevel: LogLevel;
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
 * @throws ConfigError (one line naming the variable) when a setting is malformed or a renamed one is set; Error
 *   when a configured Temporal TOML profile is malformed.
 */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const s = loadSettings(workerSettings, env);
  return {
    catalog: s.SKEIN_CATALOG,
    engine: loadEngineConfig(env),
    engineCheck: { intervalMs: s.SKEIN_ENGINE_CHECK_INTERVAL_MS, failures: s.SKEIN_ENGINE_CHECK_FAILURES },
    rollingDeploy: s.SKEIN_ROLLING_DEPLOY,
    traceDir: s.SKEIN_TRACE_DIR,
    bundleCache: s.SKEIN_BUNDLE_CACHE,
    startupCache: s.SKEIN_STARTUP_CACHE,
    logLevel: s.SKEIN_LOG_LEVEL,
  };
}
