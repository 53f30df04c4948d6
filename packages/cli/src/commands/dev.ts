import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { apiSettings, createApiServer, loadApiConfig } from '@skein/api';
import { loadSettings } from '@skein/settings';
import { SHUTDOWN_FORCE_EXTRA_MS, workerSettings } from '@skein/worker/settings';
import { devEngine, portIsFree, type DevEngine } from '../dev/engine.js';
import { startMetricsProxy, type MetricsProxy } from '../dev/metrics-proxy.js';
import { openRunsReader } from '../dev/open-runs.js';
import { ReloadVersioning } from '../dev/reload-versioning.js';
import { WorkerReloader } from '../dev/reloader.js';
import { watchProject, type ProjectWatcher } from '../dev/watch.js';
import { WorkerStartFailed } from '../dev/worker-process.js';
import { explainError } from '../explain.js';
import { cliLogger, component, fail, machineFields, prettyLogs } from '../logger.js';
import { onShutdownSignal } from './signals.js';

/** The API port `skein dev` tries first when neither `--port` nor `PORT` is given. */
const DEFAULT_API_PORT = 3001;

/** Options of `skein dev`. */
export interface DevOptions {
  /** Serve Temporal's Web UI on this port (default: headless). */
  ui?: number;
  /** gRPC port of the own dev server; must be free. Default 7233, or a free port when 7233 is taken. */
  temporalPort?: number;
  /** Use this running Temporal server instead of starting one (else `TEMPORAL_ADDRESS`). */
  temporalAddress?: string;
  /** API port; must be free. Default `PORT`, else 3001, or a free port when 3001 is taken. */
  port?: number;
  /** Where dev state lives (the dev server's SQLite file, traces, the workflow bundle cache). Default `<projectDir>/.skein`. */
  dataDir?: string;
  /** Watch the project and reload the worker on change. Default true (`--no-watch` turns it off). */
  watch?: boolean;
}

/**
 * `skein dev [projectDir]`: the project's own Temporal dev server (SQLite file `temporal.sqlite` in the data
 * directory, so executions survive a restart; on 7233, or a free port when another server holds it; an
 * existing server only with `--temporal-address`/`TEMPORAL_ADDRESS`), a worker on the project in a child
 * process (traces in `<data dir>/traces` unless `SKEIN_TRACE_DIR` is set, Prometheus metrics on a free port
 * behind one stable URL: `SKEIN_METRICS_PORT` or a free port), and the API (its own `/metrics`). With watch mode (the
 * default) every edit re-validates, rebuilds and swaps the worker while the server and the API stay up.
 * Ctrl-C stops everything.
 */
