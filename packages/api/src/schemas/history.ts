import { z } from 'zod';
import 'zod-openapi';
import { epochMs, isoDateTime, queryInteger, runIdSchema, runStatusSchema } from './common.js';

/** Query parameters of the history routes (docs/reference/api-contract.md, "Endpoints"). */
export const historyQuerySchema = z.object({
  pageSize: queryInteger(1, 50, 20).meta({ description: 'Events per page, 1–50 (default 20)' }),
  pageToken: z.string().min(1).max(8192).optional().meta({ description: 'Opaque base64 token from a previous `nextPageToken`; it carries its run' }),
  includePayloads: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description: 'Decode input/output payloads in events (default false)' }),
  longPollTimeoutMs: queryInteger(1).optional().meta({
    description:
      "Long-poll: at the end of an open run's history, wait up to this many ms for a new event (clamped to the server maximum); existing events always come back at once",
  }),
});

/**
 * Query of the latest-run history route: the history query plus `runId`, which pins a run as the seed system's
 * clients do (`GET /workflow/{id}/history?runId=…`); a `pageToken` must then belong to that run.
 */
export const latestHistoryQuerySchema = historyQuerySchema.extend({
  runId: runIdSchema.optional().meta({ description: 'Read this run instead of the latest (same as `/workflow/{id}/runs/{rid}/history`)' }),
});

/** `workflow` metadata of a history page or stream. */
export const workflowMetaSchema = z
  .object({
    workflowId: z.string(),
    runId: z.string(),
    workflowType: z.string(),
    taskQueue: z.string(),
    status: runStatusSchema,
    startedAt: epochMs,
    completedAt: epochMs.nullable(),
    startTime: isoDateTime.meta({ description: 'Start of the run (ISO 8601)' }),
    closeTime: isoDateTime.nullable().meta({ description: 'Close of the run (ISO 8601); null while running' }),
    historyLength: z.number().int(),
  })
  .meta({ id: 'WorkflowMeta' });

/**
 * One engine history event in Temporal's JSON shape (`eventId` as a number, `eventType` as its enum name), plus
 * `eventTypeName` and, on activity events, `stepName`.
 */
export const historyEventSchema = z
  .object({
    eventId: z.number().int(),
    eventTime: z.string().optional(),
    eventType: z.string().meta({ example: 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED' }),
    eventTypeName: z.string().meta({ description: '`eventType` without the `EVENT_TYPE_` prefix', example: 'ACTIVITY_TASK_SCHEDULED' }),
    stepName: z.string().optional().meta({
      description:
        'On activity events (scheduled, started, completed, failed, timed out, cancel requested, canceled): the step or evaluator name, from the activity type `<workflow>#<name>`',
      example: 'fetchOrder',
    }),
  })
  .loose()
  .meta({ id: 'HistoryEvent' });

/** A page of a run's history: `{ workflow, events, runId, nextPageToken }`. */
export const historyPageSchema = z
  .object({
    workflow: workflowMetaSchema,
    runId: z.string(),
    events: z.array(historyEventSchema),
    nextPageToken: z.string().nullable().meta({
      description:
        'Cursor of the next page. Null once the page reaches the end of the history (of an open run too) when `longPollTimeoutMs` is not given; with it, null only at the end of a closed run',
    }),
  })
  .meta({ id: 'HistoryPage' });

/** Query of the history stream. */
export const streamQuerySchema = z.object({
  lastEventId: queryInteger(0).optional().meta({ description: 'Resume after this event id (same as the Last-Event-ID header)' }),
  includePayloads: historyQuerySchema.shape.includePayloads,
});

/** Headers of the history stream: the SSE reconnection's `Last-Event-ID`. */
export const streamHeadersSchema = z.object({
  'last-event-id': z
    .string()
    .regex(/^\d*$/, { message: 'must be a non-negative integer' })
    .transform((v) => (v === '' ? undefined : Number(v))) // an empty header is no header
    .optional()
    .meta({ description: 'Resume after this event id, as an EventSource sends it when it reconnects; wins over the `lastEventId` query parameter' }),
});

/** Query of the latest-run history stream: plus `runId`, as on the paged latest-run route. */
export const latestStreamQuerySchema = streamQuerySchema.extend({ runId: latestHistoryQuerySchema.shape.runId });
