/**
 * Skein's own liveness lease of a build: an execution `$lease:<catalog>@<buildId>` on the records task queue
 * (no worker runs it) with an execution timeout of `CATALOG_LEASE_TTL_MS`. Every live worker of the build
 * replaces it when it is older than `CATALOG_LEASE_RENEW_MS`; once the last one dies (even by `kill -9`) the
 * lease times out, and the API stops accepting runs for the catalog within seconds rather than after
 * Temporal's 70 s poller window. A clean stop of the last worker ends the lease at once.
 *
 * The lease also carries the local trace folder of each live worker of the build, in its memo (`traceDirs`, see
 * {@link leaseTraceDirs}): workers of one build may write different folders (the build ID leaves the folder out),
 * and the catalog document names only its publisher's. The API reads a run's trace from any of them.
 */
import { CATALOG_LEASE_RENEW_MS, CATALOG_LEASE_TTL_MS, CATALOG_LEASE_WORKFLOW_TYPE, RECORDS_TASK_QUEUE, catalogLeaseWorkflowId } from '@skein/core';
import { CATALOG_LEASE_TRACE_DIR_TTL_MS, CATALOG_LEASE_TRACE_DIRS_MEMO_KEY, isLiveLease } from '@skein/names';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';

/** A worker writes its folder again once its entry is older than this, ms (well within the TTL). */
const LEASE_TRACE_DIR_REFRESH_MS = 10_000;

/** Most folders one lease lists (a fleet of one build writing to more folders than this is not expected). */
const LEASE_TRACE_DIRS_MAX = 32;

/** One listed folder: the folder and when (epoch ms, the writing worker's clock) a worker last wrote it. */
export interface LeaseTraceDir {
  dir: string;
  at: number;
}

/**
 * The folders a lease's memo lists that are still fresh at `now` (written within {@link CATALOG_LEASE_TRACE_DIR_TTL_MS},
 * and not stamped in the future beyond that either), then `own` (when given) stamped `now`, newest first, at most
 * {@link LEASE_TRACE_DIRS_MAX}. Entries that are not `{ dir: string, at: number }` are dropped, so a worker never
 * carries forward what it cannot read, and a folder nobody writes again leaves the list within the TTL.
 */
export function leaseTraceDirs(memo: unknown, own: string | null, now: number): LeaseTraceDir[] {
  const listed = Array.isArray(memo) ? memo : [];
  const fresh = listed.filter(
    (e): e is LeaseTraceDir =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as LeaseTraceDir).dir === 'string' &&
      typeof (e as LeaseTraceDir).at === 'number' &&
      Math.abs(now - (e as LeaseTraceDir).at) <= CATALOG_LEASE_TRACE_DIR_TTL_MS &&
      (e as LeaseTraceDir).dir !== own,
  );
  const all = own === null ? fresh : [{ dir: own, at: now }, ...fresh];
  const seen = new Set<string>();
  return all
    .sort((a, b) => b.at - a.at)
    .filter((e) => !seen.has(e.dir) && seen.add(e.dir))
    .slice(0, LEASE_TRACE_DIRS_MAX);
}

/** A running lease renewal; `stop()` ends the renewals (and, with `release`, the lease itself). */
export interface LeaseKeeper {
  /** Stops renewing; `release: true` also terminates the lease (the last worker of the build stopping cleanly). Never throws. */
  stop(options?: { release?: boolean }): Promise<void>;
}

/**
 * Renews the lease of `buildId` on `catalog` now and every `CATALOG_LEASE_RENEW_MS` ms until stopped. A worker with
 * a local trace folder (`traceDir`) also keeps it listed in the lease: it replaces a young lease too when its folder
 * is missing there (a lease another worker wrote meanwhile) or due to be written again, carrying over the other
 * workers' fresh folders ({@link leaseTraceDirs}). Two workers replacing the lease at the same moment may drop each
 * other's folder; each writes it back at its next renewal.
 * Renewal failures (the engine briefly unreachable) are reported through `onError` and retried at the next tick.
 * @returns once the first renewal was attempted.
 */
export async function keepLease(
  client: Client,
  catalog: string,
  buildId: string,
  onError: (err: unknown) => void,
  traceDir: string | null = null,
): Promise<LeaseKeeper> {
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
      const ours = d !== undefined && isLiveLease(d);
      const now = Date.now();
      const listed = ours ? d.memo?.[CATALOG_LEASE_TRACE_DIRS_MEMO_KEY] : undefined;
      const mine = traceDir === null ? undefined : leaseTraceDirs(listed, null, now).find((e) => e.dir === traceDir);
      const folderCurrent = traceDir === null || (mine !== undefined && now - mine.at < LEASE_TRACE_DIR_REFRESH_MS);
      if (d && ours && now - d.startTime.getTime() < CATALOG_LEASE_RENEW_MS && folderCurrent) return;
      const traceDirs = leaseTraceDirs(listed, traceDir, now);
      await client.workflow.start(CATALOG_LEASE_WORKFLOW_TYPE, {
        workflowId,
        taskQueue: RECORDS_TASK_QUEUE,
        args: [],
        ...(traceDirs.length ? { memo: { [CATALOG_LEASE_TRACE_DIRS_MEMO_KEY]: traceDirs } } : {}),
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

/**
 * Whether a live worker of build `buildId` holds its lease on `catalog` (renewed within `CATALOG_LEASE_TTL_MS`): what
 * the API asks before it serves the catalog's current build, for `skein deploy` to warn before routing runs to a
 * build that no worker serves.
 * @throws the engine's error, except a lease that does not exist (false)
 */
export async function buildLeaseAlive(client: Client, catalog: string, buildId: string): Promise<boolean> {
  try {
    return isLiveLease(await client.workflow.getHandle(catalogLeaseWorkflowId(catalog, buildId)).describe());
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
