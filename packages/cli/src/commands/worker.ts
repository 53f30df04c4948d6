import path from 'node:path';
import { startWorker, WorkerStartupError } from '@skein/worker';
import { cliLogger, fail } from '../logger.js';
import { onShutdownSignal } from './signals.js';

/** `skein worker [projectDir]`: serves the project's workflows on `SKEIN_CATALOG` until SIGINT/SIGTERM. */
export async function workerCommand(projectDir = '.'): Promise<void> {
  const logger = cliLogger('skein-worker');
  try {
    const worker = await startWorker({ projectDir: path.resolve(projectDir), logger });
    onShutdownSignal(() => worker.shutdown());
    await worker.done;
  } catch (err) {
    if (err instanceof WorkerStartupError) fail(err.message);
    fail(`worker stopped: ${(err as Error).message}`);
  }
}
