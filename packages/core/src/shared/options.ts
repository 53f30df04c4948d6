import { z } from 'zod';

/**
 * Temporal duration as accepted by `@temporalio/common`: milliseconds as a number (0 is Temporal's "not set", allowed
 * for `heartbeatTimeout` and `scheduleToStartTimeout`), or a string such as `'30s'`, `'5 minutes'`.
 */
const duration = z.union([z.number().int().nonnegative(), z.string().min(1)]);

/** A timeout that bounds an attempt or the whole activity: 0 ("not set") would leave the activity none at all. */
const boundingDuration = z.union([z.number().int().positive(), z.string().min(1)]);

/**
 * Temporal task priority (`@temporalio/common` `Priority`): `priorityKey` 1 (first) to the server's maximum (5 by
 * default); tasks of a `fairnessKey` (at most 64 bytes) are dispatched in proportion to `fairnessWeight`
 * (0.001–1000, default 1).
 */
export const prioritySchema = z
  .object({
    priorityKey: z.number().int().min(1).optional(),
    fairnessKey: z.string().optional(),
    fairnessWeight: z.number().min(0.001).max(1000).optional(),
  })
  .strict();

/** Temporal retry policy (see `@temporalio/common` `RetryPolicy`). Durations in ms or duration strings. */
export const retryPolicySchema = z
  .object({
    initialInterval: duration.optional(),
    backoffCoefficient: z.number().min(1).optional(),
    maximumInterval: duration.optional(),
    maximumAttempts: z.number().int().min(0).optional(),
    nonRetryableErrorTypes: z.array(z.string()).optional(),
  })
  .strict();

/**
 * The subset of Temporal `ActivityOptions` a definition may set, passed to Temporal as they are: the four timeouts,
 * `retry`, `activityId` (the id in history; Temporal's default is a sequence number), `cancellationType` (what a
 * cancelled workflow does with a running activity: `TRY_CANCEL`, `WAIT_CANCELLATION_COMPLETED` (Temporal's default)
 * or `ABANDON`), `priority` and `summary` (one line shown by Temporal's UI and CLI). Unknown keys are rejected so a
 * typo (`startToCloseTimout`) fails at definition time instead of being silently ignored.
 */
export const activityOptionsSchema = z
  .object({
    startToCloseTimeout: boundingDuration.optional(),
    scheduleToCloseTimeout: boundingDuration.optional(),
    scheduleToStartTimeout: duration.optional(),
    heartbeatTimeout: duration.optional(),
    retry: retryPolicySchema.optional(),
    activityId: z.string().min(1).optional(),
    cancellationType: z.enum(['TRY_CANCEL', 'WAIT_CANCELLATION_COMPLETED', 'ABANDON']).optional(),
    priority: prioritySchema.optional(),
    summary: z.string().optional(),
  })
  .strict();

/** Activity options (timeouts, retry policy, id, cancellation, priority, summary), layered from Skein's defaults to the step's own. */
export type ActivityOptions = z.infer<typeof activityOptionsSchema>;

/**
 * The activity options of a workflow-level layer (a workflow definition's, a child call's): every key but
 * `activityId`, which would give each of the workflow's activities (and its children's, which inherit the layer) the
 * same id.
 */
export type WorkflowActivityOptions = Omit<ActivityOptions, 'activityId'>;

/** `activityOptionsSchema` for a workflow-level layer: `activityId` is refused with a message saying where it goes. */
export const workflowActivityOptionsSchema = activityOptionsSchema.extend({
  activityId: z
    .undefined({
      error: "belongs on a step's or evaluator's own options, never on a workflow's (every activity of the workflow and its children would share it)",
    })
    .optional(),
});

/** Options of a workflow definition; `disableTrace: true` writes no trace for its runs. */
export const workflowOptionsSchema = z
  .object({
    activityOptions: workflowActivityOptionsSchema.optional(),
    disableTrace: z.boolean().optional(),
  })
  .strict();

/** Options of a step or evaluator definition; `disableTrace: true` leaves its node out of the run's trace. */
export const activityDefinitionOptionsSchema = z
  .object({
    activityOptions: activityOptionsSchema.optional(),
    disableTrace: z.boolean().optional(),
  })
  .strict();

/**
 * Skein's documented activity defaults, the lowest layer of activity options:
 * 5 minutes start-to-close, 3 attempts with exponential backoff from 1 s, capped at 30 s.
 */
export const DEFAULT_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 3 },
};
