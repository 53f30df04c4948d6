/**
 * Workflow-safe entry of `@skein/core`, selected in the workflow bundle by the `skein-workflow-bundle`
 * export condition. Imports nothing Node-only: only `@temporalio/workflow` and zod.
 */
import {
  ApplicationFailure,
  ContinueAsNew,
  ParentClosePolicy,
  TemporalFailure,
  condition,
  defineQuery,
  defineSignal,
  executeChild,
  proxyActivities,
  startChild,
  setHandler,
  setWorkflowOptions,
  upsertMemo,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { TRACE_MEMO_KEY, traceFilePath, traceObjectKey, traceObjectUrl, type RemoteTraceLocation, type TraceDestinations } from '@skein/names/traces';
import { serializeError } from '../hooks/serialize.js';
import { effectiveActivityOptions, workflowLevelOptions } from '../shared/activity-options.js';
import { sinks } from './sinks.js';
import {
  SKEIN,
  normalizeActivityConfig,
  normalizeWorkflowConfig,
  type ActivityConfig,
  type ActivityDefineConfig,
  type ActivityKind,
  type CallInput,
  type CallResult,
  type WorkflowConfig,
  type WorkflowDefineConfig,
  type WorkflowDefinition,
} from '../shared/definition.js';
import { CATALOG_STOPPED_MEMO_KEY, CATALOG_WORKER_STOPPED_SIGNAL, activityType } from '../shared/names.js';
import type { ActivityOptions } from '../shared/options.js';
import { SCHEMA_ERROR_TYPE, checkSchema } from '../shared/validate.js';
import { runContext, setRunContext, type SkeinRunArgs } from './context.js';
import type { ChildWorkflowCallOptions, DefineEvaluator, SkeinActivity, SkeinWorkflow } from '../shared/callables.js';
import { NON_ERROR_THROWN, errorTypeName, isNonRetryableError, nonErrorThrownMessage } from '../shared/errors.js';
import { workflowContext } from './workflow-context.js';
import type { z } from 'zod';

export { z } from 'zod';
export type * from '../shared/seed-types.js';
export type { ParallelJobResult } from '../shared/parallel.js';
export * from '../shared/names.js';
export type * from '../shared/definition.js';
export type * from '../shared/callables.js';
export type { ActivityOptions } from '../shared/options.js';
export type * from '../shared/context.js';
export type { Duration } from '../shared/duration.js';
export { FatalError, TransparentFatalError, ValidationError, hasErrorType } from '../shared/errors.js';
export * from './helpers.js';
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
} from '../shared/evaluation-result.js';
export { Logger } from './logger.js';
export type { LogLevel, LogRecord, LoggerApi } from '../shared/logger.js';
export { sendHttpRequest, sendPostRequestAndAwaitWebhook } from './http.js';
export type { HttpMethod, HttpRequestArgs, ResponseOptions, SerializedFetchResponse, WebhookRequestArgs } from '../shared/http-request.js';
// Temporal's own: continue this run as a new one with fresh history (prefer `context.control.continueAsNew`).
export { continueAsNew } from '@temporalio/workflow';

function effectiveWorkflowOptions(): ActivityOptions {
  const ctx = runContext();
  return workflowLevelOptions({
    inherited: ctx.inheritedActivityOptions,
    definition: ctx.definitionActivityOptions,
    invocation: ctx.invocationActivityOptions,
  });
}

/** Settings the worker compiles into the bundle's generated entry (same for every execution). */
export interface BundleSettings {
  /** Directory of local trace files on the worker's machine; unset = no local traces. */
  traceDir?: string;
  /** Where the worker uploads traces; unset = no remote destination. */
  traceRemote?: RemoteTraceLocation;
}

let settings: BundleSettings = {};

/** Called once by the generated bundle entry. */
export function configureBundle(next: BundleSettings): void {
  settings = next;
}

/**
 * The run's trace destinations, published in its memo where the API and the worker's trace recorder read them. A
 * root run derives them from its own ids, type and start (its `WorkflowExecutionStarted` event's time, which the
 * API and the recorder read back from history), never from its arguments: whoever starts a root run chooses its
 * arguments, and must not choose where its trace is written. A child run publishes its root's, passed down by its
 * parent (a child started without them names its root's local file).
 */
function publishTraceDestinations(inherited: TraceDestinations | undefined): TraceDestinations {
  const info = workflowInfo();
  let dest: TraceDestinations = {};
  if (!info.parent) {
    if (settings.traceDir) dest.local = traceFilePath(settings.traceDir, info);
    if (settings.traceRemote) {
      const key = traceObjectKey(settings.traceRemote.prefix, {
        workflowType: info.workflowType,
        workflowId: info.workflowId,
        startedAt: info.startTime.getTime(),
      });
      dest.remote = traceObjectUrl(settings.traceRemote, key);
    }
  } else if (inherited) dest = inherited;
  else if (settings.traceDir) dest.local = traceFilePath(settings.traceDir, info.root ?? info);
  if (dest.local !== undefined || dest.remote !== undefined) upsertMemo({ [TRACE_MEMO_KEY]: dest });
  return dest;
}

