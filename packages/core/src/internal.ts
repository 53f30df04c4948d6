/**
 * `@skein/core/internal`: what the Skein worker needs of the core beyond the authoring API: dispatching the hooks
 * that hook files register, the activity scope of a running step and its trace events, the run details carried to
 * activities, errors serialized for hooks and traces, the attempt-error carrier of retried activities, running an
 * activity, the built-in HTTP request activity, the sink of step log lines, and the sinks of the workflow sandbox.
 * Workflow packages never import it; nothing here is covered by the authoring API's compatibility.
 * It shares its modules (and so the hook registry) with the main entry.
 */
export { dispatchLifecycle, setHookErrorReporter, drainHooks, hasHooks, clearHooks } from './hooks/registry.js';
export { runInActivityScope, currentActivityScope, emptyAggregations, type ActivityScope, type TraceEvent } from './hooks/scope.js';
export { workflowDetailsFrom, WORKFLOW_DETAILS_HEADER, type WorkflowInfoLike } from './hooks/details.js';
export { serializeError, MAX_CAUSE_DEPTH } from './hooks/serialize.js';
export { ATTEMPT_ERRORS_KEY, isAttemptErrorsCarrier, withoutAttemptErrors } from './shared/attempt-errors.js';
export { runActivity, toActivityFailure } from './activity/run.js';
export { setNodeLogSink, type NodeLogSink } from './activity/logger.js';
export { RESERVED_LOG_KEYS, logFields } from './shared/logger.js';
export { checkHttpRequest, HTTP_REQUEST_ACTIVITY_OPTIONS } from './shared/http-request.js';
export { performHttpRequest, redactUrl, redactHeaders, hydrateHeaders, HTTP_REQUEST_TIMEOUT_MS } from './activity/http-request.js';
export type { SkeinSinks } from './workflow/sinks.js';
