import type { ActivityOptions } from '../shared/options.js';

/**
 * Second argument of every Skein workflow function, set by a parent workflow when it starts a child
 * (absent for executions started through the API). Carries the inherited and invocation layers of activity options.
 */
export interface SkeinRunArgs {
  /** The parent's effective workflow-level activity options, inherited by the child. */
  inheritedActivityOptions?: ActivityOptions;
  /** `activityOptions` given at the call site of the child workflow (invocation level). */
  invocationActivityOptions?: ActivityOptions;
  /** The root run's trace destinations: a child run publishes them as its own (its trace is its root's). */
  traceDestinations?: { local?: string; remote?: string };
}

/** Per-run state of a Skein workflow, kept on the sandbox's per-workflow global object. */
export interface RunContext extends SkeinRunArgs {
  workflowName: string;
  definitionActivityOptions?: ActivityOptions;
}

const KEY = '__skeinRunContext';

/** Installs the run context of the workflow execution being run (Temporal isolates globals per workflow). */
export function setRunContext(ctx: RunContext): void {
  (globalThis as Record<string, unknown>)[KEY] = ctx;
}

/**
 * The run context of the current workflow execution.
 * @throws Error when called outside a Skein workflow's `fn` (for example a step called at module top level).
 */
export function runContext(): RunContext {
  const ctx = (globalThis as Record<string, unknown>)[KEY] as RunContext | undefined;
  if (!ctx) {
    throw new Error('Steps, evaluators and workflows can only be called from inside a workflow fn');
  }
  return ctx;
}
