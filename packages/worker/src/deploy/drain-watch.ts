/**
 * `skein worker --exit-when-drained`: watches the worker's own build in its deployment and reports once Temporal
 * says it is drained (no open run pinned to it) while it is neither current nor ramping.
 */
import type { Client } from '@temporalio/client';
import { describeDeployment } from './deployment.js';

/** How often the deployment is read, ms. Temporal itself re-checks drainage on its own (minutes-long) schedule. */
export const DRAIN_CHECK_INTERVAL_MS = 5_000;

/**
 * Calls `onDrained` once, the first time build `version.buildId` of deployment `version.name` is drained and not
 * current or ramping; read errors go to `onError` and the next check retries.
 * @returns a function that stops watching.
 */
export function watchDrainage(
  client: Client,
  version: { name: string; buildId: string },
  handlers: { onDrained: () => void; onError: (err: unknown) => void },
  intervalMs = DRAIN_CHECK_INTERVAL_MS,
): () => void {
  let done = false;
  const check = async () => {
    try {
      const state = await describeDeployment(client, version.name);
      const own = state?.versions.find((v) => v.buildId === version.buildId);
      if (done || !state || !own || state.current === version.buildId || state.ramping?.buildId === version.buildId) return;
      if (own.state === 'drained' || own.drainage === 'drained') {
        done = true;
        clearInterval(timer);
        handlers.onDrained();
      }
    } catch (err) {
      if (!done) handlers.onError(err);
    }
  };
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  return () => {
    done = true;
    clearInterval(timer);
  };
}
