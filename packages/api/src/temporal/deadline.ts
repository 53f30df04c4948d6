/**
 * Bounded engine calls (the engine unreachable → 500 within 2 s; docs/reference/api-contract.md, "Bounded waits"): every gRPC call
 * the API makes gets a deadline, and Temporal's retries of a failed attempt (the engine unreachable answers
 * UNAVAILABLE at once) stop {@link RETRY_BUDGET_MS} after the call began and never run past the deadline. A slow
 * but reachable engine is waited for up to the deadline; an unreachable one fails within about 2 s. Calls that set
 * their own deadline (`client.withDeadline`) keep it; calls that wait by design (history long-polls, queries,
 * updates) are bounded by their callers and get no default here.
 */
import type { Interceptor } from '@grpc/grpc-js';
import { defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';

/** WorkflowService methods that wait by design; their callers bound them (abort signal or own deadline). */
export const WAITING_METHODS: ReadonlySet<string> = new Set([
  'GetWorkflowExecutionHistory',
  'QueryWorkflow',
  'UpdateWorkflowExecution',
  'PollWorkflowExecutionUpdate',
]);

/** Below this many ms left before the deadline, a failed call is not retried. */
const MIN_RETRY_WINDOW_MS = 20;

/** Failed attempts are retried (Temporal's back-off) for at most this long after the call began, ms. */
export const RETRY_BUDGET_MS = 1_800;

/** What {@link deadlineRetryInterceptor} asks before, and reports after, scheduling a retry. */
export interface RetryHooks {
  /** False once the connection is closing: a failed attempt then fails its call instead of being retried. */
  mayRetry?: () => boolean;
  /** Called with the time (epoch ms) a retry is scheduled to fire. */
  onRetryScheduled?: (at: number) => void;
}

/**
 * A gRPC client interceptor: gives every call without a deadline one `defaultMs` from now (except
 * {@link WAITING_METHODS}), then applies Temporal's own retry policy (`defaultGrpcRetryOptions`) with its
 * back-off cut to the time left of the retry budget, so that no wait between attempts outlives it or the deadline.
 * Calls without a deadline (the waiting methods) keep Temporal's back-off. Every retry asks `hooks.mayRetry` and
 * reports when it fires (`hooks.onRetryScheduled`).
 * @param defaultMs deadline of a call, in ms.
 */
export function deadlineRetryInterceptor(defaultMs: number, hooks: RetryHooks = {}): Interceptor {
  const base = defaultGrpcRetryOptions();
  const mayRetry = hooks.mayRetry ?? (() => true);
  const onRetryScheduled = hooks.onRetryScheduled ?? (() => {});
  const unbounded = makeGrpcRetryInterceptor({
    retryableDecider: (attempt, status) => mayRetry() && base.retryableDecider(attempt, status),
    delayFunction(attempt, status) {
      const delay = base.delayFunction(attempt, status);
      onRetryScheduled(Date.now() + delay);
      return delay;
    },
  });
  return (options, nextCall) => {
    const path = options.method_definition.path;
    const method = path.slice(path.lastIndexOf('/') + 1);
    const deadline = options.deadline !== undefined ? options.deadline : WAITING_METHODS.has(method) ? undefined : Date.now() + defaultMs;
    if (deadline === undefined) return unbounded(options, nextCall);
    const deadlineMs = deadline instanceof Date ? deadline.getTime() : deadline;
    if (!Number.isFinite(deadlineMs)) return unbounded(options, nextCall);
    let delay = 0;
    const retryUntil = Math.min(deadlineMs, Date.now() + RETRY_BUDGET_MS);
    const bounded = makeGrpcRetryInterceptor({
      retryableDecider(attempt, status) {
        const left = retryUntil - Date.now();
        if (left < MIN_RETRY_WINDOW_MS || !mayRetry() || !base.retryableDecider(attempt, status)) return false;
        delay = Math.min(base.delayFunction(attempt, status), left - MIN_RETRY_WINDOW_MS);
        onRetryScheduled(Date.now() + delay);
        return true;
      },
      delayFunction: () => delay,
    });
    return bounded({ ...options, deadline: deadlineMs }, nextCall);
  };
}

/**
 * The engine-call policy of one API connection: its interceptors (they replace Temporal's default retry
 * interceptor), and {@link EngineCallPolicy.retriesSettled} for a clean close: a retry that fires on a shut
 * channel would throw outside any request (an uncaught exception), so closing first stops new retries, then waits
 * for the ones already scheduled.
 */
export class EngineCallPolicy {
  #lastRetryAt = 0;
  #closing = false;
  /** Pass as `ConnectionOptions.interceptors`. */
  readonly interceptors: Interceptor[];

  /** @param defaultMs deadline of a call without one, ms (`SKEIN_ENGINE_TIMEOUT_MS`). */
  constructor(defaultMs: number) {
    this.interceptors = [
      deadlineRetryInterceptor(defaultMs, {
        mayRetry: () => !this.#closing,
        onRetryScheduled: (at) => (this.#lastRetryAt = Math.max(this.#lastRetryAt, at)),
      }),
    ];
  }

  /**
   * Stops retrying failed attempts (they fail their calls from now on) and resolves once every retry scheduled
   * before has fired: within Temporal's longest back-off (a few seconds) at most, usually at once.
   */
  async retriesSettled(): Promise<void> {
    this.#closing = true;
    const wait = this.#lastRetryAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 50));
  }
}
