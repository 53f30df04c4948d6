import path from 'node:path';
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

/** Worker configuration resolved from the environment (CONTRACT "Process and configuration"). */
export interface WorkerConfig {
  /** The catalog (task queue) to serve: `SKEIN_CATALOG`, default `main`. */
  catalog: string;
  engine: EngineConnectionConfig;
  /** Engine health check (`SKEIN_ENGINE_CHECK_INTERVAL_MS`, default 5 000; `SKEIN_ENGINE_CHECK_FAILURES`, default 3). */
  engineCheck: { intervalMs: number; failures: number };
  /** `SKEIN_ROLLING_DEPLOY=1` (or `true`): start next to a live worker of another catalog version (see `claimCatalog`). */
  rollingDeploy: boolean;
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
  };
}

/**
 * The local trace directory of a worker serving the project at `root`: `option` when given (`false` or `off`:
 * none), else `SKEIN_TRACE_DIR` (`off`: none), else `<root>/.skein/traces`. Absolute, or null for no local traces.
 */
export function traceDirOf(root: string, option?: string | false, env: NodeJS.ProcessEnv = process.env): string | null {
  const value = option ?? env.SKEIN_TRACE_DIR ?? path.join(root, '.skein', 'traces');
  return value === false || value === 'off' ? null : path.resolve(value);
}

/**
 * The workflow bundle cache directory of a worker serving the project at `root`: `option` when given (`false`:
 * none), else `SKEIN_BUNDLE_CACHE` (a directory, or `off`), else `<root>/.skein/bundles`.
 */
export function bundleCacheDirOf(root: string, option?: string | false, env: NodeJS.ProcessEnv = process.env): string | false {
  if (option !== undefined) return option;
  const fromEnv = env.SKEIN_BUNDLE_CACHE?.trim();
  return fromEnv === 'off' ? false : fromEnv ? path.resolve(fromEnv) : path.join(root, '.skein', 'bundles');
}
