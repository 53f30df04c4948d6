/**
 * Carries the errors of a retried activity's earlier attempts through Temporal itself, so that the trace
 * assembled from history holds every attempt's error whichever workers ran the attempts (history keeps only the
 * failure of the attempt before the last one, and the last one's). See docs/architecture.md, "Run time: one trace
 * per run tree".
 *
 * - A failing attempt heartbeats the list of every attempt's error so far: the SDK flushes that last heartbeat
 *   before it reports the failure, and the failure report carries it (`last_heartbeat_details`), so the engine
 *   hands it to the next attempt, on whichever worker, as its heartbeat details.
 * - A failing attempt that will be retried also puts the errors of the attempts before it in its failure's
 *   details: the next attempt's `ActivityTaskStarted.last_failure` in history is that failure, so history holds
 *   every attempt. The attempt that the engine will not retry (last attempt, non-retryable error, schedule-to-close
 *   deadline reached) carries nothing there, so the failure the workflow and its caller see is the thrown one (and
 *   the workflow interceptor removes the carrier from any failure that reaches the workflow all the same, as the
 *   cause of a schedule-to-close timeout).
 */
import { type SerializedError } from '@skein/core';
import { ATTEMPT_ERRORS_KEY } from '@skein/core/internal';
import type { Info } from '@temporalio/activity';
import { ApplicationFailure, TemporalFailure, defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

/** One failed attempt: its number (from 1) and its error. */
export interface AttemptError {
  attempt: number;
  error: SerializedError;
}

/** The carrier's shape, in heartbeat details and failure details: `{ [CARRIER_KEY]: AttemptErrors }`. */
export interface AttemptErrors {
  /** Kept attempts, in attempt order: the first {@link KEEP_FIRST} and the latest ones, {@link MAX_KEPT} in all. */
  errors: AttemptError[];
  /** How many attempts between the first and the latest kept ones were dropped. */
  dropped: number;
}

/** The key that marks Skein's carrier among heartbeat or failure details. */
export const CARRIER_KEY = ATTEMPT_ERRORS_KEY;

/** Most attempt errors carried (a 100-attempt retry keeps the first 5 and the latest 15, and counts the rest). */
export const MAX_KEPT = 20;
/** Earliest attempts always kept. */
export const KEEP_FIRST = 5;
/** Longest message kept per error level (chars); longer ones are cut and end with `…`. */
export const MAX_MESSAGE_CHARS = 1_000;
/**
 * Margin (ms) under the schedule-to-close deadline within which an attempt counts as the last one: the failure then
 * carries nothing, so a workflow never sees the carrier; at worst the trace of such an activity lacks the attempts
 * before its last failure.
 */
const DEADLINE_MARGIN_MS = 1_000;

type IFailure = temporal.api.failure.v1.IFailure;

const isCarrier = (v: unknown): v is Record<typeof CARRIER_KEY, AttemptErrors> => {
  const c = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[CARRIER_KEY] : undefined;
  return typeof c === 'object' && c !== null && Array.isArray((c as AttemptErrors).errors);
};

function cut(error: SerializedError): SerializedError {
  const out: SerializedError = { ...error };
  if (out.message.length > MAX_MESSAGE_CHARS) out.message = `${out.message.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
  if (out.cause) out.cause = cut(out.cause);
  return out;
}

/** The attempt errors an attempt received in its heartbeat details, or none when they hold no carrier. */
export function receivedAttemptErrors(heartbeatDetails: unknown): AttemptErrors {
  return isCarrier(heartbeatDetails) ? heartbeatDetails[CARRIER_KEY] : { errors: [], dropped: 0 };
}

/** `so far` with one more attempt's error, bounded to {@link MAX_KEPT} entries (messages cut). */
export function withAttempt(soFar: AttemptErrors, next: AttemptError): AttemptErrors {
  const errors = [...soFar.errors.filter((e) => e.attempt < next.attempt), { attempt: next.attempt, error: cut(next.error) }];
  let dropped = soFar.dropped;
  while (errors.length > MAX_KEPT) {
    errors.splice(KEEP_FIRST, 1);
    dropped++;
  }
  return { errors, dropped };
}

/** An attempt's error as history names it: the error's own type rather than the failure class that carried it. */
export function asHistoryNames(error: SerializedError): SerializedError {
  return error.name === 'ApplicationFailure' && error.type ? { ...error, name: error.type } : error;
}

const retryDelayMs = (info: Info, err: unknown): number => {
  const own = err instanceof ApplicationFailure && err.nextRetryDelay !== undefined ? err.nextRetryDelay : undefined;
  if (typeof own === 'number') return own;
  const p = info.retryPolicy;
  const initial = typeof p?.initialInterval === 'number' ? p.initialInterval : 1_000;
  const max = typeof p?.maximumInterval === 'number' ? p.maximumInterval : initial * 100;
  return Math.min(initial * (p?.backoffCoefficient ?? 2) ** (info.attempt - 1), max);
};

/**
 * Whether the engine will run another attempt after this one fails with `err`, as its retry rules decide: not
 * after the last allowed attempt, a non-retryable error or type, a cancellation, nor when the next attempt would
 * start within 1 s of the schedule-to-close deadline.
 */
export function willRetry(info: Info, err: unknown): boolean {
  const p = info.retryPolicy;
  if (p?.maximumAttempts && info.attempt >= p.maximumAttempts) return false;
  if (err instanceof TemporalFailure && !(err instanceof ApplicationFailure)) return false;
  const type = err instanceof ApplicationFailure ? err.type : err instanceof Error ? err.name : undefined;
  if (err instanceof ApplicationFailure && err.nonRetryable) return false;
  if (type && p?.nonRetryableErrorTypes?.includes(type)) return false;
  if (info.scheduleToCloseTimeoutMs > 0) {
    const deadline = info.scheduledTimestampMs + info.scheduleToCloseTimeoutMs;
    if (Date.now() + retryDelayMs(info, err) + DEADLINE_MARGIN_MS >= deadline) return false;
  }
  return true;
}

/**
 * What a failing attempt hands on: `heartbeat` (every attempt's error so far, this one included) and the error to
 * throw, which is `err` itself, with the earlier attempts' errors added to its details when it will be retried
 * (an `Error` that is not a Temporal failure becomes the `ApplicationFailure` the SDK would have made of it).
 * @param received the attempt errors this attempt received (its heartbeat details).
 * @param own this attempt's error, serialized and named as history names it.
 */
export function handOn(info: Info, received: AttemptErrors, own: SerializedError, err: unknown): { heartbeat: unknown; error: unknown } {
  const heartbeat = { [CARRIER_KEY]: withAttempt(received, { attempt: info.attempt, error: own }) };
  if (received.errors.length === 0 || !willRetry(info, err)) return { heartbeat, error: err };
  const carrier = { [CARRIER_KEY]: received };
  if (err instanceof ApplicationFailure) {
    (err as { details?: unknown[] | null }).details = [...(err.details ?? []), carrier];
    return { heartbeat, error: err };
  }
  if (err instanceof Error && !(err instanceof TemporalFailure)) {
    const type = err.constructor?.name ?? err.name;
    const failure = ApplicationFailure.create({ message: err.message, type, details: [carrier], cause: err.cause instanceof Error ? err.cause : undefined });
    failure.stack = err.stack;
    return { heartbeat, error: failure };
  }
  return { heartbeat, error: err };
}

/** The attempt errors a failure in history carries in its details (none when it carries no carrier). */
export function carriedAttemptErrors(failure: IFailure | null | undefined): AttemptErrors {
  for (const payload of failure?.applicationFailureInfo?.details?.payloads ?? []) {
    try {
      const value = defaultPayloadConverter.fromPayload(payload);
      if (isCarrier(value)) return value[CARRIER_KEY];
    } catch {
      /* another detail, not ours */
    }
  }
  return { errors: [], dropped: 0 };
}
