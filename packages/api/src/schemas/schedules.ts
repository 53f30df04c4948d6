import { z } from 'zod';
import 'zod-openapi';
import { boundedName, catalogNameSchema, isoDateTime, jsonValue, queryInteger } from './common.js';
import { cronProblem, durationMs, isTimeZone, MIN_EVERY_MS } from '@skein/settings';

/** What a schedule does when a start comes due while its previous run is still open (Temporal's overlap policy). */
export const OVERLAP_POLICIES = ['skip', 'buffer_one', 'buffer_all', 'cancel_other', 'terminate_other', 'allow_all'] as const;
/** One of {@link OVERLAP_POLICIES}. */
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];

// eslint-disable-next-line no-control-regex -- matching control characters is what this pattern is for
const CONTROL = /[\u0000-\u001f\u007f]/;

/** `{scheduleId}`: at most 200 UTF-8 bytes, no control character. */
export const scheduleIdSchema = boundedName(200)
  .refine((s) => !CONTROL.test(s), { message: 'Must not contain control characters' })
  .refine((s) => !s.startsWith('$'), { message: "Must not start with `$` (reserved for Skein's own records)" })
  .meta({
    description: 'Schedule id (at most 200 UTF-8 bytes, no control characters, not starting with `$`); its runs get the id `<scheduleId>-<due time>`',
    example: 'nightly-report',
  });

/** A duration string as the `ms` package reads it: `2s`, `5m`, `1h`, `1 day`. */
const duration = (what: string, minMs = 0) =>
  z
    .string()
    .min(1)
    .max(100)
    .refine((s) => (durationMs(s) ?? -1) >= minMs, {
      message: minMs > 0 ? `Must be a duration of at least ${minMs / 1000}s, such as "30s", "5m" or "1h"` : 'Must be a duration such as "30s", "5m" or "1h"',
    })
    .meta({ description: what });

const cronSchema = z
  .array(z.string().min(1).max(200))
  .min(1)
  .max(20)
  .superRefine((entries, ctx) => {
    entries.forEach((entry, i) => {
      const problem = cronProblem(entry);
      if (problem) ctx.addIssue({ code: 'custom', path: [i], message: `Invalid cron expression ${problem}` });
    });
  })
  .meta({
    description:
      'Cron expressions: the standard 5 fields (`*/15 9-17 * * MON-FRI`), a predefined form (`@daily`, `@hourly`, `@weekly`, `@monthly`, `@yearly`) or `@every <duration>` (`@every 90s`). A run is due at each time any entry matches.',
  });

/** The times a schedule fires: `cron` entries and/or `every`, in `timezone`, between `startAt` and `endAt`. */
export const scheduleSpecSchema = z
  .object({
    cron: cronSchema.optional(),
    every: duration('Fixed interval, at least 1s (`30s`, `5m`, `1h`)', MIN_EVERY_MS).optional(),
    timezone: z
      .string()
      .min(1)
      .max(100)
      .refine(isTimeZone, { message: 'Unknown time zone; use an IANA name such as "Europe/Paris" or "UTC"' })
      .optional()
      .meta({ description: 'IANA time zone the cron entries are read in (default UTC)' }),
    startAt: isoDateTime.optional().meta({ description: 'No run is due before this time (ISO 8601)' }),
    endAt: isoDateTime.optional().meta({ description: 'No run is due after this time (ISO 8601)' }),
    jitter: duration('Each due time is delayed by a random amount up to this duration').optional(),
  })
  .superRefine((spec, ctx) => {
    if (!spec.cron && !spec.every) ctx.addIssue({ code: 'custom', path: [], message: 'A schedule needs `cron` or `every`' });
    if (spec.startAt && spec.endAt && Date.parse(spec.startAt) > Date.parse(spec.endAt)) {
      ctx.addIssue({ code: 'custom', path: ['endAt'], message: '`endAt` must not be before `startAt`' });
    }
  })
  .meta({ id: 'ScheduleSpec' });

/** The fields of a schedule's definition that `POST /schedules` and `PATCH /schedules/{scheduleId}` take. */
const definitionFields = {
  workflowName: boundedName(200).meta({ description: "A workflow's name or one of its aliases, served by the catalog" }),
  input: jsonValue.optional().meta({ description: "The input of every run; checked against the workflow's input schema; absent = null" }),
  catalog: catalogNameSchema.optional().meta({ description: 'Catalog (task queue) the runs start on; default: the default catalog' }),
  spec: scheduleSpecSchema,
  overlap: z.enum(OVERLAP_POLICIES).optional().meta({ description: 'What to do when a run comes due while the previous one is open (default `skip`)' }),
  catchupWindow: duration('How late a missed run (the engine was down) may still start (default 1 year; the engine treats less than 10s as 10s)').optional(),
  pauseOnFailure: z.boolean().optional().meta({ description: 'Pause the schedule when one of its runs fails or times out (default false)' }),
  paused: z.boolean().optional().meta({ description: 'Create (or set) the schedule paused' }),
  note: z.string().max(1000).optional().meta({ description: 'Free text shown with the paused state' }),
};

/** `POST /schedules` body. */
export const createScheduleRequestSchema = z
  .object({ scheduleId: scheduleIdSchema.optional().meta({ description: 'Optional; a UUID when absent; 409 when taken' }), ...definitionFields })
  .meta({ id: 'CreateScheduleRequest' });

/** A validated schedule definition (the create body without `scheduleId`). */
export type ScheduleDefinitionInput = Omit<z.output<typeof createScheduleRequestSchema>, 'scheduleId'>;

