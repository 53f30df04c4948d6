import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { dispatchLifecycle, drainHooks, serializeError, setHookErrorReporter } from '@skein/core/internal';
import { monitorEngine } from '@skein/settings';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import { ActivityResolver, buildActivities } from './host/activities.js';
import type { LoadedProject } from './host/load.js';
import { bundleWorkflows, type WorkflowBundleResult } from './bundle/bundle.js';
import { buildCatalogDocument, fitCatalogDocument, type CatalogDocument } from './deploy/catalog.js';
import { beginJoin, type DeploymentJoin, type DeploymentMembership } from './deploy/rollout.js';
import { bundleCacheDirOf, loadDeploymentConfig, loadWorkerConfig, traceDirOf, type DeploymentConfig, type EngineConnectionConfig } from './host/config.js';
import { computeBuildId, resolveBuildId } from './deploy/build-id.js';
import { currentVersions } from './deploy/build/build-dir.js';
import { resolveProjectIdentity } from './deploy/project-identity.js';
import { WorkerStartupError } from './check/errors.js';
import { loadProject } from './host/load.js';
import { createLogger } from './host/logger.js';
import { startWorkerTelemetry, type WorkerTelemetry } from './metrics/telemetry.js';
import { withWorkflowTracing } from './interceptors/workflow-tracing.js';
import { beginProjectCheck, finishProjectCheck, type CheckedProject } from './check/validate.js';
import { openStartupCaches, startupCacheDir, type StartupCaches } from './cache/startup-caches.js';
import { activityInterceptor } from './interceptors/activity-interceptor.js';
import { WorkerEvents } from './interceptors/events.js';
import { loadHookFiles } from './interceptors/hook-files.js';
import { skeinSinks } from './interceptors/sinks.js';
import { installNodeLogSink } from './interceptors/log-sink.js';
import { configureWorkerClient } from '@skein/core/temporal';
import { sweepTraces, TRACE_SWEEP_INTERVAL_MS } from './traces/retention.js';
import { setUpTraces, traceRemoteMismatch, type WorkerTraces } from './traces/setup.js';
import { enableTypeScriptSources } from './host/typescript/resolve-hook.js';
import { SHUTDOWN_FORCE_EXTRA_MS } from './host/settings.js';
import { beginWorkflowThreads, createTemporalWorker, stopRequestedAt, type EarlyWorkflowThreads } from './host/temporal-worker.js';
import type { SkeinWorker, StartWorkerOptions } from './host/worker-options.js';

export type { SkeinWorker, StartWorkerOptions } from './host/worker-options.js';

/** How long after the worker is up webpack's persistent cache is written (ms). */
const WEBPACK_CACHE_DELAY_MS = 5_000;

/**
 * Starts a Skein worker: validates the project statically (refusing to start on errors, before touching the
 * engine), loads its definitions, bundles its workflows once, registers workflows and activities on the
 * catalog task queue and publishes the catalog (`$catalog`).
 * @throws WorkerStartupError: invalid project (message = every diagnostic), no workflows, module load or
 *   bundling failure, engine unreachable (one line naming the address).
 */
export async function startWorker(options: StartWorkerOptions): Promise<SkeinWorker> {
  const env = loadWorkerConfig();
  const logger = options.logger ?? createLogger('skein-worker');
  const catalog = options.catalog ?? env.catalog;
  const deploymentSettings = options.catalog ? loadDeploymentConfig(catalog) : env.deployment;
  const engine: EngineConnectionConfig = {
    ...env.engine,
    ...options.engine,
    connectionOptions: { ...env.engine.connectionOptions, ...options.engine?.connectionOptions },
  };

  const tStart = performance.now();
  // Project .ts files (steps, evaluators, shared activities, hook files) run from source in this process.
  enableTypeScriptSources();
  // The engine connections open while the project is checked and loaded; nothing is asked of the engine
  // before the project passed validation, and a failed start closes them.
  const telemetry = await startWorkerTelemetry(logger, options.metrics ?? env.metrics);
  const connecting = connectEngine(engine);
  // Awaited after the project checks out; until then a failure must not count as an unhandled rejection.
  connecting.catch(() => {});
  const closeLater = () =>
    void connecting.then(
      (c) => Promise.allSettled([c.nativeConnection.close(), c.clientConnection.close()]),
      () => {},
    );
  try {
    // The check's time starts once telemetry is up (its exporters' start counts in the total, not in validation).
    const tChecking = performance.now();
    return await startOnConnection(options, { env, logger, catalog, deploymentSettings, engine, tStart, tChecking, connecting, telemetry });
  } catch (err) {
    closeLater();
    void telemetry.close();
    throw err;
  }
}

