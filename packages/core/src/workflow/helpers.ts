/**
 * Workflow helpers of the workflow-safe entry (issue "Workflow helpers"), all deterministic and replay-safe:
 * `sleep` is a Temporal timer, `executeInParallel` pure promise scheduling, and signals, queries, updates and
 * `condition` are Temporal's own, re-exported so authors need no direct `@temporalio/workflow` dependency.
 */
import { sleep as temporalSleep } from '@temporalio/workflow';
import { durationMs, type Duration } from '../shared/duration.js';

export { condition, defineQuery, defineSignal, defineUpdate, setHandler } from '@temporalio/workflow';
// Changing a running workflow's code safely (see docs/deploying.md): `patched(id)` is true for runs that reach
// the change on code that has it and false while an older history replays; `deprecatePatch(id)` once no such
// history remains.
export { patched, deprecatePatch } from '@temporalio/workflow';
export * from '../shared/parallel.js';

/**
 * Waits `duration` on a durable Temporal timer (it survives worker restarts; replay does not wait again).
 * @param duration milliseconds, or a string such as `'3s'`, `'2m'`, `'1 hour'`.
 * @throws TypeError (rejected promise) for anything else, e.g. `sleep('soon')`: the run fails with that name.
 */
export async function sleep(duration: Duration): Promise<void> {
  await temporalSleep(durationMs(duration, 'sleep()'));
}
