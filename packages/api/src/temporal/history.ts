import type { Client } from '@temporalio/client';
import type { temporal as T } from '@temporalio/proto';
import { validationError } from '../errors.js';
import { engineError, GRPC, grpcCode } from './engine.js';
import { renderEvent, type RenderedEvent } from './events.js';
import { temporal, toNumber } from './proto.js';
import { stepNames } from './step-names.js';
import type { HistoryCursor } from './history-token.js';
import { EnginePageCache, type EnginePage } from './history-page-cache.js';
import { cachedClosedRun, describeRun, type RunInfo } from './runs.js';

/** `workflow` metadata of a history page or stream. */
export interface WorkflowMeta {
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  status: RunInfo['status'];
  /** Epoch ms. */
  startedAt: number;
  /** Epoch ms; null while running. */
  completedAt: number | null;
  /** ISO 8601 (the seed system's name and format for `startedAt`). */
  startTime: string;
  /** ISO 8601; null while running. */
  closeTime: string | null;
  historyLength: number;
}

/** Metadata view of a described run. */
export function workflowMeta(info: RunInfo): WorkflowMeta {
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    workflowType: info.workflowType,
    taskQueue: info.taskQueue,
    status: info.status,
    startedAt: info.startedAt,
    completedAt: info.completedAt,
    startTime: new Date(info.startedAt).toISOString(),
    closeTime: info.completedAt === null ? null : new Date(info.completedAt).toISOString(),
    historyLength: info.historyLength,
  };
}

/** One page of history. `next` is null once the page reaches the end of the history (see {@link readHistoryPage}). */
export interface HistoryPage {
  info: RunInfo;
  /** The page's events, rendered ({@link renderEvent}: each event's JSON text, kept with the engine page it came from). */
  events: RenderedEvent[];
  /** Cursor of the next page. */
  next: HistoryCursor | null;
}

/** Options of {@link readHistoryPage}. */
export interface PageOptions {
  pageSize: number;
  includePayloads: boolean;
  /** Long-poll at the end of history for up to this many ms (already clamped); undefined = answer at once. */
  longPollMs?: number | undefined;
  /** Aborts every engine call of the read (client disconnect, shutdown). */
  signal?: AbortSignal | undefined;
  /**
   * Ends a long-poll early, as its `longPollMs` would (the page comes back with the cursor unchanged), when it
   * aborts: the server's shutdown has begun. Existing events are still read.
   */
  stopWaiting?: AbortSignal | undefined;
}

class Aborted extends Error {}

const EventType = temporal.api.enums.v1.EventType;
/** Event types that close a run: nothing follows them. */
const CLOSE_EVENTS = new Set<number>([
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
]);

/**
 * Events asked of the engine per page of a closed run: one engine page then serves many API pages (the engine
 * returns whole event batches, so a page can hold more). An open run is read with the caller's page size, since
 * its last page is read again by every request that reaches it.
 */
const CLOSED_ENGINE_PAGE_SIZE = 1000;
/** Deadline of a read-ahead engine call (ms). */
const READ_AHEAD_DEADLINE_MS = 10_000;

/** The engine pages of this process (see {@link EnginePageCache}). */
const enginePages = new EnginePageCache();

/** Forgets every cached engine page (tests that compare against the engine). */
export function clearHistoryPageCache(): void {
  enginePages.clear();
}

const lastIdOf = (page: EnginePage): number => (page.events.length ? toNumber(page.events[page.events.length - 1]!.eventId) : 0);

function toEnginePage(r: T.api.workflowservice.v1.IGetWorkflowExecutionHistoryResponse): EnginePage {
  return {
    events: r.history?.events ?? [],
    nextPageToken: r.nextPageToken?.length ? Buffer.from(r.nextPageToken).toString('base64') : null,
  };
}

/** One `GetWorkflowExecutionHistory` call at `token` (base64, null for the first page). */
function engineRead(client: Client, cursor: HistoryCursor, token: string | null, pageSize: number) {
  return client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId: cursor.w, runId: cursor.r },
    maximumPageSize: pageSize,
    // The engine answers existing events at once and only waits at the end of an open run's history; a read that
    // must not wait is cut short there (by the caller). Without it, the engine would never look past the end a
    // continuation token recorded while the run was open.
    waitNewEvent: true,
    skipArchival: true,
    ...(token ? { nextPageToken: Buffer.from(token, 'base64') } : {}),
  });
}

