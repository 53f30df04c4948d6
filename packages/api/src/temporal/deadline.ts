/**
 * Bounded engine calls (CONTRACT "HTTP conventions": the engine unreachable → 500 within 2 s): every gRPC call
 * the API makes gets a deadline. Calls that set their own (`client.withDeadline`) keep it; calls that wait by
 * design (history long-polls, queries, updates) are bounded by their callers and left alone here.
 */
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import { defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';

/** WorkflowService methods that wait by design; their callers bound them (abort signal or own deadline). */
export const WAITING_METHODS: ReadonlySet<string> = new Set([
  'GetWorkflowExecutionHistory',
  'QueryWorkflow',
  'UpdateWorkflowExecution',
  'PollWorkflowExecutionUpdate',
]);

/**
 * A gRPC client interceptor that gives every call without a deadline one `defaultMs` from now, except
 * {@link WAITING_METHODS}. Placed before Temporal's retry interceptor, the deadline bounds the retries too.
 * @param defaultMs deadline of a call, in ms.
 */
export function defaultDeadlineInterceptor(defaultMs: number): Interceptor {
  return (options, nextCall) => {
    const path = options.method_definition.path;
    const method = path.slice(path.lastIndexOf('/') + 1);
    const bounded = options.deadline === undefined && !WAITING_METHODS.has(method) ? { ...options, deadline: Date.now() + defaultMs } : options;
    return new InterceptingCall(nextCall(bounded));
  };
}

/** The interceptors of the API's engine connection: the default deadline, then Temporal's own retry policy. */
export function engineInterceptors(defaultMs: number): Interceptor[] {
  return [defaultDeadlineInterceptor(defaultMs), makeGrpcRetryInterceptor(defaultGrpcRetryOptions())];
}
