/**
 * `@skein/names/traces`: where a root run's trace lives, the one set of naming rules that the workers (which write
 * traces) and the API (which reads them back and must refuse any other path) agree on. Pure string functions, no
 * dependency, safe inside the workflow sandbox. Kept off the main entry because authors never name a trace file.
 */

/** Memo key under which a run publishes its trace destinations (`{ local?, remote? }`), read by the API. */
export const TRACE_MEMO_KEY = 'skeinTrace';

/** Longest file-name segment {@link traceFilePath} writes, in bytes (file systems allow 255). */
export const TRACE_SEGMENT_MAX_BYTES = 200;

/**
 * One safe path segment for `value`: percent-encoded (`encodeURIComponent`, then `.` as `%2E` so that `.` and
 * `..` cannot occur), and cut to {@link TRACE_SEGMENT_MAX_BYTES} at an escape boundary, marked with a trailing
 * `~`. ASCII only, never empty (an empty value is `_`), no separator. Lone surrogates are replaced, never thrown on.
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

/** The ids of the root run of a tree, which name its trace. */
export interface TraceRoot {
  workflowId: string;
  runId: string;
}

/**
 * Path of the local trace file of a root run: `<dir>/<segment of the root workflow id>/<segment of the root run
 * id>.json` (trailing slashes of `dir` dropped), always inside `dir` whatever the ids hold (`..`, `/`, 1 000-byte
 * ids: see {@link traceSegment}). Ids cut to the same folder still get distinct files, since the file is named by
 * the run id. A child run's trace lives in its root's file.
 */
export function traceFilePath(dir: string, root: TraceRoot): string {
  return `${dir.replace(/\/+$/, '')}/${traceSegment(root.workflowId)}/${traceSegment(root.runId)}.json`;
}

/** Where traces are uploaded: an S3 bucket and key prefix, and how its objects are addressed. */
export interface RemoteTraceLocation {
  bucket: string;
  /** Key prefix, used as given (`traces/` puts objects under `traces/`); may be empty. */
  prefix: string;
  /** A custom S3 endpoint (`http://127.0.0.1:8333`): objects are then addressed path-style under it. */
  endpoint?: string;
  /** The AWS region, for virtual-hosted URLs on AWS (`us-east-1` when unset). */
  region?: string;
}

/** What names a root run's trace object: its workflow type, workflow id and start. */
export interface TraceObjectRoot {
  workflowType: string;
  workflowId: string;
  /**
   * Epoch ms of the root run's `WorkflowExecutionStarted` event (the workflow's `workflowInfo().startTime`; history
   * holds it, so whoever writes or reads the object derives the same key).
   */
  startedAt: number;
}

/**
 * The object key of a root run's trace: `<prefix><workflow type>/<yyyy>/<mm>/<dd>/<start ms>_<workflow id>.json`,
 * the date (UTC) and start time (epoch ms) being the root run's `startedAt`; type and id are {@link traceSegment}s.
 */
export function traceObjectKey(prefix: string, root: TraceObjectRoot): string {
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
 * {@link traceObjectUrl}; no `..` segment, not the prefix alone), else undefined (also for malformed escapes).
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

/**
 * The key of `url` when it names exactly the trace object of `root` in `location`: an object of its bucket under its
 * prefix ({@link traceObjectKeyFromUrl}) whose key is the one {@link traceObjectKey} derives from the root's type,
 * id and start; else undefined. A memo (which anyone with engine access can write) naming any other object (another
 * run of the same workflow id, another type, another bucket or prefix) is refused by this one check, on upload and
 * on read.
 */
export function rootTraceObjectKey(location: RemoteTraceLocation, url: string, root: TraceObjectRoot): string | undefined {
  const key = traceObjectKeyFromUrl(location, url);
  return key === traceObjectKey(location.prefix, root) ? key : undefined;
}

/** A run's trace destinations as its memo publishes them: a local file path and an object URL, each optional. */
export interface TraceDestinations {
  local?: string;
  remote?: string;
}

/**
 * The trace destinations a run's memo names under {@link TRACE_MEMO_KEY}: only its non-empty string members. `run`
 * is anything with the decoded memo (a workflow info, a described execution).
 */
export function traceDestinationsOf(run: { memo?: Record<string, unknown> }): TraceDestinations {
  const t = run.memo?.[TRACE_MEMO_KEY] as { local?: unknown; remote?: unknown } | undefined;
  const out: TraceDestinations = {};
  if (typeof t?.local === 'string' && t.local) out.local = t.local;
  if (typeof t?.remote === 'string' && t.remote) out.remote = t.remote;
  return out;
}
