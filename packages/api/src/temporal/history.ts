import type { Client } from '@temporalio/client';
import type { temporal as T } from '@temporalio/proto';
import { validationError } from '../errors.js';
import { engineError, GRPC, grpcCode } from './engine.js';
import { eventToJson } from './events.js';
import type { HistoryCursor } from './history-token.js';
import { describeRun, type RunInfo } from './runs.js';

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

function rememberOversized(key: string, page: RawPage): void {
  const now = Date.now();
  for (const [k, v] of oversized) if (now - v.at > OVERSIZED_TTL_MS || oversized.size >= OVERSIZED_MAX) oversized.delete(k);
  oversized.set(key, { at: now, page });
}

/**
 * Reads the next page of a run's history after `cursor` (SPEC "History" and long-poll rules 1–4).
 * The run is described in parallel with the engine read (for `workflow` metadata and to know where history ends).
 * At the end of a running run's history the read long-polls for `longPollMs` when given; on timeout the page is
 * empty and `next` is the cursor unchanged. At the end of a closed run `next` is null.
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
    let token = cursor.t ? Buffer.from(cursor.t, 'base64') : undefined;
    const describing = describeRun(client, cursor.w, cursor.r);
    const deadline = options.longPollMs !== undefined ? Date.now() + options.longPollMs : undefined;
    let info: RunInfo | undefined;
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
    for (;;) {
      const usedToken = token ? Buffer.from(token).toString('base64') : null;
      const key = cacheKey(cursor, usedToken, options.pageSize);
      const cached = oversized.get(key);
      let res: RawPage | undefined = cached && Date.now() - cached.at < OVERSIZED_TTL_MS ? cached.page : undefined;
      if (!res) {
        try {
          const r = await client.withAbortSignal(fetchAbort.signal, () =>
            client.workflowService.getWorkflowExecutionHistory({
              namespace: client.options.namespace,
              execution: { workflowId: cursor.w, runId: cursor.r },
              maximumPageSize: options.pageSize,
              waitNewEvent: true,
              skipArchival: true,
              ...(token ? { nextPageToken: token } : {}),
            }),
          );
          res = { events: r.history?.events ?? [], nextPageToken: r.nextPageToken?.length ? r.nextPageToken : null };
        } catch (err) {
          if (options.signal?.aborted) throw options.signal.reason;
          if (!fetchAbort.signal.aborted) {
            if (grpcCode(err) === GRPC.INVALID_ARGUMENT) {
              throw validationError('Invalid pageToken', [{ code: 'invalid_page_token', path: ['query', 'pageToken'], message: 'the engine rejected the token' }]);
            }
            throw engineError(err, cursor.w);
          }
          res = undefined;
        }
      }
      const ri = info ?? (await describing);
      if (!res) {
        // End of history (no long-poll, or it timed out): same cursor, no events; null at the end of a closed run.
        return { info: ri, events: [], next: ri.status !== 'running' && cursor.n > ri.historyLength ? null : cursor };
      }
      const all = res.events;
      const fresh = all.filter((e) => Number(e.eventId) >= cursor.n);
      const nextToken = res.nextPageToken ? Buffer.from(res.nextPageToken).toString('base64') : null;
      if (fresh.length === 0 && nextToken) {
        // Skipping events already delivered (a resume), or the engine's own long-poll expired: keep reading.
        if (all.length > 0 || (deadline !== undefined && Date.now() < deadline)) {
          token = Buffer.from(res.nextPageToken!);
          continue;
        }
      }
      const closed = ri.status !== 'running';
      const truncated = fresh.length > options.pageSize;
      const raw = truncated ? fresh.slice(0, options.pageSize) : fresh;
      if (truncated) rememberOversized(key, res);
      let next: HistoryCursor | null;
      if (raw.length === 0) {
        next = closed && cursor.n > ri.historyLength ? null : cursor;
      } else {
        const n = Number(raw[raw.length - 1]!.eventId) + 1;
        if (truncated) next = { w: cursor.w, r: cursor.r, n, t: usedToken };
        else if (closed && n > ri.historyLength) next = null;
        else if (nextToken === null) next = closed ? null : { w: cursor.w, r: cursor.r, n, t: null };
        else next = { w: cursor.w, r: cursor.r, n, t: nextToken };
      }
      return { info: ri, events: raw.map((e) => eventToJson(e, options.includePayloads)), next };
    }
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
