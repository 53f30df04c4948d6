import { z } from 'zod';

/**
 * Temporal duration as accepted by `@temporalio/common`: milliseconds as a number, or a string such as
 * `'30s'`, `'5 minutes'`.
 */
const duration = z.union([z.number().int().positive(), z.string().min(1)]);

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
 * The subset of Temporal `ActivityOptions` a definition may set. Unknown keys are rejected so a
 * typo (`startToCloseTimout`) fails at definition time instead of being silently ignored.
 */
export const activityOptionsSchema = z
  .object({
    startToCloseTimeout: duration.optional(),
    scheduleToCloseTimeout: duration.optional(),
    scheduleToStartTimeout: duration.optional(),
    heartbeatTimeout: duration.optional(),
    retry: retryPolicySchema.optional(),
  })
  .strict();

/** Activity options (timeouts and retry policy), layered from Skein's defaults to the step's own. */
export type ActivityOptions = z.infer<typeof activityOptionsSchema>;

/** Options of a workflow definition; `disableTrace: true` writes no trace for its runs. */
export const workflowOptionsSchema = z
  .object({
    activityOptions: activityOptionsSchema.optional(),
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
