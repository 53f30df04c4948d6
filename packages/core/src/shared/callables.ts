import type { WorkflowActivityOptions } from './options.js';
import type { WorkflowControl, WorkflowRunInfo } from './context.js';
import type { ActivityConfig, ActivityDefinition, EvaluationResult, EvaluatorResult, WorkflowDefinition } from './definition.js';
import type { SKEIN } from './definition.js';

/** Options of a child workflow call: `await otherWorkflow(input, options)` inside a workflow's `fn`. */
export interface ChildWorkflowCallOptions {
  /** Invocation-level activity options: override the child's definition and inherited options (no `activityId`). */
  activityOptions?: WorkflowActivityOptions;
  /** Child workflow id; default `<parentWorkflowId>/<childName>-<n>` (deterministic). */
  workflowId?: string;
  /**
   * Fire and forget: the child is started with Temporal's `ParentClosePolicy.ABANDON`, so it outlives its
   * parent, and the call resolves as soon as it has started, to `{ workflowId, runId }`, without waiting for its
   * result. Default false: the call resolves to the child's output and the child is terminated if the parent
   * closes first (`ParentClosePolicy.TERMINATE`).
   */
  detached?: boolean;
  /**
   * Plain Node only (unit tests of workflow code, no engine): fields that replace those of the local `context` the
   * workflow's `fn` receives, such as `{ info: { workflowId: 'test-run-123' } }` or
   * `{ control: { isContinueAsNewSuggested: () => true } }`. Ignored in workflow code, where the context is the run's.
   */
  context?: LocalContextOverrides;
}

/** Overrides of the local `context` of a workflow called in plain Node: each given field replaces the default one. */
export interface LocalContextOverrides {
  info?: Partial<WorkflowRunInfo>;
  control?: Partial<WorkflowControl<never>>;
}

/** Options of a detached (fire-and-forget) child workflow call. */
export type DetachedCallOptions = ChildWorkflowCallOptions & { detached: true };

/** What a detached child workflow call resolves to once the child has started. */
export interface StartedChildWorkflow {
  workflowId: string;
  runId: string;
}

/** The input parameter of a workflow call: optional when the workflow accepts `undefined` (no `inputSchema`). */
type InputArgs<I, Opts> = undefined extends I ? [input?: I, options?: Opts] : [input: I, options?: Opts];

/**
 * What `workflow()` returns: callable as a child workflow from workflow code, in every shape
 * `child()`, `child(input)`, `child(input, { activityOptions })`, `child(undefined, { activityOptions })`,
 * `child(undefined, { detached: true })`. An attached call not awaited still runs, until its parent closes.
 */
export interface SkeinWorkflow<I, O> {
  (input: undefined extends I ? I | undefined : I, options: DetachedCallOptions): Promise<StartedChildWorkflow>;
  (...args: InputArgs<I, ChildWorkflowCallOptions>): Promise<O>;
  readonly [SKEIN]: WorkflowDefinition<I, O>;
}

/**
 * What `step()` and `evaluator()` return: callable from workflow code (an activity) or directly in Node.
 * `input` is any JSON value: object, array or scalar.
 */
export interface SkeinActivity<I, O> {
  (...args: undefined extends I ? [input?: I] : [input: I]): Promise<O>;
  readonly [SKEIN]: ActivityDefinition<I, O>;
}

/**
 * `evaluator()` in both entries: defines an evaluator from its config, and a call of what it returns is typed as what
 * `fn` returns, or as the `outputSchema`'s output when one is given (`EvaluatorResult`).
 */
export type DefineEvaluator = <I = unknown, V = unknown, In = I, R extends EvaluationResult<V> = EvaluationResult<V>>(
  config: ActivityConfig<I, R, In>,
) => SkeinActivity<In, EvaluatorResult<R, V>>;