export async function devCommand(projectDir = '.', options: DevOptions = {}): Promise<void> {
  const root = path.resolve(projectDir);
  const dataDir = path.resolve(options.dataDir ?? path.join(root, '.skein'));
  const base = cliLogger();
  const logger = component(base, 'skein');
  let engine: DevEngine | undefined;
  let reloader: WorkerReloader | undefined;
  let watcher: ProjectWatcher | undefined;
  let api: Awaited<ReturnType<typeof createApiServer>> | undefined;
  let metrics: MetricsProxy | undefined;
  // The own dev server runs in a process group of its own (a terminal's Ctrl-C reaches this process only, which
  // stops the worker before the engine): it is stopped here, also when the start is interrupted.
  const servers = new Set<ChildProcess>();
  const killServers = () => {
    for (const child of servers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  let stopReaders: (() => Promise<void>) | undefined;
  const stopAll = async () => {
    await stopReaders?.().catch(() => {});
    await metrics?.close().catch(() => {});
    await watcher?.close().catch(() => {});
    await api?.close().catch(() => {});
    await reloader?.stop().catch(() => {});
    await engine?.server?.stop();
    killServers();
  };
  process.on('exit', killServers);
  onShutdownSignal(stopAll);
  let listen: string | undefined;
  try {
    // Every setting of the worker and the API is checked before anything starts: a malformed one is one line.
    const workerEnv = loadSettings(workerSettings);
    loadSettings(apiSettings);
    engine = await devEngine({
      address: options.temporalAddress ?? (process.env.TEMPORAL_ADDRESS || undefined),
      port: options.temporalPort,
      uiPort: options.ui,
      dataDir,
      logger,
      engineLogger: component(base, 'temporal'),
      onSpawn: (child) => servers.add(child),
    });
    logger.info(`Temporal: ${engine.description}`);
    const address = engine.address;
    const traceDir = workerEnv.SKEIN_TRACE_DIR ?? path.join(dataDir, 'traces');
    // Every worker exports on a free port of its own; the proxy keeps one URL across reloads.
    metrics = await startMetricsProxy(Number(workerEnv.SKEIN_METRICS_PORT ?? 0));
    reloader = new WorkerReloader(
      root,
      {
        TEMPORAL_ADDRESS: address,
        SKEIN_TRACE_DIR: traceDir,
        // Every reload serves the same Worker Versioning build: a run started before an edit continues on the
        // reloaded code (as the dev loop always did) instead of waiting for a build whose worker was replaced.
        SKEIN_BUILD_ID: workerEnv.SKEIN_BUILD_ID ?? 'dev',
        SKEIN_BUNDLE_CACHE: workerEnv.SKEIN_BUNDLE_CACHE ?? path.join(dataDir, 'bundles'),
        SKEIN_LOG_PRETTY: prettyLogs() ? '1' : '0',
        // The banner and one line per reload say what the worker did; its own lines only for warnings and errors.
        SKEIN_LOG_LEVEL: process.env.SKEIN_LOG_LEVEL?.trim() || 'warn',
        SKEIN_METRICS_PORT: '0',
        SKEIN_METRICS_OTLP: '',
      },
      logger,
      // Killed only after the worker's own forced stop, with 5 s to exit.
      workerEnv.SKEIN_SHUTDOWN_GRACE_MS + SHUTDOWN_FORCE_EXTRA_MS + 5_000,
    );
    reloader.onReady = (next) => void (metrics!.target = next.metricsUrl);
    const ready = await reloader.start();
    const config = loadApiConfig({
      ...process.env,
      TEMPORAL_ADDRESS: address,
      PORT: await apiPort(options.port),
      // trace-log reads only under the API's trace directory: the one the worker writes to.
      SKEIN_TRACE_DIR: traceDir,
    });
    listen = `${config.host}:${config.port}`;
    // Like the worker's: the API's request lines (one for every call of the CLI or a browser) only at `warn` and above,
    // so the banner and the reload lines stay readable; a failed request (5xx) still shows. SKEIN_LOG_LEVEL wins.
    const apiLogger = component(base, 'api');
    if (!process.env.SKEIN_LOG_LEVEL?.trim() && apiLogger.isLevelEnabled('info')) apiLogger.level = 'warn';
    api = await createApiServer(config, { logger: apiLogger });
    api.onFatal((reason) => {
      logger.fatal({ reason }, 'engine connection lost; shutting down');
      void stopAll().finally(() => process.exit(1));
    });
    const { url } = await api.listen();
    const ui = options.ui ? `, Web UI http://127.0.0.1:${options.ui}` : '';
    logger.info(
      machineFields({
        api: url,
        docs: `${url}/docs`,
        metrics: `${url}/metrics`,
        workerMetrics: metrics.url,
        temporal: address,
        catalog: ready.catalog,
        workflows: ready.workflows,
      }),
      `Skein is up: API ${url} (docs ${url}/docs, metrics ${url}/metrics)${ui}, worker metrics ${metrics.url}, Temporal ${address}, catalog "${ready.catalog}", workflows: ${ready.workflows.join(', ')}`,
    );
    if (options.watch !== false) {
      watcher = watchProject(ready.roots, (files) => void reloader?.reload(files));
      // Every reload serves the same build: an edit that changes a workflow's commands breaks its open runs; say so.
      // Judged against the code each open run last ran on (its last workflow task), read from the engine.
      const runsReader = openRunsReader(config.temporal.connection, config.temporal.namespace, ready.catalog);
      runsReader.catch(() => {}); // unreadable: every edit is compared with the code served until then
      stopReaders = async () => (await runsReader.catch(() => undefined))?.close();
      const versioning = new ReloadVersioning(root, async () => (await runsReader).read());
      reloader.onReady = (next) => {
        metrics!.target = next.metricsUrl;
        watcher?.setRoots(next.roots);
        void versioning.afterReload(Date.now()).then((lines) => {
          for (const line of lines) logger.warn(line);
        });
      };
      // Said once the watcher's first scan is done: an edit saved before it would go unseen.
      void watcher.ready.then(() => logger.info('watching the project: saving a file reloads the worker (--no-watch turns this off)'));
    }
    const code = await new Promise<number | null>((resolve) => (reloader!.onExit = resolve));
    logger.fatal(`the worker stopped unexpectedly (exit code ${code}); shutting down`);
    await stopAll();
    process.exit(1);
  } catch (err) {
    await stopAll();
    const portSetting = options.port !== undefined ? '--port' : 'PORT';
    fail(err instanceof WorkerStartFailed ? err.message : explainError(err, listen ? { listen, portSetting } : {}));
  }
}

/**
 * The API port: `--port`, else `PORT` (either must be free, else the listen error explains), else 3001 when
 * free, else any free port (two projects' `skein dev` side by side).
 */
async function apiPort(explicit: number | undefined): Promise<string> {
  if (explicit !== undefined) return String(explicit);
  if (process.env.PORT?.trim()) return process.env.PORT;
  return (await portIsFree(DEFAULT_API_PORT)) ? String(DEFAULT_API_PORT) : '0';
}
