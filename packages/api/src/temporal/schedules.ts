/**
 * Skein schedules on Temporal Schedules: the request's definition to the schedule client's options, the engine's
 * description back to the API's view, and the engine's schedule errors to the API's.
 */
import {
  isGrpcServiceError,
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type Client,
  type ScheduleDescription,
  type ScheduleOptions,
} from '@temporalio/client';
import ms from 'ms';
import { DECLARED_SCHEDULE_MEMO_KEY, SCHEDULE_TIMES_MEMO_KEY, durationMs, temporalScheduleTimes } from '@skein/settings';
import { ApiError } from '../errors.js';
import type { OverlapPolicy, ScheduleDefinitionInput } from '../schemas/schedules.js';
import { engineError, GRPC, grpcCode } from './engine.js';

/** Temporal's overlap policy names of the API's. */
const TO_TEMPORAL = {
  skip: 'SKIP',
  buffer_one: 'BUFFER_ONE',
  buffer_all: 'BUFFER_ALL',
  cancel_other: 'CANCEL_OTHER',
  terminate_other: 'TERMINATE_OTHER',
  allow_all: 'ALLOW_ALL',
} as const satisfies Record<OverlapPolicy, string>;

/** The API's overlap policy of a Temporal one (`skip` for one it does not know). */
export function overlapOf(temporal: string | undefined): OverlapPolicy {
  const hit = Object.entries(TO_TEMPORAL).find(([, t]) => t === temporal);
  return (hit?.[0] as OverlapPolicy | undefined) ?? 'skip';
}

/** Temporal's overlap policy of the API's. */
export function temporalOverlap(overlap: OverlapPolicy): (typeof TO_TEMPORAL)[OverlapPolicy] {
  return TO_TEMPORAL[overlap];
}

/** A schedule definition ready for the engine: the request's, with the catalog resolved and the workflow's canonical name. */
export interface ResolvedDefinition extends ScheduleDefinitionInput {
  catalog: string;
}

/**
 * The schedule client's options of a definition (`scheduleId` included). Runs get the id `<scheduleId>-<time>`
 * (Temporal appends the due time), the schedule's times as written in their memo ({@link SCHEDULE_TIMES_MEMO_KEY}),
 * and `[input ?? null]` as arguments. `extraMemo` goes on the schedule itself (declared schedules' mark).
 */
export function scheduleOptions(scheduleId: string, def: ResolvedDefinition, extraMemo?: Record<string, unknown>): ScheduleOptions {
  const spec = def.spec;
  return {
    scheduleId,
    spec: {
      ...temporalScheduleTimes(spec),
      ...(spec.startAt ? { startAt: new Date(spec.startAt) } : {}),
      ...(spec.endAt ? { endAt: new Date(spec.endAt) } : {}),
      ...(spec.jitter ? { jitter: durationMs(spec.jitter)! } : {}),
    },
    action: {
      type: 'startWorkflow',
      workflowType: def.workflowName,
      taskQueue: def.catalog,
      workflowId: scheduleId,
      args: [def.input === undefined ? null : def.input],
      memo: { [SCHEDULE_TIMES_MEMO_KEY]: { ...(spec.cron ? { cron: spec.cron } : {}), ...(spec.every ? { every: spec.every } : {}) } },
    },
    policies: {
      overlap: temporalOverlap(def.overlap ?? 'skip'),
      pauseOnFailure: def.pauseOnFailure ?? false,
      ...(def.catchupWindow ? { catchupWindow: durationMs(def.catchupWindow)! } : {}),
    },
    state: { paused: def.paused ?? false, ...(def.note !== undefined ? { note: def.note } : {}) },
    ...(extraMemo ? { memo: extraMemo } : {}),
  };
}

/**
 * A duration in ms as a string that `ms` reads back to the same value: its short form when exact (`2s`, `1h`,
 * `365d`), else whole seconds (`90s`), else `<n>ms`.
 */
export function formatDuration(millis: number): string {
  const short = ms(millis);
  if (durationMs(short) === millis) return short;
  return millis % 1000 === 0 ? `${millis / 1000}s` : `${millis}ms`;
}

const iso = (d: Date | undefined) => (d ? d.toISOString() : undefined);

