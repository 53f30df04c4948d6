import ms from 'ms';
import { z } from 'zod';
import 'zod-openapi';
import { idempotencyKeyProblem, ON_CLOSED, ON_CONFLICT } from '../temporal/start-options.js';
import { boundedName, catalogNameSchema, epochMs, isoDateTime, jsonValue, newWorkflowIdSchema, queryInteger, runStatusSchema, traceSchema } from './common.js';
import { RUN_STATUSES } from '../temporal/status.js';
import { MAX_QUERY_LENGTH } from '../temporal/visibility-query.js';

const catalogName = catalogNameSchema.meta({
  description: 'Catalog (task queue) to route to (at most 200 UTF-8 bytes, no `@`); falls back to the default catalog',
});

/** Longest `startDelay`: 365 days, in ms. */
export const MAX_START_DELAY_MS = 365 * 24 * 3_600_000;

/**
 * `startDelay`: milliseconds (an integer) or a duration string in the `ms` format (`500ms`, `2s`, `1.5h`, `7d`),
 * 0 to 365 days; parsed to integer milliseconds.
 */
export const startDelaySchema = z
  .union([z.number().int().min(0).max(MAX_START_DELAY_MS), z.string().min(1).max(50)])
  .transform((value, ctx) => {
    if (typeof value === 'number') return value;
    const parsed = /^\d+$/.test(value) ? Number(value) : ms(value as ms.StringValue);
    if (typeof parsed !== 'number' || !Number.isFinite(parsed) || parsed < 0 || parsed > MAX_START_DELAY_MS) {
      ctx.addIssue({ code: 'custom', message: 'Must be a duration such as 30s, 5m or 2h (0 to 365 days), or milliseconds' });
      return z.NEVER;
    }
    return Math.round(parsed);
  })
  .meta({ description: 'Wait this long before the first workflow task: milliseconds, or a duration such as `30s`, `5m`, `2h` (at most 365 days)' });

/** `POST /workflow/start` body (the run request without `timeout`). */
export const startRequestSchema = z
  .object({
    workflowName: boundedName(200).meta({ description: "A workflow's name or one of its aliases" }),
    input: jsonValue.optional().meta({ description: 'Payload passed to the workflow; absent = null' }),
    workflowId: newWorkflowIdSchema.optional().meta({ description: 'Optional; by default it must not be in use by a running execution (see `onConflict`)' }),
    catalog: catalogName.optional(),
    taskQueue: catalogName.optional().meta({ deprecated: true, description: 'Deprecated alias of `catalog`; `catalog` wins' }),
    onConflict: z.enum(ON_CONFLICT).optional().meta({
      description:
        'When a RUNNING execution holds `workflowId`: `fail` (default, 409), `use-existing` (answer its ids) or `terminate-existing` (terminate it, start anew)',
    }),
    onClosed: z.enum(ON_CLOSED).optional().meta({
      description:
        'Whether `workflowId` may be reused after its executions closed: `allow` (default), `allow-failed-only` (only after a failed, canceled, terminated or timed-out run) or `reject` (409)',
    }),
    startDelay: startDelaySchema.optional(),
  })
  .meta({ id: 'StartRequest' });

/** Headers of `POST /workflow/start` and `POST /workflow/run`. */
export const startHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .refine((key) => key === undefined || idempotencyKeyProblem(key) === undefined, {
      error: (issue) => idempotencyKeyProblem(issue.input as string) ?? 'Invalid Idempotency-Key',
    })
    .meta({
      description:
        'Makes the start safe to retry: without `workflowId`, the execution id is derived from the catalog, the workflow name and this key, `onConflict` is `use-existing` and `onClosed` `reject`, so a repeat answers the same execution, even after it closed (within the namespace retention). At most 200 bytes, no control characters.',
    }),
});

/** `POST /workflow/run` body (`timeout` in ms, 250–3 600 000). */
export const runRequestSchema = startRequestSchema
  .extend({
    timeout: z.number().int().min(250).max(3_600_000).optional().meta({ description: 'Maximum wait in milliseconds (default SKEIN_RUN_TIMEOUT_MS, 30 000)' }),
  })
  .meta({ id: 'RunRequest' });

/** A sanitized failure chain node (`failure` of the run response). */
export interface FailureShape {
  message: string;
  type: string;
  retryable: boolean;
  cause: FailureShape | null;
}
export const failureSchema: z.ZodType<FailureShape> = z
  .object({
    message: z.string(),
    type: z.string(),
    retryable: z.boolean(),
    get cause() {
      return failureSchema.nullable();
    },
  })
  .meta({ id: 'Failure', description: 'Sanitized failure: message, type, retryable and its cause chain (at most 10 levels)' });

/** `errorDetails` of the run response. */
export const errorDetailsSchema = z
  .object({
    message: z.string(),
    name: z.string(),
    retryable: z.boolean(),
    activityId: z.string().optional(),
    cause: failureSchema.nullable(),
  })
  .meta({ id: 'ErrorDetails' });

const terminalStatuses = RUN_STATUSES.filter((s) => s !== 'running') as [string, ...string[]];

