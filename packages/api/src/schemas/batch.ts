import { z } from 'zod';
import 'zod-openapi';
import { BATCH_OPERATIONS, BATCH_STATES, RESET_TYPES } from '../temporal/batch.js';
import { MAX_QUERY_LENGTH } from '../temporal/visibility-query.js';
import { boundedName, catalogNameSchema, handlerName, isoDateTime, queryInteger, workflowIdSchema } from './common.js';

/** Most executions one batch may name in `workflowIds`. */
export const MAX_BATCH_IDS = 1000;

/** `POST /workflow/batch` body: the operation, what it reaches (`query` xor `workflowIds`), its options. */
export const batchRequestSchema = z
  .object({
    operation: z.enum(BATCH_OPERATIONS).meta({ description: 'What to do to each execution reached' }),
    query: z.string().min(1).max(MAX_QUERY_LENGTH).optional().meta({
      description:
        "A visibility query (Temporal's list filter language), e.g. `ExecutionStatus = 'Running' AND WorkflowType = 'order'`; reaches only runs of `catalog`, never Skein's reserved records; one self-contained expression, no comments",
    }),
    workflowIds: z
      // The id schema refuses Skein's reserved records ($catalog:…, $lease:…), so a batch never reaches them.
      .array(workflowIdSchema)
      .min(1)
      .max(MAX_BATCH_IDS)
      .optional()
      .meta({ description: `The executions to reach (their latest runs), at most ${MAX_BATCH_IDS}` }),
    catalog: catalogNameSchema.optional().meta({ description: "With `query`: the catalog whose runs it reaches (default: the API's default catalog)" }),
    reason: z.string().min(1).max(1000).optional().meta({ description: 'Recorded with the operation on each execution (default `skein batch <operation>`)' }),
    signal: z
      .object({
        name: handlerName.meta({ description: 'The signal name (at most 200 UTF-8 bytes, not starting with `__`)' }),
        payload: z
          .record(z.string(), z.unknown())
          .optional()
          .meta({ description: "The signal handler's argument (an object), as `POST /workflow/{id}/signal/{signal}` takes it" }),
      })
      .optional()
      .meta({ description: 'Required with `operation: signal`' }),
    reset: z
      .object({ type: z.enum(RESET_TYPES).meta({ description: 'Reset each run to its first or its last completed workflow task' }) })
      .optional()
      .meta({ description: 'With `operation: reset` (default `last-workflow-task`)' }),
    dryRun: z.boolean().optional().meta({ description: 'Only count what the batch would reach (200 `{ matched }`); nothing changes' }),
  })
  .superRefine((b, ctx) => {
    if ((b.query === undefined) === (b.workflowIds === undefined)) {
      ctx.addIssue({ code: 'custom', path: [b.query === undefined ? 'query' : 'workflowIds'], message: 'Give exactly one of query and workflowIds' });
    }
    if (b.workflowIds !== undefined && b.catalog !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['catalog'], message: 'catalog applies to a query; workflowIds name their executions' });
    }
    if (b.operation === 'signal' && b.signal === undefined)
      ctx.addIssue({ code: 'custom', path: ['signal', 'name'], message: 'A signal batch needs signal.name' });
    if (b.operation !== 'signal' && b.signal !== undefined)
      ctx.addIssue({ code: 'custom', path: ['signal'], message: 'signal applies to operation signal only' });
    if (b.operation !== 'reset' && b.reset !== undefined) ctx.addIssue({ code: 'custom', path: ['reset'], message: 'reset applies to operation reset only' });
  })
  .meta({ id: 'BatchRequest' });

/** The dry run's answer. */
export const batchCountSchema = z
  .object({ matched: z.number().int().min(0).meta({ description: 'Executions the batch would reach now' }) })
  .meta({ id: 'BatchCount' });

/** A started batch. */
export const batchStartedSchema = z
  .object({
    batchId: z.string().meta({ description: 'Read its progress at `GET /workflow/batch/{batchId}`' }),
    matched: z.number().int().min(0).meta({ description: 'Executions it reached when it started (the count a dry run gives)' }),
  })
  .meta({ id: 'BatchStarted' });

/** A batch job's progress. */
export const batchSchema = z
  .object({
    batchId: z.string(),
    operation: z.enum(BATCH_OPERATIONS).nullable().meta({ description: 'null for an operation Skein does not start (another client started it)' }),
    state: z.enum(BATCH_STATES),
    total: z.number().int().min(0).meta({ description: 'Executions the job reaches (0 until the engine has counted them)' }),
    completed: z.number().int().min(0).meta({ description: 'Executions done' }),
    failed: z.number().int().min(0).meta({ description: 'Executions the operation failed on (e.g. a run already closed)' }),
    startedAt: isoDateTime.nullable(),
    closedAt: isoDateTime.nullable().meta({ description: 'null while running' }),
    reason: z.string().nullable(),
  })
  .meta({ id: 'Batch' });

/** `GET /workflow/batch` query. */
export const batchListQuerySchema = z.object({
  pageSize: queryInteger(1, 50, 20).meta({ description: '1–50, default 20' }),
  pageToken: z
    .string()
    .min(1)
    .max(4096)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional()
    .meta({ description: '`nextPageToken` of the previous page' }),
});

/** `GET /workflow/batch` response. */
export const batchListSchema = z
  .object({ batches: z.array(batchSchema), nextPageToken: z.string().nullable().meta({ description: 'Cursor of the next page; null on the last' }) })
  .meta({ id: 'BatchList' });

/** `{batchId}` path parameter. */
export const batchParams = z.object({ batchId: boundedName(1000).meta({ description: 'A batch id from `POST /workflow/batch`' }) });