/** Opens the worker's two engine connections (native for polling, client for the catalog). @throws WorkerStartupError naming the address. */
async function connectEngine(engine: EngineConnectionConfig): Promise<{ nativeConnection: NativeConnection; clientConnection: Connection }> {
  const native = NativeConnection.connect({ ...engine.connectionOptions, address: engine.address });
  const client = Connection.connect({ ...(engine.connectionOptions as object), address: engine.address, connectTimeout: 5000 });
  const [n, c] = await Promise.allSettled([native, client]);
  if (n.status === 'fulfilled' && c.status === 'fulfilled') return { nativeConnection: n.value, clientConnection: c.value };
  if (n.status === 'fulfilled') await n.value.close().catch(() => {});
  if (c.status === 'fulfilled') await c.value.close().catch(() => {});
  const err = (n.status === 'rejected' ? n.reason : (c as PromiseRejectedResult).reason) as Error;
  // The transport's own text (tonic::transport::Error(...)) goes to `details`, not into the one line.
  throw new WorkerStartupError(
    `Cannot reach the Temporal server at ${engine.address}: start one ("skein dev" runs its own) or set TEMPORAL_ADDRESS to a running server`,
    err.message,
  );
}

/** The part of `startWorker` after the connections were started (see there). */
async function startOnConnection(
  options: StartWorkerOptions,
  ctx: {
    env: ReturnType<typeof loadWorkerConfig>;
    logger: Logger;
    catalog: string;
    deploymentSettings: DeploymentConfig;
    engine: EngineConnectionConfig;
    tStart: number;
    /** When the project's check began (after telemetry started), ms (`performance.now()`). */
    tChecking: number;
    connecting: ReturnType<typeof connectEngine>;
    telemetry: WorkerTelemetry;
  },
): Promise<SkeinWorker> {
  const { logger } = ctx;
  if (options.build) {
    // A build was validated when it was made, and checked when it was opened.
    const tValidated = performance.now();
    return serveProject(options, { ...ctx, caches: undefined, checked: { manifest: options.build.manifest, cache: 'off' }, tValidated });
  }
  let check = options.check;
  if (!check) {
    const startupDir = startupCacheDir(options.projectDir, options.startupCache);
    check = beginProjectCheck(options.projectDir, startupDir === false ? undefined : openStartupCaches(startupDir));
  }
  const caches = check.caches;
  const checked = await finishProjectCheck(check, logger);
  const tValidated = performance.now();
  return serveProject(options, { ...ctx, caches, checked, tValidated });
}

/** What the phases of serving share: the start's settings, the checked project and the engine connections being opened. */
type ServeContext = Parameters<typeof startOnConnection>[1] & {
  caches: StartupCaches | undefined;
  checked: CheckedProject;
  tValidated: number;
};

/** The worker's deployment version: its deployment name and build ID. */
type Deployment = SkeinWorker['deployment'];

/** The shutdown grace time, ms: the option, else `SKEIN_SHUTDOWN_GRACE_MS` (10 000 by default). */
function graceMsOf(options: StartWorkerOptions, ctx: ServeContext): number {
  return options.shutdownGraceTimeMs ?? ctx.env.shutdownGraceMs;
}

/**
 * The part of `startWorker` after the project passed its check (see there), in phases: load the project, set up its
 * traces, bundle its workflow code, then (connections open) describe the catalog, create the versioned Temporal
 * worker, run it until it stops, and report the start.
 */
