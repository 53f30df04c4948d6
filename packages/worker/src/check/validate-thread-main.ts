/**
 * Entry of the validation thread (see `validateIsolated`): validates `workerData.projectDir`, posts the discovered
 * manifest first when asked (`manifestEarly`), then the result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { recordValidation, type ThreadMessage, type ValidationRequest } from './validate-thread.js';

const { projectDir, request } = workerData as { projectDir: string; request: ValidationRequest & { manifestEarly?: boolean } };
const post = (message: ThreadMessage) => parentPort!.postMessage(message);
try {
  post(await recordValidation(projectDir, request, request.manifestEarly ? (manifest) => post({ manifest }) : undefined));
} catch (err) {
  const e = err as Error;
  parentPort!.postMessage({ error: { name: e.name, message: e.message, stack: e.stack } });
}