/** `PATCH /schedules/{scheduleId}` body: any definition field; `spec` fields are merged into the current spec, `null` clears one. */
export const updateScheduleRequestSchema = z
  .object({
    workflowName: definitionFields.workflowName.optional(),
    input: definitionFields.input,
    catalog: definitionFields.catalog,
    spec: z
      .object({
        cron: z.array(z.string()).nullable().optional(),
        every: z.string().nullable().optional(),
        timezone: z.string().nullable().optional(),
        startAt: z.string().nullable().optional(),
        endAt: z.string().nullable().optional(),
        jitter: z.string().nullable().optional(),
      })
      .optional()
      .meta({ description: 'Fields merged into the current spec (`null` removes one); the result is checked as on create' }),
    overlap: definitionFields.overlap,
    catchupWindow: definitionFields.catchupWindow,
    pauseOnFailure: definitionFields.pauseOnFailure,
    paused: definitionFields.paused,
    note: definitionFields.note,
  })
  .strict()
  .meta({ id: 'UpdateScheduleRequest' });

/** `POST /schedules/{scheduleId}/pause|unpause` body. */
export const scheduleNoteRequestSchema = z
  .object({ note: z.string().max(1000).optional().meta({ description: 'Why; shown as the schedule note' }) })
  .meta({ id: 'ScheduleNoteRequest' });

/** `POST /schedules/{scheduleId}/backfill` body. */
export const backfillRequestSchema = z
  .object({
    startAt: isoDateTime.meta({ description: 'Start of the past (or future) period to run, ISO 8601' }),
    endAt: isoDateTime.meta({ description: 'End of the period, ISO 8601' }),
    overlap: z
      .enum(OVERLAP_POLICIES)
      .optional()
      .meta({ description: 'Overlap policy of the backfilled runs (default `allow_all`: every due time starts a run)' }),
  })
  .refine((b) => Date.parse(b.startAt) <= Date.parse(b.endAt), { path: ['endAt'], message: '`endAt` must not be before `startAt`' })
  .meta({ id: 'BackfillRequest' });

/** `POST /schedules/{scheduleId}/trigger` body (optional). */
export const triggerRequestSchema = z
  .object({ overlap: z.enum(OVERLAP_POLICIES).optional().meta({ description: "Overlap policy of this run (default: the schedule's)" }) })
  .meta({ id: 'TriggerRequest' });

/** Path parameters `{scheduleId}`. */
export const scheduleParams = z.object({ scheduleId: scheduleIdSchema });

/** `GET /schedules` query. */
export const listSchedulesQuerySchema = z.object({
  limit: queryInteger(1, 100, 50).meta({ description: '1–100 schedules per page, default 50' }),
  pageToken: z
    .string()
    .min(1)
    .max(4096)
    .regex(/^[A-Za-z0-9_-]+$/, 'Must be a `nextPageToken` of a previous page')
    .optional()
    .meta({ description: '`nextPageToken` of the previous page' }),
});

/** `{ scheduleId }`: the answer of create. */
export const scheduleRefSchema = z.object({ scheduleId: z.string() }).meta({ id: 'ScheduleRef' });

const specViewSchema = z
  .object({
    cron: z.array(z.string()).optional(),
    every: z.string().optional(),
    timezone: z.string().optional(),
    startAt: isoDateTime.optional(),
    endAt: isoDateTime.optional(),
    jitter: z.string().optional(),
  })
  .meta({ id: 'ScheduleSpecView' });

const runRef = z.object({ workflowId: z.string(), runId: z.string() });

/** One schedule of `GET /schedules`. */
export const scheduleSummarySchema = z
  .object({
    scheduleId: z.string(),
    workflowName: z.string(),
    catalog: z.string(),
    paused: z.boolean(),
    declared: z.boolean().meta({ description: "Declared in a workflow's code (kept in line with the current build); false for API-created schedules" }),
    nextActionTimes: z.array(isoDateTime).meta({ description: 'The next due times (ISO 8601), soonest first' }),
  })
  .meta({ id: 'ScheduleSummary' });

/** `GET /schedules` response. */
export const scheduleListSchema = z
  .object({
    schedules: z.array(scheduleSummarySchema),
    nextPageToken: z.string().nullable().meta({ description: 'Pass as `pageToken` for the next page; null on the last page' }),
  })
  .meta({ id: 'ScheduleList' });

/** `GET /schedules/{scheduleId}` response: the definition and what the schedule did. */
export const scheduleDescriptionSchema = z
  .object({
    scheduleId: z.string(),
    workflowName: z.string().meta({ description: "The workflow's canonical name" }),
    input: jsonValue,
    catalog: z.string(),
    spec: specViewSchema,
    overlap: z.enum(OVERLAP_POLICIES),
    catchupWindow: z.string(),
    pauseOnFailure: z.boolean(),
    paused: z.boolean(),
    note: z.string().nullable(),
    declared: z.boolean(),
    createdAt: isoDateTime,
    nextActionTimes: z.array(isoDateTime),
    recentActions: z
      .array(z.object({ scheduledAt: isoDateTime, startedAt: isoDateTime, workflowId: z.string(), runId: z.string() }))
      .meta({ description: 'The latest runs it started (the engine keeps the last 10), oldest first' }),
    running: z.array(runRef).meta({ description: 'Its runs still open' }),
  })
  .meta({ id: 'ScheduleDescription' });
