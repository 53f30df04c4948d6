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
  /** Worker Versioning: which deployment version this worker polls as, and whether it makes itself current. */
  deployment: DeploymentConfig;
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
}

/**
 * Reads the Worker Versioning settings for `catalog`.
 * @throws Error naming the variable when `SKEIN_PROMOTE` is neither `auto` nor `manual`, or `SKEIN_DEPLOYMENT_NAME` holds a `.` or whitespace.
 */
export function loadDeploymentConfig(catalog: string, env: NodeJS.ProcessEnv = process.env): DeploymentConfig {
  const promote = (env.SKEIN_PROMOTE ?? '').trim().toLowerCase() || 'auto';
  if (promote !== 'auto' && promote !== 'manual') throw new Error(`SKEIN_PROMOTE must be "auto" or "manual", got "${env.SKEIN_PROMOTE}"`);
  const name = env.SKEIN_DEPLOYMENT_NAME?.trim() || catalog;
  if (/[.\s]/.test(name) || name.length > 255) throw new Error(`SKEIN_DEPLOYMENT_NAME "${name}" is not a usable deployment name: at most 255 characters, no "." or whitespace`);
  return { name, buildId: env.SKEIN_BUILD_ID?.trim() || undefined, promote };
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
 * @throws Error naming the variable when a number or a deployment setting is malformed.
 */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const catalog = env.SKEIN_CATALOG || DEFAULT_CATALOG;
  return {
    catalog,
    engine: loadEngineConfig(env),
    engineCheck: {
      intervalMs: positiveInt(env, 'SKEIN_ENGINE_CHECK_INTERVAL_MS', 5000),
      failures: positiveInt(env, 'SKEIN_ENGINE_CHECK_FAILURES', 3),
    },
    deployment: loadDeploymentConfig(catalog, env),
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
