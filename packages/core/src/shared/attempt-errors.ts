/**
 * The mark of the earlier attempts' errors a failing activity attempt carries to the next attempt (in its
 * heartbeat details) and into history (in its failure's details), so a trace assembled on any worker holds every
 * attempt's error; see docs/architecture.md, "Run time: one trace per run tree". The workflow never sees it: the
 * worker adds it only to a failure the engine will retry, and the workflow interceptor removes it from any failure
 * that still reaches the workflow (`withoutAttemptErrors`).
 */
export const ATTEMPT_ERRORS_KEY = '$skeinAttemptErrors';

/** Most failures of one cause chain that are looked at (the chain of a trace error is cut at 10 as well). */
const MAX_CHAIN = 10;

/** Whether `value` is a carrier of attempt errors (`{ [ATTEMPT_ERRORS_KEY]: … }`). */
export function isAttemptErrorsCarrier(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ATTEMPT_ERRORS_KEY in value;
}

/**
 * `err` with the attempt-error carrier removed from every failure of its cause chain (in place): from `details`
 * (the other details are kept in their order) and from a timeout's `lastHeartbeatDetails`. Returns `err`.
 */
export function withoutAttemptErrors<E>(err: E): E {
  let at: unknown = err;
  for (let depth = 0; depth < MAX_CHAIN && typeof at === 'object' && at !== null; depth++) {
    const failure = at as { details?: unknown; lastHeartbeatDetails?: unknown; cause?: unknown };
    if (Array.isArray(failure.details) && failure.details.some(isAttemptErrorsCarrier)) {
      failure.details = failure.details.filter((d) => !isAttemptErrorsCarrier(d));
    }
    if (isAttemptErrorsCarrier(failure.lastHeartbeatDetails)) failure.lastHeartbeatDetails = undefined;
    at = failure.cause;
  }
  return err;
}
