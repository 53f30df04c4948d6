import { defineRoute, type Deps } from '../route.js';
import { idParams, runParams } from '../schemas/common.js';
import { historyPageSchema, historyQuerySchema, latestHistoryQuerySchema } from '../schemas/history.js';
import { readHistoryPage, workflowMeta } from '../temporal/history.js';
import type { HistoryCursor } from '../temporal/history-token.js';
import { describeRun } from '../temporal/runs.js';
import type { z } from 'zod';
import type Koa from 'koa';
import type { ApiState } from '../route.js';

type Query = z.output<typeof historyQuerySchema>;

async function page(ctx: Koa.ParameterizedContext<ApiState>, deps: Deps, workflowId: string, runId: string | undefined, query: Query) {
  let cursor: HistoryCursor;
  if (query.pageToken) {
    cursor = deps.historyTokens.decode(query.pageToken, { workflowId, runId });
  } else {
    const rid = runId ?? (await describeRun(deps.client, workflowId)).runId;
    cursor = { w: workflowId, r: rid, t: null, o: 0, n: 1 };
  }
  ctx.state.runId = cursor.r;
  const longPollMs = query.longPollTimeoutMs === undefined ? undefined : Math.min(query.longPollTimeoutMs, deps.config.historyMaxWaitMs);
  const closed = longPollMs === undefined ? undefined : deps.metrics.opened('long_poll');
  let result;
  try {
    result = await readHistoryPage(deps.client, cursor, {
      pageSize: query.pageSize,
      includePayloads: query.includePayloads,
      longPollMs,
      signal: ctx.state.signal,
      // A shutdown answers a waiting long-poll at once, as its timeout would: the client asks another process.
      stopWaiting: deps.closing,
    });
  } finally {
    closed?.();
  }
  // The events are JSON text already (rendered once per cached engine event), so the body is assembled as text in
  // the shape of `historyPageSchema`, key order included, rather than built as objects and serialized again.
  const head = JSON.stringify({ workflow: workflowMeta(result.info), runId: cursor.r });
  const nextPageToken = JSON.stringify(result.next ? deps.historyTokens.encode(result.next) : null);
  ctx.type = 'application/json';
  ctx.body = `${head.slice(0, -1)},"events":[${result.events.map((e) => e.json).join(',')}],"nextPageToken":${nextPageToken}}`;
}

const description =
  'Paged engine history. `pageToken` is the opaque `nextPageToken` of the previous page: it carries its run and ' +
  'is signed by the API (a changed token, or one from an API process with another SKEIN_HISTORY_TOKEN_KEY, is a 400). ' +
  'Existing events always come back at once. Without `longPollTimeoutMs`, `nextPageToken` is null once a page ' +
  'reaches the current end of the history, for open runs too, so following tokens until null always ends. ' +
  'With `longPollTimeoutMs`, a read at the end of an open run waits for the next event for up to that many ms, ' +
  'clamped to the server maximum (SKEIN_HISTORY_MAX_WAIT_MS); on timeout it answers `events: []` and the same ' +
  'cursor; `nextPageToken` is null only at the end of a closed run. Events carry `eventTypeName` and, on activity ' +
  'events, `stepName`.';

export const historyRoutes = [
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/history',
    operationId: 'getLatestHistory',
    summary: 'History of the latest run (paged)',
    description,
    tag: 'History',
    params: idParams,
    query: latestHistoryQuerySchema,
    responses: { 200: { description: 'A page of history', schema: historyPageSchema } },
    errors: ['WorkflowNotFoundError'],
    async handler({ ctx, deps, params, query }) {
      await page(ctx, deps, params.id, query.runId, query);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/runs/{rid}/history',
    operationId: 'getRunHistory',
    summary: 'History of one run (paged)',
    description,
    tag: 'History',
    params: runParams,
    query: historyQuerySchema,
    responses: { 200: { description: 'A page of history', schema: historyPageSchema } },
    errors: ['WorkflowNotFoundError'],
    async handler({ ctx, deps, params, query }) {
      await page(ctx, deps, params.id, params.rid, query);
    },
  }),
];
