/**
 * `@skein/core`: the authoring API workflow packages peer-depend on (Node entry).
 * In a workflow bundle the `skein-workflow-bundle` condition selects `./workflow/index.js` instead.
 * Never imports `@temporalio/worker`.
 */
import {
  SKEIN,
  normalizeActivityConfig,
  normalizeWorkflowConfig,
  type ActivityConfig,
  type EvaluationResult,
  type WorkflowConfig,
} from './shared/definition.js';
import { runActivity } from './activity/run.js';
import type { SkeinActivity, SkeinWorkflow } from './shared/callables.js';
import { runLocally } from './local/run.js';

export { z } from 'zod';
export * from './shared/names.js';
export { skeinPackageJsonSettings, packageJsonSchema } from './shared/package-json.js';
export * from './shared/definition.js';
export * from './shared/options.js';
export * from './shared/callables.js';
export { deepMerge, isPlainObject } from './shared/merge.js';
export { checkSchema, SCHEMA_ERROR_TYPE } from './shared/validate.js';
export { runActivity, toActivityFailure } from './activity/run.js';
export * from './shared/context.js';
export { FatalError, ValidationError, hasErrorType, errorTypeName, isNonRetryableError, NON_ERROR_THROWN } from './shared/errors.js';
export { durationMs, type Duration } from './shared/duration.js';
export { executeInParallel, type ParallelOptions, type ParallelResult } from './shared/parallel.js';
export { sleep } from './local/run.js';
// Signals, queries and updates: Temporal's own definitions (usable anywhere); `setHandler` and `condition`
// only work inside a workflow execution (the worker's sandbox), as in `@temporalio/workflow`.
export { condition, defineQuery, defineSignal, defineUpdate, setHandler } from '@temporalio/workflow';
// Guarding a change to a running workflow's code (Temporal's `patched`/`deprecatePatch` in the worker's sandbox).
export { patched, deprecatePatch } from './local/patch.js';

/**
 * Defines a workflow. The worker runs `fn` in Temporal's deterministic sandbox; there, calling a step or
 * evaluator schedules an activity and calling another workflow starts a child workflow.
 * In plain Node (unit tests) calling the returned function runs `fn` directly with schema checks and a local
 * `context` (`runLocally`): continue-as-new starts the next run in-process, child calls run in-process too (their
 * call options are ignored there: a detached call also runs the child to completion and answers its output).
 * @throws DefinitionError on a malformed config (bad name, non-function `fn`, unknown option keys).
 */
export function workflow<I = unknown, O = unknown, In = I>(config: WorkflowConfig<I, O, In>): SkeinWorkflow<In, O> {
  const def = normalizeWorkflowConfig(config as unknown as WorkflowConfig<I, O>);
  const call = (input?: In) => runLocally(def as never, input);
  return Object.assign(call, { [SKEIN]: def }) as unknown as SkeinWorkflow<In, O>;
}

/**
 * Defines a step: an activity that may do I/O. Registered as `<workflowName>#<name>`.
 * Calling the returned function in Node runs it with schema checks (useful in unit tests).
 * @throws DefinitionError on a malformed config.
 */
export function step<I = unknown, O = unknown, In = I>(config: ActivityConfig<I, O, In>): SkeinActivity<In, O> {
  const def = normalizeActivityConfig('step', config as unknown as ActivityConfig<I, O>);
  return Object.assign((input: In) => runActivity(def as never, input) as Promise<O>, { [SKEIN]: def }) as unknown as SkeinActivity<In, O>;
}

/**
 * Defines an evaluator: an activity whose `fn` returns `{ value, confidence?, reasoning? }`.
 * @throws DefinitionError on a malformed config.
 */
export function evaluator<I = unknown, V = unknown, In = I>(config: ActivityConfig<I, EvaluationResult<V>, In>): SkeinActivity<In, EvaluationResult<V>> {
  const def = normalizeActivityConfig('evaluator', config as unknown as ActivityConfig<I, EvaluationResult<V>>);
  return Object.assign((input: In) => runActivity(def as never, input) as Promise<EvaluationResult<V>>, { [SKEIN]: def }) as unknown as SkeinActivity<
    In,
    EvaluationResult<V>
  >;
}

// Hooks (README, "Hooks"): registration for hook files, emission for steps.
export {
  onWorkflowStart,
  onWorkflowEnd,
  onWorkflowError,
  onActivityStart,
  onActivityEnd,
  onActivityError,
  onError,
  onBeforeStart,
  on,
  emit,
  type HookCallback,
  type LifecycleHooks,
} from './hooks/registry.js';
export { tracedFetch, tracedFetch as fetch, reportLlmUsage, type TracedRequestInit } from './hooks/fetch.js';
export type * from './hooks/types.js';
export { effectiveActivityOptions, workflowLevelOptions, type ActivityOptionLayers } from './shared/activity-options.js';

// For the worker (not part of the authoring API).
export { dispatchLifecycle, setHookErrorReporter, drainHooks, hasHooks, clearHooks } from './hooks/registry.js';
export { runInActivityScope, currentActivityScope, emptyAggregations, type ActivityScope } from './hooks/scope.js';
export {
  workflowDetailsFrom,
  traceFilePath,
  traceSegment,
  traceObjectKey,
  traceObjectUrl,
  traceObjectKeyFromUrl,
  traceDestinationsOf,
  WORKFLOW_DETAILS_HEADER,
  TRACE_MEMO_KEY,
  type WorkflowInfoLike,
  type RemoteTraceLocation,
  type TraceDestinations,
} from './hooks/details.js';
export { serializeError, MAX_CAUSE_DEPTH } from './hooks/serialize.js';
export { ATTEMPT_ERRORS_KEY, isAttemptErrorsCarrier, withoutAttemptErrors } from './shared/attempt-errors.js';
export type { SkeinSinks } from './workflow/sinks.js';
