import { PassThrough } from 'node:stream';
import type Koa from 'koa';
import { ApiError, exposedMessage } from '../errors.js';
import { defineRoute, type ApiState, type Deps } from '../route.js';
import { idParams, runParams } from '../schemas/common.js';
import { latestStreamQuerySchema, streamHeadersSchema, streamQuerySchema } from '../schemas/history.js';
import { readHistoryPage, workflowMeta } from '../temporal/history.js';
import type { HistoryCursor } from '../temporal/history-token.js';
import { describeRun } from '../temporal/runs.js';

/** Engine long-poll per read while a stream waits at the end of history. */
const STREAM_POLL_MS = 30_000;

function frame(event: string, data: unknown, id?: number): string {
  return rawFrame(event, JSON.stringify(data), id);
}

/** An SSE frame whose data is JSON text already (one line: JSON.stringify never emits a raw newline). */
function rawFrame(event: string, json: string, id?: number): string {
  return `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${json}\n\n`;
}

/**
 * Streams a run's history as server-sent events (docs/reference/api-contract.md, "Endpoints"): `workflow` once, `history` per
 * event (`id:` = event id), `done` with the closing status; a keep-alive comment every 15 s; resumes after
 * `Last-Event-ID` (or `?lastEventId=`). The stream ends when the run closes, the client disconnects (every engine
 * call is released at once) or the server shuts down.
 */
async function stream(
  ctx: Koa.ParameterizedContext<ApiState>,
  deps: Deps,
  workflowId: string,
  runId: string | undefined,
  lastEventId: number | undefined,
  includePayloads: boolean,
) {
  const after = lastEventId ?? 0;
  const info = await describeRun(deps.client, workflowId, runId);
  ctx.state.runId = info.runId;

  const signal = AbortSignal.any([ctx.state.signal, deps.closing]);
  const out = new PassThrough();
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  ctx.body = out;
  // One `close` listener each: the request's abort signal, log line, metrics, span and the server's in-flight count,
  // Koa's end-of-body handling, and its piping of this stream (added when the handler returns): more than Node's
  // default of 10 for one response, a fixed number, not a leak.
  ctx.res.setMaxListeners(20);

  const write = (chunk: string) => {
    if (!out.writableEnded && !out.destroyed) out.write(chunk);
  };
  const closed = deps.metrics.opened('sse');
  out.once('close', closed);
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), deps.config.sseKeepAliveMs);
  write(frame('workflow', workflowMeta(info)));

  void (async () => {
    let cursor: HistoryCursor | null = { w: workflowId, r: info.runId, t: null, o: 0, n: after + 1 };
    try {
      while (cursor && !signal.aborted) {
        const page = await readHistoryPage(deps.client, cursor, { pageSize: 50, includePayloads, longPollMs: STREAM_POLL_MS, signal });
        for (const e of page.events) write(rawFrame('history', e.json, e.eventId));
        cursor = page.next;
        if (!cursor) {
          write(frame('done', { workflowId, runId: info.runId, status: page.info.status }));
        }
      }
    } catch (err) {
      if (!signal.aborted) {
        ctx.state.log?.error({ err, workflowId }, 'history stream failed');
        const e = err instanceof ApiError ? err : new ApiError('InternalError');
        write(frame('error', { error: e.type, message: exposedMessage(e), workflowId }));
      }
    } finally {
      clearInterval(keepAlive);
      out.end();
      closed();
    }
  })();
}

const description =
  'Server-sent events: `event: workflow` (metadata, once), `event: history` per event with `id: <eventId>` ' +
  '(the same event JSON as the paged history, with `eventTypeName` and `stepName`), then `event: done` with the ' +
  'closing status. A comment line keeps idle streams alive every 15 s. `Last-Event-ID` (or `lastEventId`) resumes ' +
  'after that event.';

export const streamRoutes = [
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/history/stream',
    operationId: 'streamLatestHistory',
    summary: 'Stream the history of the latest run (SSE)',
    description,
    tag: 'History',
    params: idParams,
    query: latestStreamQuerySchema,
    headers: streamHeadersSchema,
    responses: { 200: { description: 'An event stream', contentType: 'text/event-stream' } },
    errors: ['WorkflowNotFoundError'],
    async handler({ ctx, deps, params, query, headers }) {
      await stream(ctx, deps, params.id, query.runId, headers['last-event-id'] ?? query.lastEventId, query.includePayloads);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/runs/{rid}/history/stream',
    operationId: 'streamRunHistory',
    summary: 'Stream the history of one run (SSE)',
    description,
    tag: 'History',
    params: runParams,
    query: streamQuerySchema,
    headers: streamHeadersSchema,
    responses: { 200: { description: 'An event stream', contentType: 'text/event-stream' } },
    errors: ['WorkflowNotFoundError'],
    async handler({ ctx, deps, params, query, headers }) {
      await stream(ctx, deps, params.id, params.rid, headers['last-event-id'] ?? query.lastEventId, query.includePayloads);
    },
  }),
];
