/**
 * `@skein/worker/check`: the worker's startup check alone, without Temporal's SDK, so that a process can start
 * validating a project (in a thread) before it loads the rest of the worker, and hand the check to
 * `startWorker({ check })`.
 */
import { openStartupCaches, startupCacheDir } from '../cache/startup-caches.js';
import { beginProjectCheck, type ProjectCheck } from './validate.js';

export type { ProjectCheck } from './validate.js';
export { looksLikeBuild, BUILD_RECORD } from '../deploy/build/build-files.js';
export { beginProjectCodeCheck } from '../deploy/build/project-code.js';

/**
 * Begins the startup check of `projectDir` as `startWorker` would (same startup cache: `options.startupCache`,
 * else `SKEIN_STARTUP_CACHE`, else `<projectDir>/.skein/startup`): the cached outcome of an unchanged project,
 * or a validation started in its thread now. Pass the result to `startWorker({ projectDir, check })`.
 */
export function beginStartupCheck(projectDir: string, options: { startupCache?: string | false } = {}): ProjectCheck {
  const dir = startupCacheDir(projectDir, options.startupCache);
  return beginProjectCheck(projectDir, dir === false ? undefined : openStartupCaches(dir));
}
