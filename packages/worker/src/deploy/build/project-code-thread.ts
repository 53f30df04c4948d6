/** Entry of the project check thread (see `beginProjectCodeCheck`): computes the build ID of `workerData.buildDir`'s project, posts it. */
import { parentPort, workerData } from 'node:worker_threads';
import { buildDirProjectBuildId } from './project-code.js';

try {
  parentPort!.postMessage({ buildId: await buildDirProjectBuildId((workerData as { buildDir: string }).buildDir) });
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  parentPort!.postMessage({ error: { message: e.message, ...(e.code ? { code: e.code } : {}) } });
}
