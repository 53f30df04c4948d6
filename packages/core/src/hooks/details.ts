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

/** Where a worker uploads traces: an S3 bucket and key prefix, and how its objects are addressed. */
export interface RemoteTraceLocation {
  bucket: string;
  /** Key prefix, used as given (`traces/` puts objects under `traces/`); may be empty. */
  prefix: string;
  /** A custom S3 endpoint (`http://127.0.0.1:8333`): objects are then addressed path-style under it. */
  endpoint?: string;
  /** The AWS region, for virtual-hosted URLs on AWS (`us-east-1` when unset). */
  region?: string;
}

/**
 * The object key of a root run's trace: `<prefix><workflow type>/<yyyy>/<mm>/<dd>/<start ms>_<workflow id>.json`,
 * the date (UTC) and start (epoch ms) being `startedAt`, the time of the root run's `WorkflowExecutionStarted`
 * event (the workflow's `workflowInfo().startTime`; history holds it, so whoever reads or writes the object can
 * derive the same key); type and id are {@link traceSegment}s.
 */
export function traceObjectKey(prefix: string, root: { workflowType: string; workflowId: string; startedAt: number }): string {
  const d = new Date(root.startedAt);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${prefix}${traceSegment(root.workflowType)}/${d.getUTCFullYear()}/${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}/${root.startedAt}_${traceSegment(root.workflowId)}.json`;
}

/**
 * The URL of a trace object: path-style under a custom endpoint (`<endpoint>/<bucket>/<key>`), else AWS's
 * virtual-hosted form (`https://<bucket>.s3.<region>.amazonaws.com/<key>`, `s3.amazonaws.com` in us-east-1).
 * Key segments are percent-encoded.
 */
export function traceObjectUrl(location: RemoteTraceLocation, key: string): string {
  const path = key.split('/').map(encodeURIComponent).join('/');
  if (location.endpoint) return `${location.endpoint.replace(/\/+$/, '')}/${location.bucket}/${path}`;
  const host = !location.region || location.region === 'us-east-1' ? 's3.amazonaws.com' : `s3.${location.region}.amazonaws.com`;
  return `https://${location.bucket}.${host}/${path}`;
}

/**
 * The key of `url` when it is an object of `location`'s bucket under its prefix (the inverse of
 * {@link traceObjectUrl}), else undefined.
 */
export function traceObjectKeyFromUrl(location: RemoteTraceLocation, url: string): string | undefined {
  const base = traceObjectUrl(location, '');
  if (!url.startsWith(base)) return undefined;
  let key: string;
  try {
    key = url.slice(base.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
  return key.startsWith(location.prefix) && key.length > location.prefix.length && !key.split('/').includes('..') ? key : undefined;
}

/** A run's trace destinations as its memo publishes them. */
export interface TraceDestinations {
  local?: string;
  remote?: string;
}

/** The trace destinations a workflow info's memo names (only string members). */
export function traceDestinationsOf(info: { memo?: Record<string, unknown> }): TraceDestinations {
  const t = info.memo?.[TRACE_MEMO_KEY] as { local?: unknown; remote?: unknown } | undefined;
  const out: TraceDestinations = {};
  if (typeof t?.local === 'string') out.local = t.local;
  if (typeof t?.remote === 'string') out.remote = t.remote;
  return out;
}