async function serveProject(options: StartWorkerOptions, ctx: ServeContext): Promise<SkeinWorker> {
  const { logger, catalog, engine, connecting, checked, telemetry } = ctx;
  const manifest = checked.manifest;
  if (manifest.workflows.length === 0) {
    throw new WorkerStartupError(`No workflows found in ${manifest.root}: add a workflow.js or install a package that exposes workflows`);
  }
  // The project passed its check: the engine may be asked.
  const clientReady = connecting.then(({ clientConnection }) => new Client({ connection: clientConnection, namespace: engine.namespace }));
  // Awaited once the project is loaded and bundled; a failed connection is reported there, not as an unhandled rejection.
  clientReady.catch(() => {});
  setHookErrorReporter(telemetry.countingHookErrors((err, hook) => logger.error({ hook, err }, `hook ${hook} failed`)));
  const loaded = await loadServedProject(options, ctx);
  const traced = await setUpRunTraces(options, ctx, loaded.resolver, clientReady);
  const tLoaded = performance.now();
  const { bundled, workflowBundle, deployment, early } = await bundleServedProject(options, ctx, loaded, traced);
  const tBundled = performance.now();
  const identityOfProject = resolveProjectIdentity(manifest.root, options.project ?? ctx.deploymentSettings.project);
  if (identityOfProject.warning) logger.warn({ project: identityOfProject.project }, identityOfProject.warning);

  const { nativeConnection, clientConnection } = await connecting.catch(async (err: unknown) => {
    await early?.discard();
    throw err;
  });
  // `createTemporalClient()` and `getCurrentWorkflowHandle()` of `@skein/core/temporal` use this worker's connection.
  const releaseClient = configureWorkerClient({ connection: clientConnection, namespace: engine.namespace });
  const removeLogSink = installNodeLogSink(logger);
  const closeConnections = async () => {
    removeLogSink();
    releaseClient();
    await Promise.allSettled([nativeConnection.close(), clientConnection.close()]);
  };
  try {
    const client = await clientReady;
    // Unique per worker, so that the engine's poller list tells workers (even in one process) apart.
    const identity = `${process.pid}@${os.hostname()}/${randomUUID().slice(0, 8)}`;
    const catalogDocument = catalogDocumentOf(loaded.project, ctx, { identity, deployment, project: identityOfProject.project, traceDir: traced.traceDir });
    // The worker, once created: a drained build stops it.
    const running: { worker?: Worker } = {};
    // The build's lease, its catalog record and the read of the deployment go out now, while the worker is created;
    // only the promotion and the publication wait for the first poll.
    const join = beginJoin(
      client,
      {
        catalog,
        identity,
        deployment,
        doc: catalogDocument,
        promote: options.promote ?? ctx.deploymentSettings.promote,
        project: identityOfProject.project,
        ...(options.exitWhenDrained ? { onDrained: () => void (running.worker?.getState() === 'RUNNING' && running.worker.shutdown()) } : {}),
      },
      logger,
    );
    const { worker, limits } = await createVersionedWorker(options, ctx, { identity, deployment, workflowBundle, early, loaded, events: traced.events, join });
    running.worker = worker;
    await dispatchLifecycle('onBeforeStart', {
      eventId: crypto.randomUUID(),
      eventDate: Date.now(),
      catalog,
      workflows: catalogDocument.workflows.map((w) => w.name),
    });
    const { done, membership } = await runUntilStopped(worker, options, ctx, { traced, bundled, clientConnection, join, closeConnections });
    const startup = reportStartup(ctx, {
      tLoaded,
      tBundled,
      promoteMs: membership.promoteMs,
      bundleCache: bundled.cache,
      bundledModules: bundled.modules ?? null,
      modules: loaded.project.counts,
      facts: { deployment, project: identityOfProject.project, catalogDocument, hookFiles: loaded.hookFiles, traceDir: traced.traceDir, limits },
    });
    await afterServing(ctx, bundled);
    return {
      catalog,
      deployment,
      manifest,
      catalogDocument,
      traceDir: traced.traceDir,
      metrics: telemetry.metrics ? { kind: telemetry.metrics.kind, url: telemetry.metrics.url } : null,
      workflowBundle,
      workflowThread: { oldSpaceMb: limits.oldSpaceMb, maxCachedWorkflows: limits.maxCachedWorkflows },
      startup,
      done,
      async shutdown() {
        if (worker.getState() === 'RUNNING') {
          const graceMs = graceMsOf(options, ctx);
          logger.info(
            { activitiesRunning: traced.events.activitiesRunning, graceMs, forceAfterMs: graceMs + SHUTDOWN_FORCE_EXTRA_MS },
            'stopping: polls end; in-flight activities may finish within the grace time, then are cancelled',
          );
          worker.shutdown();
        }
        await done.catch(() => {});
      },
    };
  } catch (err) {
    await early?.discard();
    await closeConnections();
    if (err instanceof WorkerStartupError) throw err;
    throw new WorkerStartupError(`Worker failed to start: ${(err as Error).message.split('\n')[0]}`, (err as Error).stack);
  }
}