/**
 * Runs a workflow definition as the body of a Temporal workflow execution: validates input, runs `fn`,
 * validates output. Schema failures and plain errors become `ApplicationFailure`s (schema: non-retryable).
 */
async function runDefinition(def: WorkflowDefinition, input: unknown, args: SkeinRunArgs | undefined): Promise<unknown> {
  setRunContext({
    workflowName: def.name,
    definitionActivityOptions: def.options?.activityOptions,
    inheritedActivityOptions: args?.inheritedActivityOptions,
    invocationActivityOptions: args?.invocationActivityOptions,
  });
  // A workflow with `options.disableTrace` publishes no destination, so no worker writes or uploads its trace.
  runContext().traceDestinations = def.options?.disableTrace ? {} : publishTraceDestinations(args?.traceDestinations);
  sinks.skein.workflowStarted(input ?? null);
  try {
    const output = await runBody(def, input, args);
    sinks.skein.workflowCompleted(output);
    return output;
  } catch (err) {
    if (err instanceof ContinueAsNew) sinks.skein.workflowContinuedAsNew();
    else sinks.skein.workflowFailed(serializeError(err));
    throw err;
  }
}

async function runBody(def: WorkflowDefinition, input: unknown, args: SkeinRunArgs | undefined): Promise<unknown> {
  const checkedInput = checkSchema(def.inputSchema, input ?? undefined, `input of workflow "${def.name}"`);
  if (!checkedInput.ok) throw ApplicationFailure.nonRetryable(checkedInput.message, SCHEMA_ERROR_TYPE);
  let output: unknown;
  try {
    output = await def.fn(checkedInput.value, workflowContext(def, args));
  } catch (err) {
    // Temporal's own control flow (failures, cancellation, continue-as-new) passes through untouched.
    if (err instanceof TemporalFailure || err instanceof ContinueAsNew) throw err;
    if (!(err instanceof Error)) {
      throw ApplicationFailure.nonRetryable(nonErrorThrownMessage(`workflow "${def.name}"`, err), NON_ERROR_THROWN);
    }
    const failure = ApplicationFailure.create({ message: err.message, type: errorTypeName(err), nonRetryable: isNonRetryableError(err), cause: err });
    failure.stack = err.stack; // the failure's stack trace is where the error was thrown (source-mapped to .ts)
    throw failure;
  }
  const checkedOutput = checkSchema(def.outputSchema, output, `output of workflow "${def.name}"`);
  if (!checkedOutput.ok) throw ApplicationFailure.nonRetryable(checkedOutput.message, SCHEMA_ERROR_TYPE);
  return checkedOutput.value ?? null;
}

/**
 * Emits a named event from workflow code to the worker's `on()` listeners (delivered after the workflow
 * activation, never during replay). Outside workflow code, use `emit` from the Node entry.
 */
export function emit(name: string, payload: unknown): void {
  sinks.skein.emit(name, payload);
}

/**
 * Defines a workflow. Calling the returned function from another workflow's `fn` runs it as a Temporal child
 * workflow on the same catalog; the worker registers `workflowFunction(defined)` as the workflow type.
 * Typed from its schemas (`WorkflowDefineConfig`), as the Node entry's `workflow()` is.
 * @throws DefinitionError on a malformed config.
 */
export function workflow<I = unknown, Returned = unknown, In = I, S extends z.ZodType | undefined = undefined, IS extends z.ZodType | undefined = undefined>(
  config: WorkflowDefineConfig<I, Returned, In, S, IS>,
): SkeinWorkflow<CallInput<IS, In>, CallResult<S, Returned>> {
  const def: WorkflowDefinition = normalizeWorkflowConfig(config as unknown as WorkflowConfig<unknown, unknown>);
  const call = async (input?: unknown, options?: ChildWorkflowCallOptions): Promise<unknown> => {
    const info = workflowInfo();
    const { traceDestinations } = runContext();
    const childArgs: SkeinRunArgs = {
      inheritedActivityOptions: effectiveWorkflowOptions(),
      invocationActivityOptions: options?.activityOptions,
      ...(traceDestinations && (traceDestinations.local || traceDestinations.remote) ? { traceDestinations } : {}),
    };
    const childOptions = {
      args: [input ?? null, childArgs] as [unknown, SkeinRunArgs],
      taskQueue: info.taskQueue,
      workflowId: options?.workflowId ?? childWorkflowId(info.workflowId),
    };
    if (options?.detached) {
      const handle = await startChild(def.name, { ...childOptions, parentClosePolicy: ParentClosePolicy.ABANDON });
      return { workflowId: handle.workflowId, runId: handle.firstExecutionRunId };
    }
    return executeChild(def.name, { ...childOptions, parentClosePolicy: ParentClosePolicy.TERMINATE });
  };
  return Object.assign(call, { [SKEIN]: def }) as never;
}

