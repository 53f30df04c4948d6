/**
 * `@skein/core`: the authoring API workflow packages peer-depend on (Node entry): what a package author writes
 * workflows, steps, evaluators and hook files with, and nothing else (the worker's share is `@skein/core/internal`).
 * In a workflow bundle the `skein-workflow-bundle` condition selects `./workflow/index.js` instead.
 * Never imports `@temporalio/worker`.
 */
import type { z } from 'zod';
import {
  SKEIN,
  normalizeActivityConfig,
  normalizeWorkflowConfig,
  type ActivityConfig,
  type ActivityDefineConfig,
  type CallInput,
  type CallResult,
  type EvaluationResult,
  type WorkflowConfig,
  type WorkflowDefineConfig,
} from './shared/definition.js';
import { runActivity } from './activity/run.js';
import type { ChildWorkflowCallOptions, DefineEvaluator, SkeinActivity, SkeinWorkflow } from './shared/callables.js';
import { runLocally } from './local/run.js';
import { FatalError } from './shared/errors.js';
import { checkHttpRequest, type HttpRequestArgs, type SerializedFetchResponse, type WebhookRequestArgs } from './shared/http-request.js';
import { performHttpRequest } from './activity/http-request.js';

export { z } from 'zod';
export type * from './shared/seed-types.js';
export * from './shared/names.js';
export { skeinPackageJsonSettings, packageJsonSchema } from './shared/package-json.js';
export * from './shared/definition.js';
export * from './shared/options.js';
export * from './shared/callables.js';
export { deepMerge, isPlainObject } from './shared/merge.js';
export { checkSchema, SCHEMA_ERROR_TYPE } from './shared/validate.js';
export * from './shared/context.js';
export { FatalError, TransparentFatalError, ValidationError, hasErrorType, errorTypeName, isNonRetryableError, NON_ERROR_THROWN } from './shared/errors.js';
export { durationMs, type Duration } from './shared/duration.js';
export * from './shared/parallel.js';
export { sleep } from './local/run.js';
export {
  EvaluationResultValidationError,
  EvaluationFeedback,
  BaseEvaluationResult,
  EvaluationStringResult,
  EvaluationNumberResult,
  EvaluationBooleanResult,
  EvaluationVerdictResult,
  type EvaluationResultArgs,
  type EvaluationFeedbackPriority,
} from './shared/evaluation-result.js';
export { Logger } from './activity/logger.js';
export { LOG_LEVELS, type LogLevel, type LogRecord, type LoggerApi } from './shared/logger.js';
export type { HttpMethod, HttpRequestArgs, ResponseOptions, SerializedFetchResponse, WebhookRequestArgs } from './shared/http-request.js';
// Signals, queries and updates: Temporal's own definitions (usable anywhere); `setHandler` and `condition`
// only work inside a workflow execution (the worker's sandbox), as in `@temporalio/workflow`.
export { condition, defineQuery, defineSignal, defineUpdate, setHandler } from '@temporalio/workflow';
// Guarding a change to a running workflow's code (Temporal's `patched`/`deprecatePatch` in the worker's sandbox).
export { patched, deprecatePatch } from './local/patch.js';

/**
 * Sends an HTTP request. In workflow code (the workflow-safe entry) it runs as the built-in activity; here in Node
 * (unit tests, scripts) the request is sent in-process with the same checks, answer and errors
 * (`performHttpRequest`).
 * @returns the response serialized: `{ url, status, statusText, ok, headers?, body? }`.
 * @throws ValidationError for invalid arguments; FatalError when the host is unreachable or the answer is not 2xx.
 */
export async function sendHttpRequest(args: HttpRequestArgs): Promise<SerializedFetchResponse> {
  return performHttpRequest(args);
}

/**
 * Posts to `url` and waits for `POST /workflow/{id}/feedback`: workflow code only (it waits for a signal, which
 * only a workflow run can receive). In Node it checks its arguments, then throws.
 * @throws ValidationError for invalid arguments; FatalError always otherwise, naming the reason.
 */
