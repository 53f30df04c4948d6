/**
 * Who serves a catalog, from the engine itself (docs/architecture.md "Catalogs"): the workers that poll its
 * task queue (`DescribeTaskQueue` pollers, each with the build it runs). Workers of several builds share a
 * catalog during a rollout (Worker Versioning keeps each run on its build); a worker retires the catalog, or its
 * build's records, when it is the last to stop cleanly.
 */
import { CATALOG_STOPPED_MEMO_KEY, CATALOG_WORKER_STOPPED_SIGNAL, catalogLeaseWorkflowId, catalogWorkflowId } from '@skein/core';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import protoModule from '@temporalio/proto';

/**
 * A poller counts as live when the engine saw it poll within this many ms. An idle worker re-polls at least
 * every minute (Temporal's long-poll expiry), so a worker that crashed still counts as live for up to 70 s.
 */
export const LIVE_POLLER_WINDOW_MS = 70_000;

/** One worker polling a catalog's task queue. */
export interface LivePoller {
  identity: string;
  /** Epoch ms of its last poll. */
  lastAccessTime: number;
  /** The build ID it polls as (Worker Versioning), or null for an unversioned worker. */
  buildId: string | null;
}

const ms = (t: { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined): number =>
  t ? Number(typeof t.seconds === 'number' ? t.seconds : (t.seconds?.toNumber() ?? 0)) * 1000 + Math.floor((t.nanos ?? 0) / 1e6) : 0;

/** `@temporalio/proto` is CommonJS: its namespace is read off the default export. */
const { temporal } = protoModule;

/**
 * The workers polling `catalog`'s workflow task queue within {@link LIVE_POLLER_WINDOW_MS}.
 * @throws the engine's error when the task queue cannot be described.
 */
export async function livePollers(client: Client, catalog: string, now = Date.now()): Promise<LivePoller[]> {
  const res = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: catalog, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  return (res.pollers ?? [])
    .map((p) => ({ identity: p.identity ?? '', lastAccessTime: ms(p.lastAccessTime as never), buildId: p.deploymentOptions?.buildId || null }))
    .filter((p) => now - p.lastAccessTime <= LIVE_POLLER_WINDOW_MS);
}

/** What a clean stop retired: the catalog itself (no other live worker), and whether this was its build's last worker. */
export interface Retired {
  catalog: boolean;
  lastOfBuild: boolean;
}

/**
 * Clean shutdown: tells `$catalog:<catalog>` this worker stopped (the engine keeps listing its pollers for a
 * while; the signal lets the other workers discount them), then terminates `$catalog:<catalog>` so that the
 * catalog stops answering as available at once, unless another live worker that has not stopped still polls
 * it (a replica, or a worker of another build during a rollout, keeps it). Also says whether another live
 * worker of `buildId` remains (the caller then keeps the build's lease and records).
 * Bounded by `timeoutMs`; never throws (a failure reports nothing retired: the lease then times out).
 */
export async function retireCatalog(client: Client, catalog: string, identity: string, buildId: string, timeoutMs = 3_000): Promise<Retired> {
  const handle = client.workflow.getHandle(catalogWorkflowId(catalog));
  try {
    return await client.withDeadline(Date.now() + timeoutMs, async () => {
      const [description, pollers] = await Promise.all([
        handle.describe().catch((err: unknown) => {
          if (err instanceof WorkflowNotFoundError) return undefined;
          throw err;
        }),
        livePollers(client, catalog),
      ]);
      const running = description?.status.name === 'RUNNING';
      const memo = description?.memo?.[CATALOG_STOPPED_MEMO_KEY];
      const stopped = new Set(Array.isArray(memo) ? (memo as string[]) : []);
      // A worker of another build counts while its build's lease runs: the last worker of a build ends the lease
      // when it stops cleanly (the engine lists its pollers for a while longer, and its stop signal may wait on
      // a workflow task that no live worker takes).
      const otherBuilds = [...new Set(pollers.map((p) => p.buildId).filter((b): b is string => b !== null && b !== buildId))];
      const leased = new Set(
        (
          await Promise.all(
            otherBuilds.map(async (b) => {
              const lease = await client.workflow
                .getHandle(catalogLeaseWorkflowId(catalog, b))
                .describe()
                .catch(() => undefined);
              return lease?.status.name === 'RUNNING' ? b : undefined;
            }),
          )
        ).filter((b) => b !== undefined),
      );
      const others = pollers.filter(
        (p) => p.identity !== identity && !stopped.has(p.identity) && (p.buildId === null || p.buildId === buildId || leased.has(p.buildId)),
      );
      const lastOfBuild = !others.some((p) => p.buildId === buildId);
      if (others.length > 0) {
        if (running) await handle.signal(CATALOG_WORKER_STOPPED_SIGNAL, identity);
        return { catalog: false, lastOfBuild };
      }
      if (running) await handle.terminate('the last worker serving this catalog stopped');
      return { catalog: running, lastOfBuild: true };
    });
  } catch {
    return { catalog: false, lastOfBuild: false };
  }
}