/** The project as the worker serves it: its definitions (a build's, or imported now), hook files and activities. */
interface ServedProject {
  project: LoadedProject;
  /** The hook files loaded, as their paths. */
  hookFiles: Awaited<ReturnType<typeof loadHookFiles>>;
  resolver: ActivityResolver;
  activities: ReturnType<typeof buildActivities>;
}

/** Load phase: the project's definitions (from the build, or imported through the startup caches), its hook files and activities. */
async function loadServedProject(options: StartWorkerOptions, ctx: ServeContext): Promise<ServedProject> {
  const { logger, checked, caches } = ctx;
  const project = options.build ? options.build.project : await loadProject(checked.manifest, caches);
  if (project.storeError)
    logger.warn({ err: project.storeError }, `project facts not cached (${project.storeError.message}); the next start imports every module`);
  const hookFiles = await loadHookFiles(checked.manifest.root);
  const resolver = new ActivityResolver(project, options.activityOverrides);
  return { project, hookFiles, resolver, activities: buildActivities(resolver) };
}

/** What the trace phase sets up: the local folder, the S3 destination and its sender, the recorder, and the events feeding it. */
interface RunTraces {
  traceDir: string | null;
  traceRemote: WorkerTraces['remote'];
  remoteTraces: WorkerTraces['uploader'];
  traces: WorkerTraces['recorder'];
  events: WorkerEvents;
}

/**
 * Trace phase: where runs' traces go (a build keeps the folder and the S3 destination compiled into its bundle) and
 * the recorder that assembles them.
 * @throws WorkerStartupError when a build's S3 destination is not this worker's, or the S3 settings are incomplete.
 */
async function setUpRunTraces(options: StartWorkerOptions, ctx: ServeContext, resolver: ActivityResolver, client: Promise<Client>): Promise<RunTraces> {
  const { env, logger, telemetry } = ctx;
  const { build } = options;
  const root = ctx.checked.manifest.root;
  const traceDir = build ? build.record.traceDir : traceDirOf(root, options.traceDir, env.traceDir);
  if (build && traceDirOf(root, options.traceDir, env.traceDir) !== traceDir) {
    // Whether runs record a trace destination is part of the bundle's behaviour: the build's setting stays.
    logger.warn(
      { traceDir, buildDir: build.dir },
      `the trace directory is fixed by the build (${traceDir ?? 'off'}); SKEIN_TRACE_DIR is ignored: build again to change it`,
    );
  }
  const {
    remote: traceRemote,
    uploader: remoteTraces,
    recorder: traces,
  } = await setUpTraces({
    projectRoot: root,
    dir: traceDir,
    config: env.trace,
    options: {
      ...(options.traceSpoolDir ? { spoolDir: options.traceSpoolDir } : {}),
      ...(options.traceExporters ? { exporters: telemetry.countExports(options.traceExporters)! } : {}),
      ...(options.traceUploadBackoff ? { backoff: options.traceUploadBackoff } : {}),
    },
    client,
    resolver,
    logger,
  });
  // A build's runs publish the S3 destination compiled into its bundle: this worker must upload to that one.
  const remoteMismatch = build ? traceRemoteMismatch(build.record.traceRemote, traceRemote) : undefined;
  if (remoteMismatch) throw new WorkerStartupError(remoteMismatch);
  const events = new WorkerEvents(traces, (err) => logger.warn({ err }, 'trace failed'), telemetry.metrics?.recorder);
  return { traceDir, traceRemote, remoteTraces, traces, events };
}

/** The workflow code the worker serves, how it was had (`bundleCache`), and the code as it runs (tracing on or off). */
type ServedBundle = Omit<WorkflowBundleResult, 'cache'> & { cache: SkeinWorker['startup']['bundleCache'] };

