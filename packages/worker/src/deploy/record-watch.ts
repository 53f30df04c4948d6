/**
 * Keeps a serving worker's records running whoever closes them: the catalog's published document
 * (`$catalog:<catalog>`, republished when the worker's build is current) and its build's catalog record
 * (`$catalog:<catalog>@<buildId>`, recorded again). Each is watched by a long poll on its close event, so a record
 * terminated from outside comes back one round trip after it closed, with no periodic reads while it runs.
 */
import { catalogVersionWorkflowId, catalogWorkflowId } from '@skein/core';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import protoModule from '@temporalio/proto';
import pRetry from 'p-retry';
import type { Logger } from 'pino';
import { publishCatalog, recordVersionCatalog, type CatalogDocument } from './catalog.js';
import { describeDeployment } from './deployment.js';

/** `@temporalio/proto` is CommonJS: its namespace is read off the default export. */
const CLOSE_EVENT = protoModule.temporal.api.enums.v1.HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT;

/** How long to wait after a failed engine call before asking again, ms (doubling up to {@link MAX_RETRY_MS}). */
const RETRY_MS = 1_000;
const MAX_RETRY_MS = 10_000;
/** How often to look again while the catalog has no published document and this worker's build is not current, ms. */
const IDLE_LOOK_MS = 5_000;
/** Shortest time between two restorations of one record, ms: a record closed in a loop costs at most this rate. */
const MIN_RESTORE_GAP_MS = 500;

/** What a serving worker keeps running. */
export interface WatchedRecords {
  catalog: string;
  /** The deployment (name and build ID) the worker serves. */
  deployment: { name: string; buildId: string };
  /** The document its build serves, republished as it is (with a new `publishedAt`). */
  doc: CatalogDocument;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Waits until run `runId` of `workflowId` closes (true), or until `signal` aborts (false); long polls the engine
 * (each poll ends after the engine's long-poll window and is asked again).
 * @throws the engine's error.
 */
async function closed(client: Client, workflowId: string, runId: string, signal: AbortSignal): Promise<boolean> {
  let token: Uint8Array | undefined;
  while (!signal.aborted) {
    try {
      const res = await client.withAbortSignal(signal, () =>
        client.workflowService.getWorkflowExecutionHistory({
          namespace: client.options.namespace,
          execution: { workflowId, runId },
          waitNewEvent: true,
          historyEventFilterType: CLOSE_EVENT,
          skipArchival: true,
          ...(token ? { nextPageToken: token } : {}),
        }),
      );
      if (res.history?.events?.length) return true;
      token = res.nextPageToken?.length ? res.nextPageToken : undefined;
    } catch (err) {
      if (signal.aborted) return false;
      throw err;
    }
  }
  return false;
}

/** The running run of `workflowId`, or undefined when none runs. @throws the engine's error but "not found". */
async function runningRun(client: Client, workflowId: string): Promise<string | undefined> {
  try {
    const d = await client.workflow.getHandle(workflowId).describe();
    return d.status.name === 'RUNNING' ? d.runId : undefined;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

/**
 * Keeps one record running: waits for its running run to close, then `restore()`s it when `wanted()` says so;
 * loops until `signal` aborts. A round that fails (the engine briefly unreachable) is reported through `onError` and
 * asked again after 1 s, doubling up to 10 s.
 */
async function keepRunning(
  client: Client,
  workflowId: string,
  hooks: { wanted: () => Promise<boolean>; restore: () => Promise<void>; onRestored: () => void; onError: (err: unknown) => void },
  signal: AbortSignal,
): Promise<void> {
  let lastRestore = 0;
  /** One round: wait for the running run to close, or restore the record (or look again later). */
  const round = async () => {
    const runId = await runningRun(client, workflowId);
    if (runId) return void (await closed(client, workflowId, runId, signal));
    if (signal.aborted) return;
    if (!(await hooks.wanted())) return pause(IDLE_LOOK_MS, signal);
    await pause(Math.max(0, lastRestore + MIN_RESTORE_GAP_MS - Date.now()), signal);
    if (signal.aborted) return;
    await hooks.restore();
    lastRestore = Date.now();
    hooks.onRestored();
  };
  while (!signal.aborted) {
    await pRetry(round, {
      retries: Number.POSITIVE_INFINITY,
      minTimeout: RETRY_MS,
      maxTimeout: MAX_RETRY_MS,
      signal,
      onFailedAttempt: ({ error }) => {
        if (!signal.aborted) hooks.onError(error);
      },
    }).catch(() => {}); // only an abort ends the retries: the loop ends with it
  }
}

/**
 * Watches `records` until the returned function is called: when the catalog's published document closes (a worker
 * stopping, an operator, or any client of the namespace terminated it) and the worker's build is current, the
 * document is published again; when the build's catalog record closes, it is recorded again. A replacement by
 * another build's worker (a rollout) is a new running document, which is watched in turn.
 * @returns stop: ends both watches (call it before a clean stop retires the records). Never throws.
 */
export function watchRecords(client: Client, records: WatchedRecords, logger: Logger): () => void {
  const controller = new AbortController();
  const { catalog, deployment, doc } = records;
  const onError = (err: unknown) => logger.warn({ err, catalog }, 'could not watch the catalog records; retrying');
  void keepRunning(
    client,
    catalogWorkflowId(catalog),
    {
      wanted: async () => (await describeDeployment(client, deployment.name))?.current === deployment.buildId,
      restore: () => publishCatalog(client, { ...doc, publishedAt: Date.now() }),
      onRestored: () => logger.warn({ catalog, deployment }, `the catalog "${catalog}" was closed while this worker serves it: published again`),
      onError,
    },
    controller.signal,
  );
  void keepRunning(
    client,
    catalogVersionWorkflowId(catalog, deployment.buildId),
    {
      wanted: async () => true,
      restore: () => recordVersionCatalog(client, doc),
      onRestored: () =>
        logger.warn({ catalog, deployment }, `the catalog record of build ${deployment.buildId} was closed while this worker serves it: recorded again`),
      onError,
    },
    controller.signal,
  );
  return () => controller.abort();
}
