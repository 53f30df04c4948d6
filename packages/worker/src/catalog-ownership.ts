/**
 * Who serves a catalog, from the engine itself (docs/architecture.md "Catalogs"): the workers that poll its
 * task queue (`DescribeTaskQueue` pollers) and the document the newest of them published in the memo of
 * `$catalog:<catalog>`. A worker claims the catalog at start (refusing a catalog that a live worker of a
 * different project serves, unless it is a deliberate rolling deploy) and retires it at a clean shutdown.
 */
import { CATALOG_STOPPED_MEMO_KEY, CATALOG_WORKER_STOPPED_SIGNAL, catalogWorkflowId } from '@skein/core';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import protoModule from '@temporalio/proto';
import type { CatalogDocument, CatalogVersionEntry } from './catalog.js';
import { WorkerStartupError } from './errors.js';

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
    .map((p) => ({ identity: p.identity ?? '', lastAccessTime: ms(p.lastAccessTime as never) }))
    .filter((p) => now - p.lastAccessTime <= LIVE_POLLER_WINDOW_MS);
}

/** A catalog's published document (the memo of its running `$catalog`) and the identities of workers that stopped. */
export interface PublishedCatalog {
  doc: CatalogDocument;
  stopped: Set<string>;
}

/**
 * The running `$catalog` document of `catalog` and the identities of workers that stopped, or undefined.
 * @throws the engine's error when the execution cannot be described.
 */
export async function publishedCatalog(client: Client, catalog: string): Promise<PublishedCatalog | undefined> {
  try {
    const d = await client.workflow.getHandle(catalogWorkflowId(catalog)).describe();
    const doc = d.memo?.catalog as CatalogDocument | undefined;
    if (d.status.name !== 'RUNNING' || !doc) return undefined;
    const stopped = d.memo?.[CATALOG_STOPPED_MEMO_KEY];
    return { doc, stopped: new Set(Array.isArray(stopped) ? (stopped as string[]) : []) };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

/**
 * Checks that this worker may serve `doc.catalog` before it polls, and returns the versions it must keep
 * listing next to its own (`doc.previous`).
 * - No running catalog, the same version (a replica or a restart), or a different version that no worker polls
 *   any more: the worker takes the catalog; nothing older is kept.
 * - A different version while some worker (that has not stopped) still polls: refused, unless `rollingDeploy`, in
 *   which case the older versions stay listed; the API serves their names while their publishers still poll.
 * `options.published`: the catalog's document as read earlier by `publishedCatalog` (default: read now).
 * @throws WorkerStartupError naming the catalog, both versions and the way out.
 */
export async function claimCatalog(
  client: Client,
  doc: CatalogDocument,
  options: { rollingDeploy: boolean; published?: Promise<PublishedCatalog | undefined> },
): Promise<CatalogVersionEntry[]> {
  const found = await (options.published ?? publishedCatalog(client, doc.catalog));
  if (!found || found.doc.version === doc.version) return [];
  const current = found.doc;
  const live = (await livePollers(client, doc.catalog)).filter((p) => !found.stopped.has(p.identity));
  if (live.length === 0) return [];
  if (!options.rollingDeploy) {
    const names = (current.workflows ?? []).map((w) => w.name).join(', ');
    throw new WorkerStartupError(
      `Catalog "${doc.catalog}" is served by another live worker (${live[0]!.identity}) with a different project ` +
        `(catalog version ${String(current.version).slice(0, 12)}, workflows: ${names}; this worker's version is ${doc.version.slice(0, 12)}). ` +
        'Stop that worker, use another catalog (SKEIN_CATALOG), or, if this is a deliberate rolling deploy, start it with --rolling-deploy (SKEIN_ROLLING_DEPLOY=1).',
    );
  }
  const liveIds = new Set(live.map((p) => p.identity));
  return [
    { version: current.version, identity: current.identity, workflows: current.workflows, sharedActivities: current.sharedActivities },
    ...(current.previous ?? []),
  ].filter((e) => e.version !== doc.version && liveIds.has(e.identity));
}

/**
 * Clean shutdown: tells `$catalog:<catalog>` this worker stopped (the engine keeps listing its pollers for a
 * while; the signal lets the other workers discount them), then terminates `$catalog:<catalog>` so that the
 * catalog stops answering as available, unless another live worker that has not stopped still polls it (a
 * replica, or the other side of a rolling deploy, keeps it).
 * Bounded by `timeoutMs`; never throws (a failure leaves the poller check to report the catalog gone in 70 s).
 * @returns whether the catalog was retired.
 */
export async function retireCatalog(client: Client, catalog: string, identity: string, timeoutMs = 3_000): Promise<boolean> {
  const handle = client.workflow.getHandle(catalogWorkflowId(catalog));
  try {
    return await client.withDeadline(Date.now() + timeoutMs, async () => {
      const [description, pollers] = await Promise.all([handle.describe(), livePollers(client, catalog)]);
      if (description.status.name !== 'RUNNING') return false;
      const stopped = new Set(Array.isArray(description.memo?.[CATALOG_STOPPED_MEMO_KEY]) ? (description.memo[CATALOG_STOPPED_MEMO_KEY] as string[]) : []);
      const others = pollers.filter((p) => p.identity !== identity && !stopped.has(p.identity));
      if (others.length > 0) {
        await handle.signal(CATALOG_WORKER_STOPPED_SIGNAL, identity);
        return false;
      }
      await handle.terminate('the last worker serving this catalog stopped');
      return true;
    });
  } catch {
    return false;
  }
}