/**
 * Bundle phase: the workflow code (the build's, or bundled through the bundle cache with the trace destinations
 * compiled in), the code as it runs, and the deployment version it is served as. Temporal's workflow thread begins
 * on the code (`beginWorkflowThreads`) before the build ID is computed, for the worker to take.
 * @throws WorkerStartupError when bundling fails.
 */
async function bundleServedProject(
  options: StartWorkerOptions,
  ctx: ServeContext,
  loaded: ServedProject,
  traced: RunTraces,
): Promise<{ bundled: ServedBundle; workflowBundle: { code: string }; deployment: Deployment; early: EarlyWorkflowThreads | undefined }> {
  const { project } = loaded;
  const { env, logger, caches, telemetry, deploymentSettings } = ctx;
  const { build } = options;
  const { traceDir, traceRemote } = traced;
  const manifest = ctx.checked.manifest;
  const bundled: ServedBundle = build
    ? { code: build.workflowCode, cache: 'build' }
    : await bundleWorkflows(project, {
        ...(traceDir ? { traceDir } : {}),
        ...(traceRemote ? { traceRemote } : {}),
        cacheDir: bundleCacheDirOf(manifest.root, options.bundleCache, env.bundleCache),
        webpackCache: env.webpackCache,
        ...(caches ? { digests: caches.digests } : {}),
      });
  if (bundled.waitedMs !== undefined)
    logger.info(
      { waitedMs: bundled.waitedMs, bundleCache: bundled.cache },
      `another process was bundling this project: waited ${bundled.waitedMs} ms for it${bundled.cache === 'hit' ? ' and serves its bundle' : ', then bundled (it stored none)'}`,
    );
  if (bundled.storeError)
    logger.warn({ err: bundled.storeError }, `workflow bundle cache not written (${bundled.storeError.message}); the next start bundles again`);
  // Tracing is the worker's setting, not the bundle's: the same bundle (and build ID) serves with it on or off.
  const workflowBundle = { code: telemetry.tracing ? withWorkflowTracing(bundled.code) : bundled.code };
  const early = beginWorkflowThreads(workflowBundle.code, Object.keys(loaded.activities), { ...options.workerOptions, taskQueue: ctx.catalog });
  let deployment: Deployment;
  try {
    deployment = {
      name: deploymentSettings.name,
      buildId: resolveBuildId(deploymentSettings.buildId, () =>
        build
          ? build.record.buildId
          : computeBuildId({
              workflowCode: bundled.code,
              roots: [manifest.root, ...manifest.packages.map((p) => p.root)],
              ...(traceDir ? { locations: [traceDir] } : {}),
              ...(caches ? { digests: caches.digests } : {}),
            }),
      ),
    };
  } catch (err) {
    // A bad SKEIN_BUILD_ID: the thread begun for the worker is not taken.
    await early?.discard();
    throw err;
  }
  return { bundled, workflowBundle, deployment, early };
}

/**
 * The catalog document this worker's build publishes: its workflows and activities, its deployment version and
 * project, and the one trace folder it writes (nothing taken over from the document the catalog held before, which
 * anyone with engine access could have written); without JSON Schemas when too large for the engine memo.
 */
function catalogDocumentOf(
  project: LoadedProject,
  ctx: ServeContext,
  facts: { identity: string; deployment: Deployment; project: string; traceDir: string | null },
): CatalogDocument {
  const built = buildCatalogDocument(project, ctx.catalog, facts.identity, Date.now(), facts.deployment);
  built.project = facts.project;
  if (facts.traceDir) built.traceDirs = [facts.traceDir];
  const fitted = fitCatalogDocument(built);
  if (fitted.schemasDropped) ctx.logger.warn('catalog too large for the engine memo: published without JSON Schemas');
  return fitted.doc;
}

/**
 * Creates the Temporal worker of one deployment version (pinned by default: a pinned run's workflow and activity
 * tasks go only to workers of its version), with the project's activities, sinks and interceptors. A failure
 * abandons the join begun for it.
 */