/**
 * Reads the next page of a run's history at `cursor` (paging and long-poll rules: docs/api.md, "History"): up to
 * `pageSize` events, cut from the engine page that holds the cursor (`cursor.t`, from index `cursor.o`) and, when
 * that page ends first, from the following ones. Engine pages that can no longer change are kept
 * ({@link EnginePageCache}), so the following API pages are cut from the same engine page without another engine
 * call; reading a closed run also reads its next engine page ahead of the client. The run is described in parallel
 * (for `workflow` metadata and to know where history ends).
 *
 * - Existing events always come back at once, with or without `longPollMs`.
 * - Without `longPollMs`, a read at the end answers at once (the engine's wait is cut short as soon as the run's
 *   description shows the read is at the end), and `next` is null once the page reaches the current end of the
 *   history, for open runs too (as Temporal's own paging does), so a client following tokens always stops.
 * - With `longPollMs`, a read that is at the end of an open run's history waits up to `longPollMs` for the next
 *   event (the bound starts once the read is at the end, never before); on timeout the page is empty and `next` is
 *   the cursor unchanged. A page that reaches the end of an open run returns a cursor, so the caller can wait again.
 * - At the end of a closed run `next` is null in both modes.
 * - An event is never delivered twice: events below `cursor.n` are skipped whatever the engine page holds.
 *
 * Events are rendered by {@link renderEvent} (`eventToJson`'s object as JSON text, made once per cached engine event),
 * with `stepName` on activity events.
 * @throws ApiError `WorkflowNotFoundError`, `ValidationError` (engine rejected the token), `InternalError`;
 *   the signal's reason when aborted.
 */
