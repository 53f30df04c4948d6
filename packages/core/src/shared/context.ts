/**
 * The second argument of a workflow's `fn`: `fn(input, context)` (issue "Workflow context"). Types only; the
 * workflow-safe entry builds it from Temporal's `workflowInfo()`, the Node entry a local stand-in.
 */

/** The parent of a child workflow run. */
export interface ParentRun {
  workflowId: string;
  runId: string;
  namespace: string;
}

/** The root (top-level) run of a tree of child workflows. */
export interface RootRun {
  workflowId: string;
  runId: string;
}

/** Facts about the running workflow execution (from Temporal's `WorkflowInfo`). */
export interface WorkflowRunInfo {
  workflowId: string;
  runId: string;
  /** The workflow type (the name, or the alias it was started under). */
  workflowType: string;
  /** Attempt number of this run, starting at 1 (> 1 only under a workflow retry policy). */
  attempt: number;
  /** The parent run; null for a run started through the API. */
  parent: ParentRun | null;
  /** The root run of the tree; null when this run is the root. */
  root: RootRun | null;
  /** When this run started, epoch ms. */
  startTime: number;
  /** The catalog (task queue) the run executes on. */
  catalog: string;
}

/** Run control from inside `fn`. */
export interface WorkflowControl<I> {
  /**
   * Ends this run as `continued_as_new` and starts the next run of the same workflow id with `input` (checked
   * against the workflow's `inputSchema` first). Use it as `return context.control.continueAsNew(next)`.
   * Never resolves.
   * @throws (rejects with) a non-retryable failure of type `SkeinValidationError` when `input` fails the schema,
   *   failing the run instead of starting a run that would fail.
   */
  continueAsNew(input: I): Promise<never>;
  /**
   * True once the engine suggests continuing as new (Temporal's `workflowInfo().continueAsNewSuggested`: the history
   * grows past its suggested length or size). Always false in plain Node, where no history exists.
   */
  isContinueAsNewSuggested(): boolean;
}

/** `fn(input, context)`'s `context`. */
export interface WorkflowContext<I = unknown> {
  info: WorkflowRunInfo;
  control: WorkflowControl<I>;
}
