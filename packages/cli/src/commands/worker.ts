import path from 'node:path';
import { beginStartupCheck, type ProjectCheck } from '@skein/worker/check';
import type { WorkerMessage } from '../dev/protocol.js';
import { onShutdownSignal } from './signals.js';

/**
 * `skein worker [projectDir] [--rolling-deploy] [--metrics-port <port>]`: serves the project's workflows on
 * `SKEIN_CATALOG` until SIGINT/SIGTERM. `--rolling-deploy` lets it start next to a live worker of another catalog
 * version (as `SKEIN_ROLLING_DEPLOY=1`; without either, such a start is refused). `--metrics-port` serves
 * Prometheus metrics there (as `SKEIN_METRICS_PORT`).
 * Started by `skein dev` with an IPC channel, it also reports `ready` or `failed` (`WorkerMessage`) to its
 * parent and stops when the parent goes away.
 * The project's startup check begins before the worker's modules (Temporal's SDK) load: a changed project's
 * validation runs in its thread meanwhile.
 */
export async function workerCommand(projectDir = '.', options: { rollingDeploy?: boolean; metricsPort?: number } = {}): Promise<void> {
  const report = (message: WorkerMessage) => process.send?.(message);
  // Started by `skein dev`: when the parent goes away (even while starting), stop too.
  let stopOnDisconnect: () => void = () => process.exit(1);
  if (process.send) process.once('disconnect', () => stopOnDisconnect());
  const dir = path.resolve(projectDir);
  let check: ProjectCheck | undefined;
  try {
    check = beginStartupCheck(dir);
  } catch {
    check = undefined; // startWorker begins it again and reports what fails
  }
  const [{ startWorker, loadMetricsConfig }, { cliLogger, fail }] = await Promise.all([import('@skein/worker'), import('../logger.js')]);
  const logger = cliLogger('skein-worker');
  try {
    const metrics = options.metricsPort === undefined ? undefined : loadMetricsConfig({ ...process.env, SKEIN_METRICS_OTLP: '', SKEIN_METRICS_PORT: String(options.metricsPort) });
    const worker = await startWorker({
      projectDir: dir,
      logger,
      ...(check ? { check } : {}),
      ...(options.rollingDeploy ? { rollingDeploy: true } : {}),
      ...(metrics ? { metrics } : {}),
    });
    stopOnDisconnect = () => process.kill(process.pid, 'SIGTERM');
    report({
      type: 'ready',
      catalog: worker.catalog,
      workflows: worker.catalogDocument.workflows.map((w) => w.name),
      roots: [worker.manifest.root, ...worker.manifest.packages.map((p) => p.root)],
      startup: { totalMs: worker.startup.totalMs, bundleMs: worker.startup.bundleMs, bundleCache: worker.startup.bundleCache },
      metricsUrl: worker.metrics?.kind === 'prometheus' ? worker.metrics.url : null,
    });
    onShutdownSignal(() => worker.shutdown(), (line) => logger.info(line));
    await worker.done;
  } catch (err) {
    // Loaded on failure only: it names the API's errors, and the API's modules are not needed to serve.
    const { explainError } = await import('../explain.js');
    const message = explainError(err);
    report({ type: 'failed', message });
    fail(message);
  }
}
