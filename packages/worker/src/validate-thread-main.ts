/** Entry of the validation thread (see `validateIsolated`): validates `workerData.projectDir`, posts the result. */
import { parentPort, workerData } from 'node:worker_threads';
import { validate } from '@skein/validator';

const { projectDir } = workerData as { projectDir: string };
try {
  parentPort!.postMessage({ report: await validate(projectDir) });
} catch (err) {
  const e = err as Error;
  parentPort!.postMessage({ error: { name: e.name, message: e.message, stack: e.stack } });
}
