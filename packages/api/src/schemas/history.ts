import { z } from 'zod';
import 'zod-openapi';
import { epochMs, runStatusSchema } from './common.js';

/** CONTRACT history query parameters. */
export const historyQuerySchema = z.object({
  pageSize: z.coerce.number().int().min(1).max(50).default(20).meta({ description: 'Events per page, 1–50 (default 20)' }),
  pageToken: z.string().min(1).max(8192).optional().meta({ description: 'Opaque base64 token from a previous `nextPageToken`; it carries its run' }),
  includePayloads: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description: 'Decode input/output payloads in events (default false)' }),
  longPollTimeoutMs: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .meta({ description: 'At the end of history, wait up to this many ms for a new event (clamped to the server maximum)' }),
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
    historyLength: z.number().int(),
  })
  .meta({ id: 'WorkflowMeta' });

/** One engine history event in Temporal's JSON shape (`eventId` as a number, `eventType` as its enum name). */
export const historyEventSchema = z
  .object({
    eventId: z.number().int(),
    eventTime: z.string().optional(),
    eventType: z.string(),
  })
  .loose()
  .meta({ id: 'HistoryEvent' });

/** SPEC "History page". */
export const historyPageSchema = z
  .object({
    workflow: workflowMetaSchema,
    runId: z.string(),
    events: z.array(historyEventSchema),
    nextPageToken: z.string().nullable().meta({ description: 'Cursor of the next page; null at the end of a closed run' }),
  })
  .meta({ id: 'HistoryPage' });

/** Query of the history stream. */
export const streamQuerySchema = z.object({
  lastEventId: z.coerce.number().int().min(0).optional().meta({ description: 'Resume after this event id (same as the Last-Event-ID header)' }),
  includePayloads: historyQuerySchema.shape.includePayloads,
});
