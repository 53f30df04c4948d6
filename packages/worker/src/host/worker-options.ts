/** The public shapes of `startWorker`: its options and the running worker it returns. */
import type { Manifest } from '@skein/discovery';
import type { Logger } from 'pino';
import type { WorkerOptions } from '@temporalio/worker';
import type { OpenedBuild } from '../deploy/build/build-dir.js';
import type { CatalogDocument } from '../deploy/catalog.js';
import type { EngineConnectionConfig, MetricsConfig } from './config.js';
import type { UploadBackoff } from '../traces/s3.js';
import type { TraceExporter } from '../traces/types.js';
import type { ProjectCheck } from '../check/validate.js';

/** Options of `startWorker()`; anything omitted comes from the environment (`loadWorkerConfig`). */
export interface StartWorkerOptions {
  /** The project to serve: its own workflows plus every exposed package in its node_modules. */
  projectDir: string;
  /** Catalog (task queue); default `SKEIN_CATALOG` or `main`. */
  catalog?: string;
  /** Engine connection; default from Temporal's env config (`TEMPORAL_ADDRESS`, ...). */
  engine?: Partial<EngineConnectionConfig> & { address: string };
  logger?: Logger;
  /**
   * Graceful shutdown: how long in-flight activities may take to finish, ms, before they are cancelled; the worker
   * stops 5 s later whether or not they did (`SHUTDOWN_FORCE_EXTRA_MS`). Default `SKEIN_SHUTDOWN_GRACE_MS`, else 10 000.
   */
  shutdownGraceTimeMs?: number;
  /**
   * Directory of local trace files (one JSON tree per root run); `false` disables local traces.
   * Default `SKEIN_TRACE_DIR`, else `<projectDir>/.skein/traces`.
   */
  traceDir?: string | false;
  /** More trace destinations, called with each finished root run's trace (the S3 one is built from the environment). */
  traceExporters?: TraceExporter[];
  /** Folder where traces wait for their S3 upload; default `SKEIN_TRACE_SPOOL_DIR`, else `<projectDir>/.skein/trace-spool`. */
  traceSpoolDir?: string;
  /** Retry timing of S3 trace uploads (defaults: 1 s doubling to 10 s; given up after 24 h). */
  traceUploadBackoff?: Partial<UploadBackoff>;
  /**
   * Advanced Temporal worker tuning passed through (e.g. `maxConcurrentActivityTaskExecutions`). A `maxCachedWorkflows`
   * also sizes the workflow thread's heap to hold that many (see `workflowThreadLimits`); default: derived from that heap.
   */
  workerOptions?: Partial<Pick<WorkerOptions, 'maxCachedWorkflows' | 'maxConcurrentActivityTaskExecutions' | 'maxConcurrentWorkflowTaskExecutions'>>;
  /**
   * Whether this worker's build becomes the current version once the worker polls, when it is a build that never
   * served new runs (or nothing is current): `auto`; or is left for an operator (`skein deploy promote`):
   * `manual`. Default `SKEIN_PROMOTE`, else `auto`.
   */
  promote?: 'auto' | 'manual';
  /**
   * The project identity recorded with the build (see `resolveProjectIdentity`): a new build replaces the catalog's
   * current version by itself only when both belong to the same project, and a worker of another project than the
   * current version's fails its start (`ProjectMismatchError`). Default `SKEIN_PROJECT`, else package.json's `name`,
   * else the folder's name (with a warning).
   */
  project?: string;
  /**
   * Stop the worker once Temporal reports its build drained (no open run pinned to it) and it is neither current
   * nor ramping: an old build's worker leaves by itself after a rollout. Default false.
   */
  exitWhenDrained?: boolean;
  /**
   * Workflow bundle cache directory (see `bundleWorkflows`); `false` bundles from scratch on every start.
   * Default `SKEIN_BUNDLE_CACHE` (a directory, or `off`), else `<projectDir>/.skein/bundles`.
   */
  bundleCache?: string | false;
  /**
   * Startup cache directory (file digests and the project facts: `openStartupCaches`; beside them the validator's
   * cache file when the directory is not the default one); `false` validates and loads every module on every start. Default `SKEIN_STARTUP_CACHE` (a directory, or
   * `off`), else `<projectDir>/.skein/startup`.
   */
  startupCache?: string | false;
  /**
   * The startup check of `projectDir`, begun earlier by `beginStartupCheck` (`@skein/worker/check`) with the
   * same `startupCache`, so that its validation ran while the process loaded the worker; default: begun here.
   */
  check?: ProjectCheck;
  /**
   * Replacements of steps and evaluators by name (`composeGreeting`), consulted on every call: the map may
   * change while the worker runs. For tests (`@skein/testing`'s `mockSteps`); a replacement gets the input as
   * sent and its answer is the activity's output, unchecked.
   */
  activityOverrides?: ReadonlyMap<string, (input: unknown) => Promise<unknown>>;
  /**
   * Serve this build (`openBuild`: made by `skein build`, already checked) instead of checking, loading and
   * bundling `projectDir` (which must be the build's project): no validation, no webpack, no module imported
   * before the first call. Its trace directory is the one compiled into its bundle (`traceDir` is ignored).
   */
  build?: OpenedBuild;
  /** Engine health check: period and consecutive failures before the worker stops with an error. Defaults 5 000 ms, 3. */
  engineCheck?: { intervalMs?: number; failures?: number };
  /** Metrics (`MetricsConfig`; `false` = off); default `SKEIN_METRICS_PORT` / `SKEIN_METRICS_OTLP`; the first worker of a process decides. */
  metrics?: MetricsConfig | false;
}

