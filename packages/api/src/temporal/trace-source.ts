/**
 * Where `GET …/trace-log` may read a trace from (docs/reference/trace-format.md, "Where it lives"). A run's memo
 * names its trace destinations, but anyone with engine access or workflow code can set a memo, so a destination is
 * read only when it is exactly the one derived from the run's own root ids:
 * - local: `<folder>/<root workflow id>/<root run id>.json` in a folder the catalog's workers advertise (or
 *   `SKEIN_TRACE_DIR`), symbolic links resolved, still inside that folder;
 * - remote: in the configured bucket (`SKEIN_TRACE_S3_BUCKET`), exactly the key derived from the root run's
 *   workflow type, workflow id and start (`<prefix><type>/<yyyy>/<mm>/<dd>/<start ms>_<id>.json`), read with the
 *   AWS SDK's credentials (never an unauthenticated fetch).
 * Anything else is treated as absent. The naming rules are the workers' (`@skein/core` `traceFilePath`,
 * `traceObjectKey`, `traceObjectUrl`), restated here because the API depends on no Skein package.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/** Longest file-name segment of a trace path, in bytes. */
const SEGMENT_MAX_BYTES = 200;

/** One safe path segment of an id (percent-encoded, `.` escaped, cut at 200 bytes with a trailing `~`). */
export function traceSegment(value: string): string {
  const wellFormed = (value as string & { toWellFormed(): string }).toWellFormed();
  const encoded = encodeURIComponent(wellFormed.length > 0 ? wellFormed : '_').replace(/\./g, '%2E');
  if (encoded.length <= SEGMENT_MAX_BYTES) return encoded;
  let cut = SEGMENT_MAX_BYTES - 1;
  const escape = encoded.lastIndexOf('%', cut - 1);
  if (escape > cut - 3) cut = escape;
  return `${encoded.slice(0, cut)}~`;
}

/** The local trace file of a root run in `dir`: `<dir>/<segment of workflow id>/<segment of run id>.json`. */
export function traceFilePath(dir: string, root: { workflowId: string; runId: string }): string {
  return `${dir.replace(/\/+$/, '')}/${traceSegment(root.workflowId)}/${traceSegment(root.runId)}.json`;
}

/**
 * The real path of `file` when it lies inside `dir` (both resolved through symbolic links), else undefined
 * (also when either does not exist).
 */
export async function confinedTraceFile(dir: string, file: string): Promise<string | undefined> {
  if (!path.isAbsolute(file)) return undefined;
  try {
    const [root, real] = await Promise.all([realpath(dir), realpath(file)]);
    return real.startsWith(root + path.sep) ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file to read for a run whose memo names `named`: the real path when `named` is the root's own trace file in
 * one of `dirs` (absolute folders), else undefined.
 */
export async function localTraceFile(dirs: string[], root: { workflowId: string; runId: string }, named: string): Promise<string | undefined> {
  for (const dir of dirs) {
    if (!path.isAbsolute(dir) || traceFilePath(dir, root) !== named) continue;
    const real = await confinedTraceFile(dir, named);
    if (real) return real;
  }
  return undefined;
}

/** An S3 trace location: bucket, key prefix, custom endpoint (path-style) or AWS region (virtual-hosted). */
export interface TraceBucket {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region?: string;
}

/** The URL of every object of `location` starts with this (path-style under an endpoint, else virtual-hosted on AWS). */
function objectBase(location: TraceBucket): string {
  if (location.endpoint) return `${location.endpoint.replace(/\/+$/, '')}/${location.bucket}/`;
  const host = !location.region || location.region === 'us-east-1' ? 's3.amazonaws.com' : `s3.${location.region}.amazonaws.com`;
  return `https://${location.bucket}.${host}/`;
}

/**
 * The key of a root run's trace object: `<prefix><type>/<yyyy>/<mm>/<dd>/<start ms>_<workflow id>.json`, the date
 * (UTC) and start (epoch ms) being the root run's start; type and id are {@link traceSegment}s.
 */
export function traceObjectKey(prefix: string, root: { workflowType: string; workflowId: string; startedAt: number }): string {
  const d = new Date(root.startedAt);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${prefix}${traceSegment(root.workflowType)}/${d.getUTCFullYear()}/${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}/${root.startedAt}_${traceSegment(root.workflowId)}.json`;
}

/**
 * The object key `url` names when it is exactly the trace object of `root` in `location` (configured bucket, the
 * key {@link traceObjectKey} derives from the root's type, id and start under the prefix), else undefined. A key
 * that merely ends with the root's id (another run of the same id, another type) is refused.
 */
export function remoteTraceKey(location: TraceBucket, url: string, root: { workflowId: string; workflowType: string; startedAt: number }): string | undefined {
  const base = objectBase(location);
  if (!url.startsWith(base)) return undefined;
  let key: string;
  try {
    key = url.slice(base.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
  return key === traceObjectKey(location.prefix, root) ? key : undefined;
}