/** The run response of `POST /workflow/run`. */
export const runResponseSchema = z
  .object({
    workflowId: z.string(),
    runId: z.string(),
    input: jsonValue,
    output: jsonValue,
    trace: traceSchema,
    status: z.enum(terminalStatuses as ['completed']).meta({
      description:
        'completed, failed, canceled, terminated or timed_out: the status of the last run of the chain (continue-as-new is followed, so continued_as_new, which the specification lists, is not answered)',
    }),
    error: z.string().nullable(),
    errorDetails: errorDetailsSchema.nullable(),
    failure: failureSchema.nullable(),
  })
  .meta({ id: 'RunResponse' });

/** `error` of the result response. */
export const resultErrorSchema = z.object({ activityType: z.string().optional(), name: z.string(), message: z.string() }).meta({ id: 'ResultError' });

/** The result response (`v: "2"`). */
export const resultResponseSchema = z
  .object({
    v: z.literal('2'),
    workflowId: z.string(),
    runId: z.string(),
    status: z.enum(['completed', 'failed', 'cancelled', 'terminated', 'timed_out', 'continued_as_new']),
    input: jsonValue,
    output: jsonValue,
    trace: traceSchema,
    error: resultErrorSchema.nullable(),
  })
  .meta({ id: 'ResultResponse' });

/** The input response: a run's original input. */
export const inputResponseSchema = z.object({ workflowId: z.string(), runId: z.string(), input: jsonValue }).meta({ id: 'InputResponse' });

/** The status of a run, times in epoch ms. */
export const statusResponseSchema = z
  .object({
    workflowId: z.string(),
    runId: z.string(),
    workflowType: z.string().meta({ description: "The run's workflow type (the workflow's name)" }),
    status: runStatusSchema,
    startedAt: epochMs,
    completedAt: epochMs.nullable(),
    scheduleId: z.string().nullable().meta({ description: 'The schedule that started the run, or null (Temporal search attribute `TemporalScheduledById`)' }),
    delayedUntil: epochMs.nullable().meta({
      description: 'While a run started with `startDelay` waits for its first workflow task: when the delay ends (epoch ms); null otherwise',
    }),
  })
  .meta({ id: 'StatusResponse' });

/** `GET /workflow/runs` query. */
export const runsQuerySchema = z.object({
  workflowType: z.string().min(1).max(200).optional().meta({ description: 'Only runs of this workflow type' }),
  catalog: catalogNameSchema.optional().meta({ description: 'Only runs on this catalog (task queue; at most 200 UTF-8 bytes, no `@`)' }),
  limit: queryInteger(1, 1000, 100).meta({ description: '1–1000, default 100' }),
  scheduleId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'Only runs started by this schedule (Temporal search attribute `TemporalScheduledById`)' }),
  query: z.string().min(1).max(MAX_QUERY_LENGTH).optional().meta({
    description:
      "Only runs matching this visibility query (Temporal's list filter language, e.g. `ExecutionStatus = 'Running' AND WorkflowType = 'order'`), ANDed with the other filters; one self-contained expression, no comments",
  }),
});

/** `GET /workflow/runs` response (dates as ISO 8601 strings here, unlike the status routes' epoch ms). */
export const runsResponseSchema = z
  .object({
    runs: z.array(
      z.object({
        workflowId: z.string(),
        runId: z.string(),
        workflowType: z.string(),
        status: runStatusSchema,
        startedAt: isoDateTime.meta({ description: 'Start of the run (ISO 8601, as the seed system sends it)' }),
        completedAt: isoDateTime.nullable().meta({ description: 'Close of the run (ISO 8601); null while running' }),
      }),
    ),
    count: z.number().int(),
  })
  .meta({ id: 'RunsResponse' });

/** Signal, query and update bodies: `{ payload }`. */
export const payloadRequestSchema = z
  .object({ payload: z.record(z.string(), z.unknown()).optional().meta({ description: 'Argument passed to the handler (an object)' }) })
  .meta({ id: 'PayloadRequest' });

/** Query and update bodies: `{ payload }` with any JSON payload. */
export const handlerRequestSchema = z
  .object({ payload: jsonValue.optional().meta({ description: 'Argument passed to the handler' }) })
  .meta({ id: 'HandlerRequest' });

/** Query and update answer the handler's value itself; no body for `undefined`. */
export const handlerValueSchema = jsonValue.meta({ id: 'HandlerValue', description: "The handler's return value itself, any JSON value" });

/** Terminate body. */
export const terminateRequestSchema = z.object({ reason: z.string().max(1000).optional() }).meta({ id: 'TerminateRequest' });

/** The reset request: the step to reset after, and an optional reason. */
export const resetRequestSchema = z.object({ stepName: boundedName(200), reason: z.string().max(1000).optional() }).meta({ id: 'ResetRequest' });

/** The trace-log response: where the trace was read from, and the trace file (docs/reference/trace-format.md). */
export const traceLogResponseSchema = z
  .object({
    workflowId: z.string(),
    runId: z.string(),
    source: z.enum(['local', 'remote']),
    location: z.string(),
    data: jsonValue.meta({ description: "The run's trace tree" }),
  })
  .meta({ id: 'TraceLogResponse' });
