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
  /**
   * Only for a run made by a reset ({@link resetRunId}): its own run id. A reset run's history starts with a copy of
   * the started event of the run it was reset from, time included, so without it both would name one object.
   */
  runId?: string | undefined;
}

/**
 * The run id that a root run's trace object is also named by: `runId` when the run was made by a reset (its
 * history's started event names another original run, Temporal's `originalExecutionRunId`), else undefined (a
 * first run, or a run of a continue-as-new chain, each with a start of its own).
 */
export function resetRunId(runId: string, originalRunId: string | null | undefined): string | undefined {
  return originalRunId && originalRunId !== runId ? runId : undefined;
}

/** What names a reset run's object after its workflow id: `@<run id>` (`@` never occurs in a {@link traceSegment}). */
const resetSuffix = (runId: string): string => `@${traceSegment(runId)}`;

/**
 * The object key of a root run's trace: `<prefix><workflow type>/<yyyy>/<mm>/<dd>/<start ms>_<workflow id>.json`,
 * the date (UTC) and start time (epoch ms) being the root run's `startedAt`; type and id are {@link traceSegment}s.
 * A run made by a reset ends in `_<workflow id>@<run id>.json` (`@` never occurs in a segment).
 */
export function traceObjectKey(prefix: string, root: TraceObjectRoot): string {
  const d = new Date(root.startedAt);
  const two = (n: number) => String(n).padStart(2, '0');
  const run = root.runId ? resetSuffix(root.runId) : '';
  return `${prefix}${traceSegment(root.workflowType)}/${d.getUTCFullYear()}/${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}/${root.startedAt}_${traceSegment(root.workflowId)}${run}.json`;
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
 * The key of the trace object of `root` in `location`, when `url` (what a run's memo names) is an object of that
 * bucket under its prefix ({@link traceObjectKeyFromUrl}); else undefined. The key is always the one
 * {@link traceObjectKey} derives from the root's type, id, start (and run id, for a reset run), never the memo's:
 * a memo, which anyone with engine access can write, only says that the run's trace goes to this bucket, so it can
 * never point an upload or a read at another run's object (another run of the same workflow id, another type, a
 * run it was reset from).
 */
export function rootTraceObjectKey(location: RemoteTraceLocation, url: string, root: TraceObjectRoot): string | undefined {
  return traceObjectKeyFromUrl(location, url) === undefined ? undefined : traceObjectKey(location.prefix, root);
}

/** A run's trace destinations as its memo publishes them: a local file path and an object URL, each optional. */
export interface TraceDestinations {
  local?: string;
  remote?: string;
}

/**
 * The folder a trace file path lies in: `file` without its last two segments (the inverse of
 * {@link traceFilePath}'s `dir`), or undefined when `file` has fewer than three.
 */
export function traceFolderOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts.length >= 3 && parts[parts.length - 1]!.endsWith('.json') ? parts.slice(0, -2).join('/') || undefined : undefined;
}

/**
 * The trace destinations a run's memo names under {@link TRACE_MEMO_KEY}: only its non-empty string members. `run`
 * is anything with the decoded memo (a workflow info, a described execution).
 *
 * With `root` (the ids of the run's root run), the local file is the root's own file in the folder the memo names
 * ({@link traceFolderOf}, then {@link traceFilePath}): a reset run's memo is the one of the run it was reset from
 * (the engine copies the history up to the reset point, the memo's upsert included), so it names that run's file.
 * With `root.reset` (the root run was made by a reset: {@link resetRunId}), the object URL names the root's own
 * object, as {@link traceObjectKey} names it.
 */
export function traceDestinationsOf(run: { memo?: Record<string, unknown> }, root?: TraceRoot & { reset?: boolean }): TraceDestinations {
  const t = run.memo?.[TRACE_MEMO_KEY] as { local?: unknown; remote?: unknown } | undefined;
  const out: TraceDestinations = {};
  if (typeof t?.local === 'string' && t.local) {
    const folder = root ? traceFolderOf(t.local) : undefined;
    out.local = folder ? traceFilePath(folder, root!) : t.local;
  }
  if (typeof t?.remote === 'string' && t.remote) {
    // A reset root run's object is named by its run id too ({@link traceObjectKey}); its memo names the object of
    // the run it was reset from, whose start its history shares.
    const reset = root?.reset === true && t.remote.endsWith('.json') && !t.remote.slice(t.remote.lastIndexOf('/')).includes('%40');
    out.remote = reset ? `${t.remote.slice(0, -'.json'.length)}${encodeURIComponent(resetSuffix(root.runId))}.json` : t.remote;
  }
  return out;
}