/** A running worker. */
export interface SkeinWorker {
  catalog: string;
  /** The Temporal worker deployment version this worker polls as: deployment name and build ID. */
  deployment: { name: string; buildId: string };
  manifest: Manifest;
  catalogDocument: CatalogDocument;
  /** Absolute trace directory, or null when local traces are off. */
  traceDir: string | null;
  /**
   * The limits of Temporal's workflow thread (see `workflowThreadLimits`): its old generation bound (MB) and the
   * number of workflows Temporal keeps cached in it between tasks (a run beyond it is replayed at its next task).
   */
  workflowThread: { oldSpaceMb: number; maxCachedWorkflows: number };
  /** Where the worker's metrics are: the Prometheus scrape URL or the OTLP collector's; null when off. */
  metrics: { kind: 'prometheus' | 'otlp'; url: string } | null;
  /** The workflow bundle the worker runs (webpack output), e.g. to replay histories against the same code. */
  workflowBundle: { code: string };
  /** Where startup time went, in ms: static validation, loading modules, bundling workflow code, engine connection and registration. */
  startup: {
    validateMs: number;
    loadMs: number;
    bundleMs: number;
    connectMs: number;
    /**
     * Of `connectMs`, how long the engine took to make this build the current version (Temporal's
     * `SetWorkerDeploymentCurrentVersion`); null when this worker did not promote it (already current, manual
     * promotion, a build that served before and was replaced, a failed promotion).
     */
    promoteMs: number | null;
    totalMs: number;
    /** `build`: the bundle of the build the worker serves (`StartWorkerOptions.build`). */
    bundleCache: 'hit' | 'miss' | 'off' | 'build';
    /**
     * When webpack ran (`bundleCache` `miss` or `off`): the bundle's modules, and how many webpack built rather than
     * restored from its persistent cache; null otherwise.
     */
    bundledModules: { built: number; total: number } | null;
    /** `hit`: the validator's cache held the report of the unchanged project; `miss`: (re)validated; `off`: no cache. */
    validationCache: 'hit' | 'miss' | 'off';
    /** Workflows and shared activities whose modules were imported at start, and those whose facts came from the startup cache (imported on first call). */
    modules: { imported: number; cached: number };
  };
  /**
   * Resolves when the worker has stopped after `shutdown()`; rejects if it crashed or lost the engine
   * (after the bounded health-check retry).
   */
  readonly done: Promise<void>;
  /** Stops polling, lets in-flight activities finish within the grace time, closes connections. */
  shutdown(): Promise<void>;
}
