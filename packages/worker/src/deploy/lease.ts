/**
 * Skein's own liveness lease of a build: an execution `$lease:<catalog>@<buildId>` on the records task queue
 * (no worker runs it) with an execution timeout of `CATALOG_LEASE_TTL_MS`. Every live worker of the build
 * replaces it when it is older than `CATALOG_LEASE_RENEW_MS`; once the last one dies (even by `kill -9`) the
 * lease times out, and the API stops accepting runs for the catalog within seconds rather than after
 * Temporal's 70 s poller window. A clean stop of the last worker ends the lease at once.
 */
import { CATALOG_LEASE_RENEW_MS, CATALOG_LEASE_TTL_MS, CATALOG_LEASE_WORKFLOW_TYPE, RECORDS_TASK_QUEUE, catalogLeaseWorkflowId } from '@skein/core';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';

/** A running lease renewal; `stop()` ends the renewals (and, with `release`, the lease itself). */
export interface LeaseKeeper {
  /** Stops renewing; `release: true` also terminates the lease (the last worker of the build stopping cleanly). Never throws. */
  stop(options?: { release?: boolean }): Promise<void>;
}

/**
 * Renews the lease of `buildId` on `catalog` now and every `CATALOG_LEASE_RENEW_MS` ms until stopped.
 * Renewal failures (the engine briefly unreachable) are reported through `onError` and retried at the next tick.
 * @returns once the first renewal was attempted.
 */
export async function keepLease(client: Client, catalog: string, buildId: string, onError: (err: unknown) => void): Promise<LeaseKeeper> {
  const workflowId = catalogLeaseWorkflowId(catalog, buildId);
  let stopped = false;
  const renew = async () => {
    try {
      const d = await client.workflow
        .getHandle(workflowId)
        .describe()
        .catch((err: unknown) => {
          if (err instanceof WorkflowNotFoundError) return undefined;
          throw err;
        });
      // A young running lease is kept; anything else under the lease's id (an execution of another type, on another
      // task queue) is replaced by the real one.
      const ours = d?.type === CATALOG_LEASE_WORKFLOW_TYPE && d.taskQueue === RECORDS_TASK_QUEUE;
      if (d && ours && d.status.name === 'RUNNING' && Date.now() - d.startTime.getTime() < CATALOG_LEASE_RENEW_MS) return;
      await client.workflow.start(CATALOG_LEASE_WORKFLOW_TYPE, {
        workflowId,
        taskQueue: RECORDS_TASK_QUEUE,
        args: [],
        workflowExecutionTimeout: CATALOG_LEASE_TTL_MS,
        workflowIdConflictPolicy: 'TERMINATE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
    } catch (err) {
      if (!stopped) onError(err);
    }
  };
  await renew();
  const timer = setInterval(() => void renew(), CATALOG_LEASE_RENEW_MS);
  timer.unref();
  return {
    async stop(options = {}) {
      stopped = true;
      clearInterval(timer);
      if (options.release)
        await client.workflow
          .getHandle(workflowId)
          .terminate('the last worker of this build stopped')
          .catch(() => {});
    },
  };
}
