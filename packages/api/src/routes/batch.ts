import { defineRoute } from '../route.js';
import { batchCountSchema, batchListQuerySchema, batchListSchema, batchParams, batchRequestSchema, batchSchema, batchStartedSchema } from '../schemas/batch.js';
import { batchTarget, describeBatch, listBatches, startBatch } from '../temporal/batch.js';

export const batchRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflow/batch',
    operationId: 'startBatch',
    summary: 'Terminate, cancel, signal or reset many executions',
    description:
      "Applies `operation` to every execution a visibility `query` matches among the runs of one catalog (`catalog`, default the API's), " +
      'or to the latest run of each of `workflowIds`, as one Temporal batch operation. Skein counts the matches first: `dryRun` answers ' +
      '200 `{ matched }` and changes nothing; otherwise 202 `{ batchId, matched }`, and the engine works through them (progress at ' +
      '`GET /workflow/batch/{batchId}`). A query the engine refuses is a 400 carrying its reason. The namespace runs a bounded number ' +
      'of batch jobs at once (Temporal: one by default): 429 with `Retry-After` beyond it.',
    tag: 'Batch',
    body: batchRequestSchema,
    responses: {
      200: { description: 'Dry run: what the batch would reach', schema: batchCountSchema },
      202: { description: 'Started', schema: batchStartedSchema },
    },
    errors: ['TooManyBatchOperationsError', 'PayloadTooLargeError'],
    async handler({ ctx, deps, body }) {
      const target = await batchTarget(deps.client, body, deps.config.defaultCatalog);
      if (body.dryRun) {
        ctx.body = { matched: target.matched };
        return;
      }
      const batchId = await startBatch(deps.client, body, target);
      ctx.status = 202;
      ctx.body = { batchId, matched: target.matched };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflow/batch',
    operationId: 'listBatches',
    summary: 'List batch operations',
    description: "The namespace's batch operations, most recent first, each with its progress.",
    tag: 'Batch',
    query: batchListQuerySchema,
    responses: { 200: { description: 'Batch operations', schema: batchListSchema } },
    async handler({ ctx, deps, query }) {
      ctx.body = await listBatches(deps.client, query.pageSize, query.pageToken);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflow/batch/{batchId}',
    operationId: 'getBatch',
    summary: 'Progress of a batch operation',
    description: '`state` is `running` until the engine has applied the operation to every execution reached; `total`, `completed` and `failed` count them.',
    tag: 'Batch',
    params: batchParams,
    responses: { 200: { description: 'Progress', schema: batchSchema } },
    errors: ['BatchNotFoundError'],
    async handler({ ctx, deps, params }) {
      ctx.body = await describeBatch(deps.client, params.batchId);
    },
  }),
];
