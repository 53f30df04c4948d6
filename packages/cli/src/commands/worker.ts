import path from 'node:path';
import { beginProjectCodeCheck, beginStartupCheck, looksLikeBuild, type ProjectCheck } from '@skein/worker/check';
import type { WorkerMessage } from '../dev/protocol.js';
import { onShutdownSignal } from './signals.js';

/** How long after serving `skein worker` holds its young generation (`holdYoungGeneration`), ms. */
const HOLD_YOUNG_GENERATION_AFTER_MS = 10_000;

/**
 * `skein worker [projectDir|buildDir] [--no-promote] [--exit-when-drained]`: serves the project's workflows (or a
 * build's, made by `skein build`: checked by `openBuild`, then served without validation or bundling) on
 * `SKEIN_CATALOG` until SIGINT/SIGTERM, as one build (version) of its Temporal worker deployment. A new build
 * becomes the current version once its worker polls, unless `--no-promote` (`SKEIN_PROMOTE=manual`);
 * `--exit-when-drained` stops it once its build is drained after a rollout. `--metrics-port` serves Prometheus metrics there (as
 * `SKEIN_METRICS_PORT`).
 * Started by `skein dev` with an IPC channel, it also reports `ready` or `failed` (`WorkerMessage`) to its
 * parent and stops when the parent goes away.
 * The project's startup check begins before the worker's modules (Temporal's SDK) load: a changed project's
 * validation runs in its thread meanwhile.
 */
export async function workerCommand(projectDir = '.', options: { promote?: boolean; exitWhenDrained?: boolean; metricsPort?: number } = {}): Promise<void> {
  const report = (message: WorkerMessage) => process.send?.(message);
  // Started by `skein dev`: when the parent goes away (even while starting), stop too.
  let stopOnDisconnect: () => void = () => process.exit(1);
  if (process.send) process.once('disconnect', () => stopOnDisconnect());
  const dir = path.resolve(projectDir);
  // A build (`skein build`) is served as it is: no project check, no validator, no webpack.
  const fromBuild = looksLikeBuild(dir);
  let check: ProjectCheck | undefined;
  // A build's project is checked against it (its code hashed again) in a thread while the worker's modules load.
  const projectBuildId = fromBuild ? beginProjectCodeCheck(dir) : undefined;
  try {
    if (!fromBuild) check = beginStartupCheck(dir);
  } catch {
    check = undefined; // startWorker begins it again and reports what fails
  }
  const [{ startWorker, openBuild, loadMetricsConfig, holdYoungGeneration, processHeapFlags, reduceHeap }, { cliLogger, fail }] = await Promise.all([
    import('@skein/worker'),
    import('../logger.js'),
  ]);
  const logger = cliLogger('skein-worker');
  try {
    const build = fromBuild ? await openBuild(dir, projectBuildId ? { projectBuildId } : {}) : undefined;
    const metrics =
      options.metricsPort === undefined
        ? undefined
        : loadMetricsConfig({ ...process.env, SKEIN_METRICS_OTLP: '', SKEIN_METRICS_PORT: String(options.metricsPort) });
    const worker = await startWorker({
      projectDir: build ? build.record.projectDir : dir,
      logger,
      ...(build ? { build } : {}),
      ...(check ? { check } : {}),
      ...(options.promote === false ? { promote: 'manual' as const } : {}),
      ...(options.exitWhenDrained ? { exitWhenDrained: true } : {}),
      ...(metrics ? { metrics } : {}),
    });
    stopOnDisconnect = () => process.kill(process.pid, 'SIGTERM');
    // Started from a project, the process validated, imported and bundled it: its heap holds that work's garbage,
    // returned to the system before the first run (resident set 348-360 vs 384-548 MB on the 1,000-workflow
    // benchmark, for 0.17 s of the start: docs/operating.md).
    if (!fromBuild) reduceHeap();
    // A long-running process: its young generation stops growing once the start and the first runs are past (held
    // from the start, it cost the first run 1.8 s, median of 3 starts: 5.9 against 4.2 s). The operator's flags win.
    setTimeout(() => holdYoungGeneration(processHeapFlags()), HOLD_YOUNG_GENERATION_AFTER_MS).unref();
    report({
      type: 'ready',
      catalog: worker.catalog,
      workflows: worker.catalogDocument.workflows.map((w) => w.name),
      roots: [worker.manifest.root, ...worker.manifest.packages.map((p) => p.root)],
      startup: { totalMs: worker.startup.totalMs, bundleMs: worker.startup.bundleMs, bundleCache: worker.startup.bundleCache },
      metricsUrl: worker.metrics?.kind === 'prometheus' ? worker.metrics.url : null,
    });
    onShutdownSignal(
      () => worker.shutdown(),
      (line) => logger.info(line),
    );
    await worker.done;
  } catch (err) {
    // Loaded on failure only: it names the API's errors, and the API's modules are not needed to serve.
    const { explainError } = await import('../explain.js');
    const message = explainError(err);
    report({ type: 'failed', message });
    fail(message);
  }
}
