import type { ActivityOptions } from './options.js';
import type { ActivityDefinition, WorkflowDefinition } from './definition.js';
import type { SKEIN } from './definition.js';

/** Options of a child workflow call: `await otherWorkflow(input, options)` inside a workflow's `fn`. */
export interface ChildWorkflowCallOptions {
  /** Invocation-level activity options (SPEC rule 11): override the child's definition and inherited options. */
  activityOptions?: ActivityOptions;
  /** Child workflow id; default `<parentWorkflowId>/<childName>-<n>` (deterministic). */
  workflowId?: string;
  /** Let the child outlive its parent (Temporal `ParentClosePolicy.ABANDON`). Default false. */
  detached?: boolean;
}

/** What `workflow()` returns: callable as a child workflow from workflow code. */
export interface SkeinWorkflow<I, O> {
  (input: I, options?: ChildWorkflowCallOptions): Promise<O>;
  readonly [SKEIN]: WorkflowDefinition<I, O>;
}

/** What `step()` and `evaluator()` return: callable from workflow code (an activity) or directly in Node. */
export interface SkeinActivity<I, O> {
  (input: I): Promise<O>;
  readonly [SKEIN]: ActivityDefinition<I, O>;
}
