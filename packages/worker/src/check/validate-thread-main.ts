/** Entry of the validation thread (see `validateIsolated`): validates `workerData.projectDir`, posts the result. */
import { parentPort, workerData } from 'node:worker_threads';
import { validate } from '@skein/validator';
import { recordingFileSystem } from '../cache/recording-fs.js';

const { projectDir, cacheFile, shapes } = workerData as { projectDir: string; cacheFile?: string; shapes: boolean };
try {
  const recorder = recordingFileSystem();
  const cacheWarnings: string[] = [];
  const report = await validate(projectDir, {
    fs: recorder.fs,
    cache: cacheFile ? { file: cacheFile, onWarning: (m) => cacheWarnings.push(m) } : undefined,
    shapes,
  });
  parentPort!.postMessage({ report, observations: recorder.observations(), cacheWarnings });
} catch (err) {
  const e = err as Error;
  parentPort!.postMessage({ error: { name: e.name, message: e.message, stack: e.stack } });
}