export async function sendPostRequestAndAwaitWebhook(args: WebhookRequestArgs): Promise<unknown> {
  checkHttpRequest({ url: args?.url, method: 'POST', payload: args?.payload ?? {}, headers: args?.headers });
  throw new FatalError('sendPostRequestAndAwaitWebhook() waits for a signal and runs only in workflow code (a workflow run on a worker)');
}

/**
 * Continues the running workflow as a new run with `input` (Temporal's `continueAsNew`): workflow code only.
 * Prefer `context.control.continueAsNew(input)`, which also works when the workflow runs in plain Node.
 * @throws FatalError in Node, where no workflow run exists.
 */
export async function continueAsNew(_input?: unknown): Promise<never> {
  throw new FatalError('continueAsNew() runs only in workflow code; in unit tests use context.control.continueAsNew(input)');
}

/**
 * Defines a workflow. The worker runs `fn` in Temporal's deterministic sandbox; there, calling a step or
 * evaluator schedules an activity and calling another workflow starts a child workflow.
 * In plain Node (unit tests) calling the returned function runs `fn` directly with schema checks and a local
 * `context` (`runLocally`): continue-as-new starts the next run in-process, child calls run in-process too (their
 * call options are ignored there, but for `context`, whose fields replace the local context's: a detached call also
 * runs the child to completion and answers its output).
 * Typed from its schemas (`WorkflowDefineConfig`): `fn` receives the input schema's output and returns the output
 * schema's input; a call passes the input schema's input and resolves to the output schema's output.
 * @throws DefinitionError on a malformed config (bad name, non-function `fn`, an unknown key, at the top or in `options`).
 */
export function workflow<I = unknown, Returned = unknown, In = I, S extends z.ZodType | undefined = undefined, IS extends z.ZodType | undefined = undefined>(
  config: WorkflowDefineConfig<I, Returned, In, S, IS>,
): SkeinWorkflow<CallInput<IS, In>, CallResult<S, Returned>> {
  const def = normalizeWorkflowConfig(config as unknown as WorkflowConfig<unknown, unknown>);
  const call = (input?: unknown, options?: ChildWorkflowCallOptions) => runLocally(def, input, options?.context);
  return Object.assign(call, { [SKEIN]: def }) as never;
}

/**
 * Defines a step: an activity that may do I/O. Registered as `<workflowName>#<name>`.
 * Calling the returned function in Node runs it with schema checks (useful in unit tests).
 * Typed from its schemas as `workflow()` is (`ActivityDefineConfig`).
 * @throws DefinitionError on a malformed config (bad name, non-function `fn`, an unknown key).
 */
export function step<I = unknown, Returned = unknown, In = I, S extends z.ZodType | undefined = undefined, IS extends z.ZodType | undefined = undefined>(
  config: ActivityDefineConfig<I, Returned, In, S, IS>,
): SkeinActivity<CallInput<IS, In>, CallResult<S, Returned>> {
  const def = normalizeActivityConfig('step', config as unknown as ActivityConfig<unknown, unknown>);
  return Object.assign((input: unknown) => runActivity(def as never, input), { [SKEIN]: def }) as never;
}

/**
 * Defines an evaluator: an activity whose `fn` returns an evaluation result (an instance of one of the evaluation
 * result classes, or a plain `{ value, confidence?, reasoning? }`). A call is typed as what `fn` returns, or as the
 * `outputSchema`'s output when one is given (`EvaluatorResult`): an `EvaluationNumberResult`'s `confidence` is a
 * `number`, not `number | undefined`.
 * @throws DefinitionError on a malformed config.
 */
export const evaluator: DefineEvaluator = (config) => {
  const def = normalizeActivityConfig('evaluator', config as unknown as ActivityConfig<unknown, EvaluationResult>);
  return Object.assign((input: unknown) => runActivity(def as never, input), { [SKEIN]: def }) as never;
};

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
