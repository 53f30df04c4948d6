/**
 * `patched` and `deprecatePatch` for workflow code run in plain Node (a workflow's unit test calling it
 * directly): there is no recorded history to stay compatible with, so the newest code path always runs.
 * Inside the worker's sandbox the workflow-safe entry gives Temporal's own functions instead.
 */

/**
 * Whether this run takes the code path guarded by `patchId`. In plain Node: always `true`.
 * @param patchId a name for the change, unique in the workflow, kept while older runs may replay it.
 */
export function patched(patchId: string): boolean {
  void patchId;
  return true;
}

/**
 * Marks `patchId` as no longer needed by any running history (the older path was removed). In plain Node: does nothing.
 * @param patchId the name given to `patched()`.
 */
export function deprecatePatch(patchId: string): void {
  void patchId;
}