async function createVersionedWorker(
  options: StartWorkerOptions,
  ctx: ServeContext,
  parts: {
    identity: string;
    deployment: Deployment;
    workflowBundle: { code: string };
    early: EarlyWorkflowThreads | undefined;
    loaded: ServedProject;
    events: WorkerEvents;
    join: DeploymentJoin;
  },
): ReturnType<typeof createTemporalWorker> {
  const { telemetry, logger } = ctx;
  const { nativeConnection } = await ctx.connecting;
  return createTemporalWorker(
    {
      connection: nativeConnection,
      namespace: ctx.engine.namespace,
      identity: parts.identity,
      taskQueue: ctx.catalog,
      workerDeploymentOptions: {
        useWorkerVersioning: true,
        version: { deploymentName: parts.deployment.name, buildId: parts.deployment.buildId },
        defaultVersioningBehavior: 'PINNED',
      },
      workflowBundle: parts.workflowBundle,
      activities: parts.loaded.activities,
      sinks: { ...skeinSinks(parts.events, logger), ...telemetry.worker.sinks },
      interceptors: { activity: [...telemetry.worker.activityInterceptors, activityInterceptor(parts.loaded.resolver, parts.events)] },
      shutdownGraceTime: graceMsOf(options, ctx),
      shutdownForceTime: graceMsOf(options, ctx) + SHUTDOWN_FORCE_EXTRA_MS,
      ...options.workerOptions,
    },
    parts.early,
  ).catch(async (err: unknown) => {
    await parts.join.abandon();
    throw err;
  });
}

/**
 * Run phase: starts the trace sender and the trace sweep, watches the engine (a lost engine stops the worker, and a
 * shutdown that hangs on a dead server is cut after the grace time), runs the worker, and completes the join of the
 * build's rollout once it polls. Returns (once joined) the worker's `done`, which settles once the worker stopped and
 * everything it holds (membership, caches, hooks, traces, telemetry, connections) is released, and its `membership`
 * of the deployment (what the join did: `promoteMs`).
 * @throws the join's failure, after stopping the worker.
 */
async function runUntilStopped(
  worker: Worker,
  options: StartWorkerOptions,
  ctx: ServeContext,
  parts: { traced: RunTraces; bundled: ServedBundle; clientConnection: Connection; join: DeploymentJoin; closeConnections: () => Promise<void> },
): Promise<{ done: Promise<void>; membership: DeploymentMembership }> {
  const { env, logger, engine, telemetry } = ctx;
  const { traceDir, remoteTraces, traces, events } = parts.traced;
  const { bundled } = parts;
  remoteTraces?.start();
  const sweep = () => void (traceDir && sweepTraces(traceDir, env.trace.retentionMs));
  sweep();
  const sweeper = setInterval(sweep, TRACE_SWEEP_INTERVAL_MS);
  sweeper.unref();
  let lost: string | undefined;
  const graceMs = graceMsOf(options, ctx);
  let forceStop: (() => void) | undefined;
  let membership: DeploymentMembership | undefined;
  const forced = new Promise<void>((resolve) => (forceStop = resolve));
  const engineMonitor = monitorEngine(parts.clientConnection, {
    ...env.engineCheck,
    ...options.engineCheck,
    address: engine.address,
    onLost: (reason) => {
      lost = reason;
      logger.error({ reason }, 'lost the engine connection; stopping the worker');
      events.runtimeError({ name: 'EngineConnectionLost', message: reason });
      if (worker.getState() === 'RUNNING') worker.shutdown();
      // Temporal's own shutdown can wait on a dead server: give it the grace time, then stop regardless.
      setTimeout(() => forceStop?.(), graceMs + 5000).unref();
    },
  });
  const done = Promise.race([worker.run(), forced])
    .catch((err: unknown) => {
      // A stop that reached the force time (Temporal's run fails with its expired grace period) when activities
      // ignored their cancellation: the process stops without them, and each attempt is retried.
      const askedAt = stopRequestedAt(worker);
      if (askedAt !== undefined && performance.now() - askedAt >= graceMs + SHUTDOWN_FORCE_EXTRA_MS - 100) {
        logger.warn(
          { graceMs, forceAfterMs: graceMs + SHUTDOWN_FORCE_EXTRA_MS },
          'in-flight activities did not stop within the shutdown grace time; stopping without them (Temporal retries each attempt after its start-to-close or heartbeat timeout)',
        );
        return;
      }
      events.runtimeError(serializeError(err));
      throw err;
    })
    .then(() => {
      if (lost) throw new WorkerStartupError(`Lost the Temporal connection at ${engine.address}: ${lost}`);
    })
    .finally(async () => {
      engineMonitor.stop();
      await membership?.leave(!lost);
      // Write webpack's persistent cache now if the delayed write has not started: wait for an in-process
      // write (the open compiler holds it); a detached priming process finishes on its own.
      const persisting = bundled.persist?.();
      if (!bundled.persistDetached) await persisting;
      const pending = await drainHooks(30_000);
      if (pending > 0) logger.warn({ pending }, 'hooks still running after 30 s; not waiting longer');
      clearInterval(sweeper);
      await traces?.flush();
      await remoteTraces?.stop();
      await telemetry.close();
      await parts.closeConnections();
      logger.info(lost ? { reason: lost } : {}, 'worker stopped');
    });
  // The worker polls: it completes its join of the build's rollout (promotion, the served catalog).
  try {
    membership = await parts.join.joined();
  } catch (err) {
    // The worker already polls: stop it before failing the start.
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await done.catch(() => {});
    throw err;
  }
  return { done, membership };
}

