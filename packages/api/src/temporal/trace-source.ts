/**
 * Where `GET …/trace-log` may read a trace from (docs/reference/trace-format.md, "Where it lives"). A run's memo
 * names its trace destinations, but anyone with engine access or workflow code can set a memo, so a destination is
 * read only when it is exactly the one derived from the run's own root ids:
 * - local: `<folder>/<root workflow id>/<root run id>.json` in a folder the catalog's workers advertise (or
 *   `SKEIN_TRACE_DIR`), symbolic links resolved, still inside that folder;
 * - remote: an object of the configured bucket (`SKEIN_TRACE_S3_BUCKET`) under its prefix whose key ends with
 *   `_<root workflow id>.json`, read with the AWS SDK's credentials (never an unauthenticated fetch).
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
 * The object key `url` names when it is the trace object of the root workflow `rootWorkflowId` in `location`
 * (configured bucket, under the prefix, key ending `_<root workflow id>.json`), else undefined.
 */
export function remoteTraceKey(location: TraceBucket, url: string, rootWorkflowId: string): string | undefined {
  const base = objectBase(location);
  if (!url.startsWith(base)) return undefined;
  let key: string;
  try {
    key = url.slice(base.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
  if (!key.startsWith(location.prefix) || key.split('/').includes('..')) return undefined;
  return key.endsWith(`_${traceSegment(rootWorkflowId)}.json`) ? key : undefined;
}