/**
 * The id of a child workflow started without an explicit `workflowId`: `<parent workflow id>-<uuid>`, usable as-is
 * in a URL path (the token is `[0-9a-f-]`). The uuid comes from the workflow's seeded random source, so a replay
 * gives the same id, while a continue-as-new run or a reset run (which the engine gives a new seed) gives new ids
 * instead of repeating the previous run's.
 */
export function childWorkflowId(parentWorkflowId: string): string {
  return `${parentWorkflowId}-${uuid4()}`;
}

/** The Temporal workflow function of a defined workflow, as the worker's generated entry exports it. */
export function workflowFunction(defined: SkeinWorkflow<unknown, unknown>): (input: unknown, args?: SkeinRunArgs) => Promise<unknown> {
  const def = (defined as unknown as Record<symbol, WorkflowDefinition>)[SKEIN];
  if (!def || def.kind !== 'workflow') throw new Error('workflowFunction() takes the value returned by workflow()');
  const fn = (input: unknown, args?: SkeinRunArgs) => runDefinition(def, input, args);
  // Workers poll as versioned workers whose default is pinned; a workflow may ask to move to the current build.
  if (def.versioningBehavior) setWorkflowOptions({ versioningBehavior: def.versioningBehavior === 'auto-upgrade' ? 'AUTO_UPGRADE' : 'PINNED' }, fn);
  return fn;
}

/** Static facts about an activity, compiled into the workflow bundle by the worker's loader. */
export interface ActivityStubMeta {
  name: string;
  kind: ActivityKind;
  /** The step's or evaluator's own `options.activityOptions` (the most specific layer of activity options). */
  activityOptions?: ActivityOptions;
}

/**
 * Replaces a step or evaluator inside the workflow bundle: calling it schedules the activity
 * `<workflowName>#<name>` with options layered from Skein's defaults to the step's own (docs/package-rules.md, rule 11).
 * Used by generated code only.
 */
export function activityStub(meta: ActivityStubMeta): SkeinActivity<unknown, unknown> {
  const call = (input: unknown): Promise<unknown> => {
    const ctx = runContext();
    const options = effectiveActivityOptions({
      inherited: ctx.inheritedActivityOptions,
      definition: ctx.definitionActivityOptions,
      invocation: ctx.invocationActivityOptions,
      activity: meta.activityOptions,
    });
    const acts = proxyActivities<Record<string, (i: unknown) => Promise<unknown>>>(options as never);
    return acts[activityType(ctx.workflowName, meta.name)]!(input ?? null);
  };
  return Object.assign(call, { [SKEIN]: { kind: meta.kind, name: meta.name, options: { activityOptions: meta.activityOptions } } }) as never;
}

function notInBundle(kind: ActivityKind) {
  return <I = unknown, Returned = unknown, In = I, S extends z.ZodType | undefined = undefined, IS extends z.ZodType | undefined = undefined>(
    config: ActivityDefineConfig<I, Returned, In, S, IS>,
  ): SkeinActivity<CallInput<IS, In>, CallResult<S, Returned>> => {
    const def = normalizeActivityConfig(kind, config as unknown as ActivityConfig<unknown, unknown>);
    const call = () => {
      throw ApplicationFailure.nonRetryable(
        `${kind} "${def.name}" is defined outside a steps or evaluators file and cannot run in workflow code`,
        'SkeinDefinitionError',
      );
    };
    return Object.assign(call, { [SKEIN]: def }) as never;
  };
}

/** Defines a step. In workflow code, steps come from steps files, which the worker replaces with activity stubs. */
export const step = notInBundle('step');

/** Defines an evaluator. In workflow code, evaluators come from evaluators files, replaced with activity stubs. */
export const evaluator: DefineEvaluator = notInBundle('evaluator');

/** Query answered by the `$catalog` registry workflow. */
export const catalogQuery = defineQuery<unknown>('catalog');

const catalogWorkerStoppedSignal = defineSignal<[string]>(CATALOG_WORKER_STOPPED_SIGNAL);

/**
 * The `$catalog` registry workflow: holds the head of the catalog document the worker published in its memo
 * (`memo.catalog`: version, deployment, project, publisher; the workflows are in the build's record), answers
 * `catalogQuery` with it, records workers that stopped (`memo.stoppedWorkers`), and runs until the next worker start
 * replaces it or the last worker retires it.
 */
export async function catalogWorkflow(): Promise<void> {
  setHandler(catalogQuery, () => workflowInfo().memo?.catalog ?? null);
  const stopped: string[] = [];
  setHandler(catalogWorkerStoppedSignal, (identity) => {
    if (typeof identity !== 'string' || stopped.includes(identity)) return;
    stopped.push(identity);
    if (stopped.length > 100) stopped.shift();
    upsertMemo({ [CATALOG_STOPPED_MEMO_KEY]: [...stopped] });
  });
  await condition(() => false);
}
// The registry moves to whichever build is current: as a pinned run it would keep its build from ever draining.
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, catalogWorkflow);