export async function readHistoryPage(client: Client, cursor: HistoryCursor, options: PageOptions): Promise<HistoryPage> {
  const longPollMs = options.longPollMs;
  const wait = longPollMs !== undefined;
  const fetchAbort = new AbortController();
  const onAbort = () => fetchAbort.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const stopWaiting = () => fetchAbort.abort(new Aborted('server closing'));
  /** Starts the long-poll bound: only once the read is at the end of an open run (existing events never wait). */
  const startWait = () => {
    if (!wait || timer) return;
    timer = setTimeout(() => fetchAbort.abort(new Aborted('long-poll timeout')), longPollMs);
    if (options.stopWaiting?.aborted) stopWaiting();
    else options.stopWaiting?.addEventListener('abort', stopWaiting, { once: true });
  };
  try {
    if (options.signal?.aborted) throw options.signal.reason;
    let info: RunInfo | undefined = cachedClosedRun(cursor.w, cursor.r);
    const describing = info ? Promise.resolve(info) : describeRun(client, cursor.w, cursor.r);
    describing.then(
      (i) => {
        info = i;
        if (cursor.n <= i.historyLength) return;
        if (i.status !== 'running' || !wait) fetchAbort.abort(new Aborted('end of history'));
        else startWait();
      },
      () => fetchAbort.abort(new Aborted('describe failed')),
    );
    const knownClosed = () => info !== undefined && info.status !== 'running';
    /** Pages read from the engine by this request, stored once it is known whether they can still change. */
    const fresh: Array<{ token: string | null; page: EnginePage }> = [];

    /** The engine page at `token`: cached, read ahead, or read now; undefined when the read was cut short. */
    const pageAt = async (token: string | null): Promise<EnginePage | undefined> => {
      const cached = enginePages.get(cursor.w, cursor.r, token);
      if (cached) return cached;
      const ahead = await enginePages.pending(cursor.w, cursor.r, token);
      if (ahead) return ahead;
      try {
        const size = knownClosed() ? Math.max(CLOSED_ENGINE_PAGE_SIZE, options.pageSize) : options.pageSize;
        const page = toEnginePage(await client.withAbortSignal(fetchAbort.signal, () => engineRead(client, cursor, token, size)));
        fresh.push({ token, page });
        return page;
      } catch (err) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (fetchAbort.signal.aborted) return undefined;
        if (grpcCode(err) === GRPC.INVALID_ARGUMENT) {
          throw validationError('Invalid pageToken', [{ code: 'invalid_page_token', path: ['query', 'pageToken'], message: 'the engine rejected the token' }]);
        }
        throw engineError(err, cursor.w);
      }
    };

    const out: T.api.history.v1.IHistoryEvent[] = [];
    let lastId = cursor.n - 1;
    let token = cursor.t;
    /** Events of the page at `token` that are already delivered. */
    let skip = cursor.o;
    /** Where the next read resumes: the engine page and the offset into it. */
    let after: { t: string | null; o: number } | undefined;
    /** The last page read holds the current end of the history (it has no successor). */
    let reachedEnd = false;
    /** The page the read stopped in, and its token (to read its successor ahead). */
    let lastPage: EnginePage | undefined;
    for (;;) {
      const page = await pageAt(token);
      if (!page) break;
      lastPage = page;
      const events = page.events;
      // An empty page while long-polling means the engine waited: the read is at the end.
      if (events.length === 0) startWait();
      let i = Math.min(skip, events.length);
      while (i < events.length && toNumber(events[i]!.eventId) <= lastId) i++;
      const take = Math.min(options.pageSize - out.length, events.length - i);
      for (let k = 0; k < take; k++) out.push(events[i + k]!);
      i += take;
      if (take > 0) lastId = toNumber(out[out.length - 1]!.eventId);
      if (i < events.length) {
        // The page holds more: the next API page is cut from it.
        after = { t: token, o: i };
        break;
      }
      if (events.length > 0) after = page.nextPageToken ? { t: page.nextPageToken, o: 0 } : { t: token, o: events.length };
      const nextToken = page.nextPageToken;
      skip = Math.max(0, skip - events.length);
      if (!nextToken) {
        reachedEnd = true;
        break;
      }
      if (out.length >= options.pageSize) break;
      if (out.length === 0) {
        // Skipping events already delivered (a resume), or (long-polling) the engine's own wait expired: keep reading.
        if (events.length === 0 && !wait) break;
        token = nextToken;
        continue;
      }
      // Some events, room for more: read on only if the run already has more (never long-poll with events in hand).
      const ri = info ?? (await describing);
      if (lastId >= ri.historyLength) break;
      token = nextToken;
    }

    let ri = info ?? (await describing);
    const closeSeen = out.length > 0 && CLOSE_EVENTS.has(out[out.length - 1]!.eventType as number);
    // The run closed during the read: describe it again so the metadata says how it closed.
    if (closeSeen && ri.status === 'running') ri = await describeRun(client, cursor.w, cursor.r);
    const closed = closeSeen || ri.status !== 'running';
    // Keep the pages that can no longer change: those holding the close event, and those the run has events after
    // (an open run's last page grows, so it is read again).
    for (const { token: t, page } of fresh) {
      const last = page.events[page.events.length - 1];
      if (!last) continue;
      const holdsClose = CLOSE_EVENTS.has(last.eventType as number);
      if (holdsClose || (page.nextPageToken && lastIdOf(page) < ri.historyLength)) enginePages.set(cursor.w, cursor.r, t, page, closed);
    }
    // A client paging a closed run comes back for the next engine page: read it now.
    if (closed && lastPage?.nextPageToken) {
      const nextToken = lastPage.nextPageToken;
      enginePages.readAhead(cursor.w, cursor.r, nextToken, async () =>
        toEnginePage(await client.withDeadline(Date.now() + READ_AHEAD_DEADLINE_MS, () => engineRead(client, cursor, nextToken, CLOSED_ENGINE_PAGE_SIZE))),
      );
    }
    const atEnd = closeSeen || reachedEnd || lastId >= ri.historyLength;
    let next: HistoryCursor | null;
    if (atEnd && (closed || !wait)) next = null;
    else if (out.length === 0 || !after) next = cursor;
    else next = { w: cursor.w, r: cursor.r, t: after.t, o: after.o, n: lastId + 1 };
    const names = await stepNames(client, cursor.w, cursor.r, out, options.signal);
    return { info: ri, events: out.map((e) => renderEvent(e, options.includePayloads, names.get(toNumber(e.eventId)))), next };
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    options.stopWaiting?.removeEventListener('abort', stopWaiting);
  }
}
