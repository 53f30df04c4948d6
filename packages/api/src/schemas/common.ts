import { z } from 'zod';
import 'zod-openapi';
import { ERROR_TYPES } from '../errors.js';
import { RUN_STATUSES } from '../temporal/status.js';

/**
 * A non-empty name of at most `maxBytes` UTF-8 bytes, as the engine counts them (Temporal's `limit.maxIDLength`
 * is 1 000 bytes), not UTF-16 characters. Well-formed Unicode is checked for every request string upstream
 * (`middleware/body-limits.ts`).
 */
export function boundedName(maxBytes: number): z.ZodString {
  return z
    .string()
    .min(1)
    .refine((s) => Buffer.byteLength(s, 'utf8') <= maxBytes, { message: `Must be at most ${maxBytes} bytes in UTF-8` });
}

/**
 * Ids starting with this character name Skein's own records (`$catalog:…`, `$lease:…`), kept out of every client's
 * reach (same value as `@skein/names`' `CATALOG_WORKFLOW_TYPE` and `CATALOG_LEASE_WORKFLOW_TYPE` prefix).
 */
export const RESERVED_ID_PREFIX = '$';

/** A workflow id's characters: not starting with `$`, no C0 control character or DEL (a `RegExp` source, unanchored). */
const WORKFLOW_ID_BODY = '[^$\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*';

/**
 * The one rule for a workflow id a client names, for every `{id}` route and for `workflowId` of start and run:
 * 1 to 1 000 UTF-8 bytes, not starting with `$` (Skein's records: a catalog's document, a build's lease) and without
 * C0 control characters (U+0000–U+001F) or DEL (U+007F), which would turn into terminal escapes and forged log
 * lines wherever the id is printed. A failed check is a 400 `ValidationError` naming the rule.
 */
export const workflowIdSchema = boundedName(1000)
  // One pattern, so that /openapi.json (and the typed client) carries the rule as one `pattern`.
  .regex(new RegExp(`^${WORKFLOW_ID_BODY}$`), {
    message: `Must not start with "${RESERVED_ID_PREFIX}" (such ids are reserved for Skein's own records) and must not contain control characters (U+0000 to U+001F) or DEL (U+007F)`,
  })
  .meta({
    description: 'Workflow execution id: at most 1 000 UTF-8 bytes, not starting with `$` (reserved), without control characters (U+0000–U+001F, U+007F)',
    example: 'order-42',
  });

/**
 * The id of an execution a client starts (`workflowId` of start and run): `workflowIdSchema`'s rule, and not `.` or
 * `..`, which no URL can carry as a path segment (every HTTP client resolves them away, `%2E%2E` included, before
 * sending): a run of that id would be started and then out of reach of every `{id}` route. Runs that other clients
 * started under such ids stay readable with a client that sends the path as is.
 */
export const newWorkflowIdSchema = boundedName(1000)
  .regex(new RegExp(`^(?!\\.\\.?$)${WORKFLOW_ID_BODY}$`), {
    message: `Must not start with "${RESERVED_ID_PREFIX}" (such ids are reserved for Skein's own records), must not contain control characters (U+0000 to U+001F) or DEL (U+007F), and must not be "." or ".." (no URL path can name them)`,
  })
  .meta({
    description:
      'Workflow execution id: at most 1 000 UTF-8 bytes, not starting with `$` (reserved), without control characters (U+0000–U+001F, U+007F), not `.` or `..`',
    example: 'order-42',
  });

/**
 * A catalog (task queue) name a client names, on start and run and in `/workflow/catalog/{catalog}`: 1 to 200 UTF-8
 * bytes without `@`, which separates a catalog from a build ID in the ids of Skein's records (`$catalog:<catalog>@<buildId>`).
 */
export const catalogNameSchema = boundedName(200).regex(/^[^@]*$/, {
  message: 'Must not contain "@": it separates a catalog from a build ID in the ids of Skein\'s records',
});

/** `{rid}`: a Temporal run id (a UUID; anything else is a 400). */
export const runIdSchema = z.guid().meta({ description: 'Run id (UUID)', example: '0199a6b2-6d4c-7c3e-9f5a-1b2c3d4e5f60' });

