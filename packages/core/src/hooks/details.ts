import type { WorkflowDetails } from './types.js';

/** The fields of Temporal's `WorkflowInfo` that `workflowDetails` is built from. */
export interface WorkflowInfoLike {
  attempt: number;
  continuedFromExecutionRunId?: string;
  firstExecutionRunId: string;
  parent?: { runId: string; workflowId: string; namespace: string };
  root?: { runId: string; workflowId: string };
  runId: string;
  runStartTime: Date;
  startTime: Date;
  workflowId: string;
  workflowType: string;
}

/** `workflowDetails` (the run a hook event belongs to) from a workflow info; pure, usable inside and outside the sandbox. */
export function workflowDetailsFrom(info: WorkflowInfoLike): WorkflowDetails {
  return {
    attempt: info.attempt,
    continuedFromExecutionRunId: info.continuedFromExecutionRunId ?? null,
    firstExecutionRunId: info.firstExecutionRunId,
    parent: info.parent ? { runId: info.parent.runId, workflowId: info.parent.workflowId, namespace: info.parent.namespace } : null,
    root: info.root ? { runId: info.root.runId, workflowId: info.root.workflowId } : null,
    runId: info.runId,
    runStartTime: info.runStartTime.getTime(),
    startTime: info.startTime.getTime(),
    workflowId: info.workflowId,
    workflowType: info.workflowType,
  };
}

/** Header that carries `workflowDetails` from a workflow to the activities it schedules. */
export const WORKFLOW_DETAILS_HEADER = 'skein-workflow-details';

/** Memo key under which a run publishes its trace destinations (`{ local?, remote? }`), read by the API. */
export const TRACE_MEMO_KEY = 'skeinTrace';

/** Longest file-name segment {@link traceFilePath} writes, in bytes (file systems allow 255). */
export const TRACE_SEGMENT_MAX_BYTES = 200;

/**
 * One safe path segment for `value`: percent-encoded (`encodeURIComponent`, then `.` as `%2E` so that `.` and
 * `..` cannot occur), and cut to {@link TRACE_SEGMENT_MAX_BYTES} at an escape boundary, marked with a trailing
 * `~`. ASCII only, never empty, no separator.
 */
export function traceSegment(value: string): string {
  const wellFormed = (value as string & { toWellFormed(): string }).toWellFormed(); // encodeURIComponent throws on lone surrogates
  const encoded = encodeURIComponent(wellFormed.length > 0 ? wellFormed : '_').replace(/\./g, '%2E');
  if (encoded.length <= TRACE_SEGMENT_MAX_BYTES) return encoded;
  let cut = TRACE_SEGMENT_MAX_BYTES - 1;
  const escape = encoded.lastIndexOf('%', cut - 1);
  if (escape > cut - 3) cut = escape;
  return `${encoded.slice(0, cut)}~`;
}

/**
 * Path of the local trace file of a root run: `<dir>/<segment of the root workflow id>/<segment of the root run
 * id>.json`, always inside `dir` whatever the ids hold (`..`, `/`, 1 000-byte ids: see {@link traceSegment}). Ids
 * cut to the same folder still get distinct files, since the file is named by the run id. A child run's trace
 * lives in its root's file.
 */
export function traceFilePath(dir: string, root: { workflowId: string; runId: string }): string {
  return `${dir.replace(/\/+$/, '')}/${traceSegment(root.workflowId)}/${traceSegment(root.runId)}.json`;
}
