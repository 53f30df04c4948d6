/**
 * `@skein/core/hooks`: the hook-file API under the seed system's subpath and names. Hook files (package.json
 * `skein.hookFiles`) register here; the worker loads them in Node before it starts polling. The same functions are
 * exported by the package root too.
 */
import { onBeforeStart, type HookCallback } from './registry.js';

export { onWorkflowStart, onWorkflowEnd, onWorkflowError, onActivityStart, onActivityEnd, onActivityError, onError, on, emit } from './registry.js';
export { onBeforeStart } from './registry.js';
export type * from './types.js';
export type { HookCallback, LifecycleHooks } from './registry.js';

/**
 * Runs `cb` once before the worker starts polling (awaited), as `onBeforeStart` does; the seed system's name.
 * The payload names the catalog and its workflows. Returns an unsubscribe function.
 */
export function onBeforeWorkerStart(cb: HookCallback<{ eventId: string; eventDate: number; catalog: string; workflows: string[] }>): () => void {
  return onBeforeStart(cb);
}
