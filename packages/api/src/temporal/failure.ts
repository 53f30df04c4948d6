import type { temporal } from '@temporalio/proto';

type IFailure = temporal.api.failure.v1.IFailure;

/** Maximum depth of a rendered cause chain: 10 levels. */
export const MAX_CAUSE_DEPTH = 10;

/** The sanitized failure object of the run response (`failure`): messages and types only, no stack traces. */
export interface FailureView {
  message: string;
  type: string;
  retryable: boolean;
  cause: FailureView | null;
}

/** `errorDetails` of the run response. */
export interface ErrorDetails {
  message: string;
  name: string;
  retryable: boolean;
  activityId?: string;
  cause: FailureView | null;
}

/** `error` of the result response. */
export interface ResultError {
  activityType?: string;
  name: string;
  message: string;
}

/** The failure type name of one failure node (the `ApplicationFailure` type, or the Temporal failure class). */
export function failureType(f: IFailure): string {
  if (f.applicationFailureInfo) return f.applicationFailureInfo.type || 'Error';
  if (f.activityFailureInfo) return 'ActivityFailure';
  if (f.childWorkflowExecutionFailureInfo) return 'ChildWorkflowFailure';
  if (f.timeoutFailureInfo) return 'TimeoutFailure';
  if (f.canceledFailureInfo) return 'CancelledFailure';
  if (f.terminatedFailureInfo) return 'TerminatedFailure';
  if (f.serverFailureInfo) return 'ServerFailure';
  if (f.resetWorkflowFailureInfo) return 'ResetWorkflowFailure';
  return 'Error';
}

function retryable(f: IFailure): boolean {
  if (f.applicationFailureInfo) return !f.applicationFailureInfo.nonRetryable;
  if (f.serverFailureInfo) return !f.serverFailureInfo.nonRetryable;
  if (f.timeoutFailureInfo) return true;
  return false;
}

/**
 * Renders a Temporal failure chain sanitized: message, type and retryability of each node, at most
 * {@link MAX_CAUSE_DEPTH} levels; stack traces, encoded attributes and details are dropped.
 */
export function failureView(f: IFailure | null | undefined, depth = 1): FailureView | null {
  if (!f) return null;
  return {
    message: f.message ?? '',
    type: failureType(f),
    retryable: retryable(f),
    cause: depth < MAX_CAUSE_DEPTH ? failureView(f.cause, depth + 1) : null,
  };
}

/**
 * The failure that explains a workflow failure: the chain is walked past activity and child-workflow wrappers
 * (whose own message is generic) to the first node that carries the real error. Returns that node and the
 * innermost activity wrapper crossed on the way, if any.
 */
export function leadingFailure(f: IFailure): { leading: IFailure; activity: IFailure | undefined } {
  let node = f;
  let activity: IFailure | undefined;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH; depth++) {
    const wrapper = node.activityFailureInfo || node.childWorkflowExecutionFailureInfo;
    if (!wrapper || !node.cause) break;
    if (node.activityFailureInfo) activity = node;
    node = node.cause;
  }
  return { leading: node, activity };
}

/** The failure fields of the run response for a failed run: `error`, `errorDetails` and `failure`. */
export function runFailureFields(f: IFailure): { error: string; errorDetails: ErrorDetails; failure: FailureView } {
  const { leading, activity } = leadingFailure(f);
  const details: ErrorDetails = {
    message: leading.message ?? '',
    name: failureType(leading),
    retryable: retryable(leading),
    cause: failureView(leading.cause, 2),
  };
  const activityId = activity?.activityFailureInfo?.activityId;
  if (activityId) details.activityId = activityId;
  return { error: leading.message ?? '', errorDetails: details, failure: failureView(f)! };
}

/** The `error` object of the result response for a failed run. */
export function resultError(f: IFailure): ResultError {
  const { leading, activity } = leadingFailure(f);
  const out: ResultError = { name: failureType(leading), message: leading.message ?? '' };
  const activityType = activity?.activityFailureInfo?.activityType?.name;
  if (activityType) out.activityType = activityType;
  return out;
}