/** The API's view of a schedule (`GET /schedules/{scheduleId}`), from the engine's description. */
export function scheduleView(d: ScheduleDescription) {
  const times = (d.action.memo?.[SCHEDULE_TIMES_MEMO_KEY] ?? {}) as { cron?: string[]; every?: string };
  const spec = {
    ...(times.cron ? { cron: times.cron } : {}),
    ...(times.every ? { every: times.every } : {}),
    ...(d.spec.timezone ? { timezone: d.spec.timezone } : {}),
    ...(d.spec.startAt ? { startAt: iso(d.spec.startAt) } : {}),
    ...(d.spec.endAt ? { endAt: iso(d.spec.endAt) } : {}),
    ...(d.spec.jitter ? { jitter: formatDuration(d.spec.jitter) } : {}),
  };
  return {
    scheduleId: d.scheduleId,
    workflowName: d.action.workflowType,
    input: (d.action.args?.[0] ?? null) as unknown,
    catalog: d.action.taskQueue,
    spec,
    overlap: overlapOf(d.policies.overlap),
    catchupWindow: formatDuration(d.policies.catchupWindow),
    pauseOnFailure: d.policies.pauseOnFailure,
    paused: d.state.paused,
    note: d.state.note ? d.state.note : null,
    declared: isDeclared(d.memo),
    createdAt: d.info.createdAt.toISOString(),
    nextActionTimes: d.info.nextActionTimes.map((t) => t.toISOString()),
    recentActions: [...d.info.recentActions]
      .sort((a, b) => a.scheduledAt.getTime() - b.scheduledAt.getTime())
      .map((a) => ({
        scheduledAt: a.scheduledAt.toISOString(),
        startedAt: a.takenAt.toISOString(),
        workflowId: a.action.workflow.workflowId,
        runId: a.action.workflow.firstExecutionRunId,
      })),
    running: d.info.runningActions.map((a) => ({ workflowId: a.workflow.workflowId, runId: a.workflow.firstExecutionRunId })),
  };
}

/** The API's view of a schedule's description. */
export type ScheduleView = ReturnType<typeof scheduleView>;

/** Whether a schedule's memo marks it as declared in a workflow's code. */
export function isDeclared(memo: Record<string, unknown> | undefined): boolean {
  return typeof memo?.[DECLARED_SCHEDULE_MEMO_KEY] === 'object' && memo[DECLARED_SCHEDULE_MEMO_KEY] !== null;
}

/** The engine's own message of an error, without control characters and at most 300 characters (for a 400 body). */
function engineMessage(err: unknown): string {
  let current = err;
  for (let depth = 0; depth < 4 && current; depth++) {
    // eslint-disable-next-line no-control-regex -- control characters are what is taken out
    if (isGrpcServiceError(current)) return (current.details ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 300);
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

/**
 * Translates a schedule call's error: unknown schedule → 404 `ScheduleNotFoundError`, id taken → 409
 * `ScheduleAlreadyExistsError`, a definition the engine refuses → 400 `ValidationError` carrying the engine's message
 * (sanitized); the rest as {@link engineError}.
 */
export function scheduleError(err: unknown, scheduleId: string | null): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof ScheduleNotFoundError || grpcCode(err) === GRPC.NOT_FOUND) {
    return new ApiError('ScheduleNotFoundError', { message: `Schedule "${scheduleId ?? ''}" not found`, cause: err });
  }
  if (err instanceof ScheduleAlreadyRunning || grpcCode(err) === GRPC.ALREADY_EXISTS) {
    return new ApiError('ScheduleAlreadyExistsError', { message: `A schedule with id "${scheduleId ?? ''}" already exists`, cause: err });
  }
  if (grpcCode(err) === GRPC.INVALID_ARGUMENT) {
    const detail = engineMessage(err);
    return new ApiError('ValidationError', {
      message: `The engine refused the schedule${detail ? `: ${detail}` : ''}`,
      issues: [{ code: 'rejected_by_engine', path: ['body'], message: detail || 'The engine refused the schedule' }],
      cause: err,
    });
  }
  return engineError(err);
}

/** Runs a schedule call, translating its errors with {@link scheduleError}. */
export async function scheduleCall<T>(scheduleId: string | null, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw scheduleError(err, scheduleId);
  }
}

/** Describes a schedule. @throws ApiError `ScheduleNotFoundError` (404); `InternalError`. */
export async function describeSchedule(client: Client, scheduleId: string): Promise<ScheduleDescription> {
  return scheduleCall(scheduleId, () => client.schedule.getHandle(scheduleId).describe());
}
