import type { Client } from '@temporalio/client';
import type { temporal as T } from '@temporalio/proto';
import { validationError } from '../errors.js';
import { engineError, GRPC, grpcCode } from './engine.js';
import { eventToJson } from './events.js';
import { toNumber } from './proto.js';
import type { HistoryCursor } from './history-token.js';
import { cachedClosedRun, describeRun, type RunInfo } from './runs.js';

/** `workflow` metadata of a history page or stream (CONTRACT "History"). */
export interface WorkflowMeta {
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  status: RunInfo['status'];
  startedAt: number;
  completedAt: number | null;
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
    historyLength: info.historyLength,
  };
}

/** One page of history. `next` is null at the end of a closed run. */
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

/**
 * The engine returns whole event batches, so one engine page can hold more events than the caller's `pageSize`.
 * Such a page is kept here (a few seconds, a few pages) so the following API pages slice it instead of
 * re-reading it. History before the end of a run never changes, so a cached page cannot go stale.
 */
const oversized = new Map<string, { at: number; page: RawPage }>();
const OVERSIZED_TTL_MS = 30_000;
const OVERSIZED_MAX = 16;

function cacheKey(c: HistoryCursor, token: string | null, pageSize: number): string {
  return `${c.w}\u0000${c.r}\u0000${token ?? ''}\u0000${pageSize}`;
}

/**
 * Read-ahead for closed runs: when a page of a closed run has a successor, the successor engine page is
 * requested at once, so a client paging through a long history overlaps its own round trips with the engine's.
 */
const readAhead = new Map<string, { at: number; promise: Promise<RawPage> }>();
/** How many engine pages a closed-run read requests ahead of the client. */
const READ_AHEAD_PAGES = 2;

function startReadAhead(client: Client, c: HistoryCursor, token: string, pageSize: number, depth = READ_AHEAD_PAGES): void {
  const key = cacheKey(c, token, pageSize);
  if (readAhead.has(key) || oversized.has(key)) return;
  const now = Date.now();
  for (const [k, v] of readAhead) if (now - v.at > OVERSIZED_TTL_MS || readAhead.size >= OVERSIZED_MAX) readAhead.delete(k);
  const promise = client
    .withDeadline(now + 10_000, () =>
      client.workflowService.getWorkflowExecutionHistory({
        namespace: client.options.namespace,
        execution: { workflowId: c.w, runId: c.r },
        maximumPageSize: pageSize,
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
  readAhead.set(key, { at: now, promise });
}

function rememberOversized(key: string, page: RawPage): void {
  const now = Date.now();
  for (const [k, v] of oversized) if (now - v.at > OVERSIZED_TTL_MS || oversized.size >= OVERSIZED_MAX) oversized.delete(k);
  oversized.set(key, { at: now, page });
}

/**
 * Reads the next page of a run's history after `cursor` (SPEC "History" and long-poll rules 1–4): up to
 * `pageSize` events, gathered from as many engine pages as needed (the engine returns whole event batches, so
 * its pages rarely line up with ours). The run is described in parallel (for `workflow` metadata and to know
 * where history ends). At the end of a running run's history the read long-polls for `longPollMs` when given;
 * on timeout the page is empty and `next` is the cursor unchanged. At the end of a closed run `next` is null.
 * @throws ApiError `WorkflowNotFoundError`, `ValidationError` (engine rejected the token), `InternalError`;
 *   the signal's reason when aborted.
 */
export async function readHistoryPage(client: Client, cursor: HistoryCursor, options: PageOptions): Promise<HistoryPage> {
  const fetchAbort = new AbortController();
  const onAbort = () => fetchAbort.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    if (options.signal?.aborted) throw options.signal.reason;
    const describing = describeRun(client, cursor.w, cursor.r);
    const deadline = options.longPollMs !== undefined ? Date.now() + options.longPollMs : undefined;
    let info: RunInfo | undefined = cachedClosedRun(cursor.w, cursor.r);
    describing.then(
      (i) => {
        info = i;
        const atEnd = cursor.n > i.historyLength;
        if (atEnd && (i.status !== 'running' || deadline === undefined)) fetchAbort.abort(new Aborted('end of history'));
      },
      () => fetchAbort.abort(new Aborted('describe failed')),
    );
    if (deadline !== undefined) {
      timer = setTimeout(() => fetchAbort.abort(new Aborted('long-poll timeout')), Math.max(0, deadline - Date.now()));
    }

    /** One engine page at `token` (from the oversized-page cache when possible); undefined when the read was cut short. */
    const rawPage = async (token: string | null): Promise<{ page: RawPage; key: string } | undefined> => {
      const key = cacheKey(cursor, token, options.pageSize);
      const cached = oversized.get(key);
      if (cached && Date.now() - cached.at < OVERSIZED_TTL_MS) return { page: cached.page, key };
      const ahead = readAhead.get(key);
      if (ahead) {
        readAhead.delete(key);
        const page = await ahead.promise.catch(() => undefined);
        if (page) return { page, key };
      }
      try {
        const r = await client.withAbortSignal(fetchAbort.signal, () =>
          client.workflowService.getWorkflowExecutionHistory({
            namespace: client.options.namespace,
            execution: { workflowId: cursor.w, runId: cursor.r },
            maximumPageSize: options.pageSize,
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
      const fresh = page.events.filter((e) => toNumber(e.eventId) > lastId);
      const room = options.pageSize - out.length;
      if (fresh.length > room) {
        out.push(...fresh.slice(0, room));
        lastId = toNumber(out[out.length - 1]!.eventId);
        rememberOversized(key, page);
        after = { t: token }; // the rest of this engine page is served from the cache next time
        break;
      }
      out.push(...fresh);
      if (fresh.length) lastId = toNumber(fresh[fresh.length - 1]!.eventId);
      const nextToken = page.nextPageToken ? Buffer.from(page.nextPageToken).toString('base64') : null;
      if (fresh.length || page.events.length) after = nextToken ? { t: nextToken } : 'end';
      if (!nextToken || out.length >= options.pageSize) break;
      if (out.length === 0) {
        // Skipping events already delivered (a resume), or the engine's own long-poll expired: keep reading.
        if (page.events.length > 0 || (deadline !== undefined && Date.now() < deadline)) {
          token = nextToken;
          continue;
        }
        break;
      }
      // Some events, room for more: read on only if the run already has more (never long-poll with events in hand).
      const ri = info ?? (await describing);
      if (lastId >= ri.historyLength) break;
      token = nextToken;
    }

    const ri = info ?? (await describing);
    const closed = ri.status !== 'running';
    let next: HistoryCursor | null;
    if (out.length === 0) {
      next = closed && cursor.n > ri.historyLength ? null : cursor;
    } else {
      const n = lastId + 1;
      if (closed && n > ri.historyLength) next = null;
      else if (after === 'end') next = closed ? null : { w: cursor.w, r: cursor.r, n, t: null };
      else next = { w: cursor.w, r: cursor.r, n, t: after ? after.t : cursor.t };
    }
    return { info: ri, events: out.map((e) => eventToJson(e, options.includePayloads)), next };
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