/**
 * An integer query-string parameter between `min` and `max`: decimal digits only. `Number()`'s looser readings
 * (`0x10`, `1e1`, ` 5`, an empty value) are a 400 `ValidationError` ("Must be a decimal integer"), not a number the
 * caller did not write. `/openapi.json` shows it as an `integer` with its bounds and `defaultValue`.
 */
export function queryInteger(min: number, max?: number, defaultValue?: number) {
  const integer = z
    .number({ error: (issue) => (issue.code === 'invalid_type' && issue.input !== undefined ? 'Must be a decimal integer' : undefined) })
    .int()
    .min(min);
  const bounded = max === undefined ? integer : integer.max(max);
  // The default sits inside the preprocessing so that /openapi.json shows it (a default outside a pipe is dropped
  // from the input schema).
  return z.preprocess(
    (value) => (typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value),
    defaultValue === undefined ? bounded : bounded.default(defaultValue),
  );
}

/** Any JSON value. */
export const jsonValue = z.unknown().meta({ description: 'Any JSON value' });

/** Lower-case run statuses (docs/reference/api-contract.md, "Statuses"). */
export const runStatusSchema = z.enum(RUN_STATUSES).meta({ id: 'RunStatus', description: 'Run status' });

/** Epoch milliseconds. */
export const epochMs = z.number().int().meta({ description: 'Epoch milliseconds' });

/** An ISO 8601 date-time string in UTC, e.g. `2026-11-21T16:10:42.395Z`. */
export const isoDateTime = z.iso.datetime().meta({ description: 'ISO 8601 date-time (UTC)', example: '2026-11-21T16:10:42.395Z' });

/** `trace`: available trace destinations; unavailable ones are omitted, so `destinations` may be `{}`. */
export const traceSchema = z
  .object({
    destinations: z
      .object({ local: z.string().optional(), remote: z.string().optional() })
      .meta({ description: 'Available trace destinations; unavailable ones are omitted' }),
  })
  .meta({ id: 'Trace' });

/** `ErrorResponse`: the body of every error but a validation error. */
export const errorResponseSchema = z
  .object({
    error: z.enum(ERROR_TYPES).meta({ description: 'Error type name' }),
    message: z.string(),
    workflowId: z.string().nullable().meta({ description: 'The execution the error is tied to, if any' }),
  })
  .meta({ id: 'ErrorResponse' });

/** `ValidationErrorResponse`: the body of a 400 `ValidationError`. */
export const validationErrorResponseSchema = z
  .object({
    error: z.literal('ValidationError'),
    message: z.string(),
    workflowId: z.string().nullable().meta({ description: "The execution the request names (its path's id), if any" }),
    issues: z
      .array(z.object({ code: z.string(), path: z.array(z.union([z.string(), z.number()])), message: z.string() }).loose())
      .meta({ description: 'Schema validation issues (zod issues)' }),
  })
  .meta({ id: 'ValidationErrorResponse' });

/** `{ workflowId, runId }`, the answer of start, signal, stop, terminate and reset. */
export const executionRefSchema = z.object({ workflowId: z.string(), runId: z.string() }).meta({ id: 'ExecutionRef' });

/** Path parameters `{id}`. */
export const idParams = z.object({ id: workflowIdSchema });
/** Path parameters `{id}`, `{rid}`. */
export const runParams = z.object({ id: workflowIdSchema, rid: runIdSchema });

/**
 * `{signal}`, `{query}`, `{update}` handler names: at most 200 UTF-8 bytes, not starting with `__`, the prefix of
 * Temporal's built-in handlers (`__stack_trace`, `__enhanced_stack_trace`, `__temporal_workflow_metadata`), which
 * answer with the worker's source paths and internals, not the workflow's state.
 */
export const handlerName = boundedName(200)
  .regex(/^(?!__)/, { message: 'Must not start with "__": such names are Temporal\'s built-in handlers, not the workflow\'s' })
  .meta({ description: 'A handler the workflow registers (at most 200 UTF-8 bytes, not starting with `__`)' });
