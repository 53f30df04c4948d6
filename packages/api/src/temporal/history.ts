import { LRUCache } from 'lru-cache';
import type { Client } from '@temporalio/client';
import type { temporal as T } from '@temporalio/proto';
import { validationError } from '../errors.js';
import { engineError, GRPC, grpcCode } from './engine.js';
import { eventToJson } from './events.js';
import { temporal, toNumber } from './proto.js';
import { stepNames } from './step-names.js';
import type { HistoryCursor } from './history-token.js';
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
  events: Record<string, unknown>[];
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
}

class Aborted extends Error {}

type RawPage = { events: T.api.history.v1.IHistoryEvent[]; nextPageToken: Uint8Array | null };

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
 * The engine returns whole event batches, so one engine page can hold more events than the caller's `pageSize`.
 * Such a page is kept here (a few seconds, a few pages) so the following API pages slice it instead of
 * re-reading it. History before the end of a run never changes, so a cached page cannot go stale, provided it is
 * not the last page of an open run as it stood when read (that one is never cached).
 */
const OVERSIZED_TTL_MS = 30_000;
const OVERSIZED_MAX = 16;
const oversized = new LRUCache<string, RawPage>({ max: OVERSIZED_MAX, ttl: OVERSIZED_TTL_MS });

/** Key of an engine page: the run, the engine token and the page size. */
function cacheKey(c: HistoryCursor, token: string | null, pageSize: number): string {
  return `${c.w}\u0000${c.r}\u0000${token ?? ''}\u0000${pageSize}`;
}

/**
 * Read-ahead for closed runs: when a page of a closed run has a successor, the successor engine page is
 * requested at once, so a client paging through a long history overlaps its own round trips with the engine's.
 */
const readAhead = new LRUCache<string, Promise<RawPage>>({ max: OVERSIZED_MAX, ttl: OVERSIZED_TTL_MS });
/** How many engine pages a closed-run read requests ahead of the client. */
const READ_AHEAD_PAGES = 2;

function startReadAhead(client: Client, c: HistoryCursor, token: string, pageSize: number, depth = READ_AHEAD_PAGES): void {
  const key = cacheKey(c, token, pageSize);
  if (readAhead.has(key) || oversized.has(key)) return;
  const promise = client
    .withDeadline(Date.now() + 10_000, () =>
      client.workflowService.getWorkflowExecutionHistory({
        namespace: client.options.namespace,
        execution: { workflowId: c.w, runId: c.r },
        maximumPageSize: pageSize,
        // A closed run never waits; a token taken while the run was open only sees the rest of it with this set.
        waitNewEvent: true,
        skipArchival: true,
        nextPageToken: Buffer.from(token, 'base64'),
      }),
    )
    .then((r) => {
      const page = { events: r.history?.events ?? [], nextPageToken: r.nextPageToken?.length ? r.nextPageToken : null };
      if (page.nextPageToken && depth > 1) startReadAhead(client, c, Buffer.from(page.nextPageToken).toString('base64'), pageSize, depth - 1);
      return page;
    });
  promise.catch(() => readAhead.delete(key));
  readAhead.set(key, promise);
}

function rememberOversized(key: string, page: RawPage): void {
  oversized.set(key, page);
}

