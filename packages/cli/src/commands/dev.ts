import path from 'node:path';
import { createApiServer, loadApiConfig } from '@skein/api';
import { startWorker, WorkerStartupError, type SkeinWorker } from '@skein/worker';
import { cliLogger, fail } from '../logger.js';
import { startDevServer, type DevServer } from '../temporal/dev-server.js';
import { locateTemporal } from '../temporal/locate.js';
import { onShutdownSignal } from './signals.js';

/** Options of `skein dev`. */
export interface DevOptions {
  /** Serve Temporal's Web UI on this port (default: headless). */
  ui?: number;
  /** gRPC port of the embedded dev server. Default 7233. */
  temporalPort?: number;
  /** Where dev state lives (the dev server's SQLite file, traces). Default `<projectDir>/.skein`. */
  dataDir?: string;
}

/**
 * `skein dev [projectDir]`: the embedded Temporal dev server (SQLite file `temporal.sqlite` in the data
 * directory, default `<projectDir>/.skein/`, so executions survive a restart; skipped when `TEMPORAL_ADDRESS`
 * is set), a worker on the project (traces in `<data dir>/traces` unless `SKEIN_TRACE_DIR` is set), and the API
 * on `PORT`. Ctrl-C stops all three.
 */
export async function devCommand(projectDir = '.', options: DevOptions = {}): Promise<void> {
  const root = path.resolve(projectDir);
  const dataDir = path.resolve(options.dataDir ?? path.join(root, '.skein'));
  const logger = cliLogger('skein');
  let devServer: DevServer | undefined;
  let worker: SkeinWorker | undefined;
  let api: Awaited<ReturnType<typeof createApiServer>> | undefined;
  const stopAll = async () => {
    await api?.close().catch(() => {});
    await worker?.shutdown().catch(() => {});
    await devServer?.stop();
  };
  process.on('exit', () => devServer?.process.kill('SIGKILL'));
  try {
    let address = process.env.TEMPORAL_ADDRESS;
    if (!address) {
      const temporal = await locateTemporal({ install: true, log: (l) => logger.info(l) });
      const engineLog = logger.child({ name: 'temporal' });
      devServer = await startDevServer({
        binary: temporal.path,
        dbFile: path.join(dataDir, 'temporal.sqlite'),
        port: options.temporalPort ?? 7233,
        uiPort: options.ui,
        onOutput: (line) => engineLog.debug(line),
      });
      address = devServer.address;
      logger.info(`Temporal dev server on ${address}${options.ui ? `, Web UI http://127.0.0.1:${options.ui}` : ''} (${temporal.version.split('\n')[0]})`);
    } else {
      logger.info(`using the Temporal server at ${address}`);
    }
    worker = await startWorker({
      projectDir: root,
      engine: { address },
      logger: logger.child({ name: 'worker' }),
      traceDir: process.env.SKEIN_TRACE_DIR ?? path.join(dataDir, 'traces'),
      // A dev restart after a crash finds the previous instance's pollers still listed for up to 70 s: a new
      // version of the same project takes over the catalog instead of refusing to start.
      rollingDeploy: true,
    });
    // trace-log reads only under the API's trace directory: the one this worker writes to.
    const apiEnv = { ...process.env, TEMPORAL_ADDRESS: address, ...(worker.traceDir ? { SKEIN_TRACE_DIR: worker.traceDir } : {}) };
    api = await createApiServer(loadApiConfig(apiEnv), { logger: logger.child({ name: 'api' }) });
    api.onFatal((reason) => {
      logger.fatal({ reason }, 'engine connection lost; shutting down');
      void stopAll().finally(() => process.exit(1));
    });
    const { url } = await api.listen();
    logger.info(`Skein is up: API ${url}, catalog "${worker.catalog}", workflows: ${worker.catalogDocument.workflows.map((w) => w.name).join(', ')}`);
    onShutdownSignal(stopAll);
    await worker.done;
  } catch (err) {
    await stopAll();
    if (err instanceof WorkerStartupError) fail(err.message);
    fail((err as Error).message.split('\n')[0] ?? 'failed');
  }
}
