/** Entry of the validation thread (see `validateIsolated`): validates `workerData.projectDir`, posts the result. */
import { parentPort, workerData } from 'node:worker_threads';
import { recordValidation, type ValidationRequest } from './validate-thread.js';

const { projectDir, request } = workerData as { projectDir: string; request: ValidationRequest };
try {
  parentPort!.postMessage(await recordValidation(projectDir, request));
} catch (err) {
  const e = err as Error;
  parentPort!.postMessage({ error: { name: e.name, message: e.message, stack: e.stack } });
}