/**
 * Reads the next page of a run's history after `cursor` (paging and long-poll rules: docs/reference/api-contract.md,
 * "Endpoints"): up to `pageSize` events, gathered from as many engine pages as needed (the engine
 * returns whole event batches, so its pages rarely line up with ours). The run is described in parallel (for
 * `workflow` metadata and to know where history ends).
 *
 * - Existing events always come back at once, with or without `longPollMs`.
 * - Without `longPollMs`, a read at the end answers at once (the engine's wait is cut short as soon as the run's
 *   description shows the read is at the end), and `next` is null once the page reaches the current end of the
 *   history, for open runs too (as Temporal's own paging does), so a client following tokens always stops.
 * - With `longPollMs`, a read that is at the end of an open run's history waits up to `longPollMs` for the next
 *   event (the bound starts once the read is at the end, never before); on timeout the page is empty and `next` is
 *   the cursor unchanged. A page that reaches the end of an open run returns a cursor, so the caller can wait again.
 * - At the end of a closed run `next` is null in both modes.
 *
 * Events are rendered by {@link eventToJson}, with `stepName` on activity events.
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
  /** Starts the long-poll bound: only once the read is at the end of an open run (existing events never wait). */
  const startWait = () => {
    if (wait && !timer) timer = setTimeout(() => fetchAbort.abort(new Aborted('long-poll timeout')), longPollMs);
  };
  try {
    if (options.signal?.aborted) throw options.signal.reason;
    const describing = describeRun(client, cursor.w, cursor.r);
    let info: RunInfo | undefined = cachedClosedRun(cursor.w, cursor.r);
    describing.then(
      (i) => {
        info = i;
        if (cursor.n <= i.historyLength) return;
        if (i.status !== 'running' || !wait) fetchAbort.abort(new Aborted('end of history'));
        else startWait();
      },
      () => fetchAbort.abort(new Aborted('describe failed')),
    );

    /** One engine page at `token` (from the oversized-page cache when possible); undefined when the read was cut short. */
    const rawPage = async (token: string | null): Promise<{ page: RawPage; key: string } | undefined> => {
      const key = cacheKey(cursor, token, options.pageSize);
      const cached = oversized.get(key);
      if (cached) return { page: cached, key };
      const ahead = readAhead.get(key);
      if (ahead) {
        readAhead.delete(key);
        const page = await ahead.catch(() => undefined);
        if (page) return { page, key };
      }
      try {
        const r = await client.withAbortSignal(fetchAbort.signal, () =>
          client.workflowService.getWorkflowExecutionHistory({
            namespace: client.options.namespace,
            execution: { workflowId: cursor.w, runId: cursor.r },
            maximumPageSize: options.pageSize,
            // The engine answers existing events at once and only waits at the end of an open run's history; a
            // read that must not wait is cut short there (above). Without it, the engine would never look past
            // the end a continuation token recorded.
            waitNewEvent: true,
            skipArchival: true,
            ...(token ? { nextPageToken: Buffer.from(token, 'base64') } : {}),
          }),
        );
        return { page: { events: r.history?.events ?? [], nextPageToken: r.nextPageToken?.length ? r.nextPageToken : null }, key };
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
    /** Where the engine read resumes after the last delivered event: a token (null = from the start), or 'end'. */
    let after: { t: string | null } | 'end' | undefined;
    for (;;) {
      const got = await rawPage(token);
      if (!got) break;
      const { page, key } = got;
      if (page.nextPageToken && info && info.status !== 'running') {
        startReadAhead(client, cursor, Buffer.from(page.nextPageToken).toString('base64'), options.pageSize);
      }
      // An empty page while long-polling means the engine waited: the read is at the end.
      if (page.events.length === 0) startWait();
      const fresh = page.events.filter((e) => toNumber(e.eventId) > lastId);
      const room = options.pageSize - out.length;
      if (fresh.length > room) {
        out.push(...fresh.slice(0, room));
        lastId = toNumber(out[out.length - 1]!.eventId);
        // The rest of this engine page is served from the cache next time, unless it is the last page of an open
        // run's history as it stood (no token): that one grows, so the next read asks the engine again.
        if (page.nextPageToken || (info && info.status !== 'running')) rememberOversized(key, page);
        after = { t: token };
        break;
      }
      out.push(...fresh);
      if (fresh.length) lastId = toNumber(fresh[fresh.length - 1]!.eventId);
      const nextToken = page.nextPageToken ? Buffer.from(page.nextPageToken).toString('base64') : null;
      if (fresh.length || page.events.length) after = nextToken ? { t: nextToken } : 'end';
      if (!nextToken || out.length >= options.pageSize) break;
      if (out.length === 0) {
        // Skipping events already delivered (a resume), or (long-polling) the engine's own wait expired: keep reading.
        if (page.events.length === 0 && !wait) break;
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
    const atEnd = closeSeen || after === 'end' || lastId >= ri.historyLength;
    let next: HistoryCursor | null;
    if (atEnd && (closed || !wait)) next = null;
    else if (out.length === 0) next = cursor;
    else if (after === 'end') next = { w: cursor.w, r: cursor.r, n: lastId + 1, t: null };
    else next = { w: cursor.w, r: cursor.r, n: lastId + 1, t: after ? after.t : cursor.t };
    const names = await stepNames(client, cursor.w, cursor.r, out, options.signal);
    return { info: ri, events: out.map((e) => eventToJson(e, options.includePayloads, names.get(toNumber(e.eventId)))), next };
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