/**
 * Where the start's time went (ms from the start: validation, loading, bundling, engine connection and
 * registration), recorded as metrics and logged in the one "worker serving" line with what the worker serves.
 */
function reportStartup(
  ctx: ServeContext,
  at: {
    tLoaded: number;
    tBundled: number;
    /** The engine's time to make the build current, ms (`DeploymentMembership.promoteMs`); null when not promoted. */
    promoteMs: number | null;
    bundleCache: ServedBundle['cache'];
    bundledModules: SkeinWorker['startup']['bundledModules'];
    modules: LoadedProject['counts'];
    facts: {
      deployment: Deployment;
      project: string;
      catalogDocument: CatalogDocument;
      hookFiles: ServedProject['hookFiles'];
      traceDir: string | null;
      limits: Awaited<ReturnType<typeof createTemporalWorker>>['limits'];
    };
  },
): SkeinWorker['startup'] {
  const { tStart, tChecking, tValidated, checked, telemetry, logger, catalog, engine } = ctx;
  const tReady = performance.now();
  const ms = (a: number, b: number) => Math.round(b - a);
  const startup = {
    validateMs: ms(tChecking, tValidated),
    loadMs: ms(tValidated, at.tLoaded),
    bundleMs: ms(at.tLoaded, at.tBundled),
    connectMs: ms(at.tBundled, tReady),
    promoteMs: at.promoteMs,
    totalMs: ms(tStart, tReady),
    bundleCache: at.bundleCache,
    bundledModules: at.bundledModules,
    validationCache: checked.cache,
    modules: at.modules,
  };
  telemetry.metrics?.recorder.startup(startup);
  const { deployment, project, catalogDocument, hookFiles, traceDir, limits } = at.facts;
  logger.info(
    {
      catalog,
      deployment,
      project,
      versions: currentVersions(),
      address: engine.address,
      namespace: engine.namespace,
      workflows: catalogDocument.workflows.map((w) => w.name),
      hookFiles,
      traceDir,
      metrics: telemetry.metrics?.url ?? null,
      workflowThread: { oldSpaceMb: limits.oldSpaceMb, maxCachedWorkflows: limits.maxCachedWorkflows },
      startup,
    },
    `worker serving ${catalogDocument.workflows.length} workflow(s) on catalog "${catalog}"`,
  );
  return startup;
}

/**
 * After the worker serves: webpack's persistent cache (after a bundle cache miss) is written a few seconds later, so
 * the write does not compete with the start and the first runs for CPU; the file digests are saved now.
 */
async function afterServing(ctx: ServeContext, bundled: ServedBundle): Promise<void> {
  const { caches, logger } = ctx;
  if (bundled.persist) setTimeout(() => void bundled.persist!(), WEBPACK_CACHE_DELAY_MS).unref();
  const digestsError = await caches?.digests.save();
  if (digestsError) logger.warn({ err: digestsError }, `file digests not cached (${digestsError.message})`);
}
