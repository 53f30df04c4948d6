/**
 * Where `GET …/trace-log` may read a trace from (docs/reference/trace-format.md, "Where it lives"). A run's memo
 * names its trace destinations, but anyone with engine access or workflow code can set a memo, so a destination is
 * read only when it is exactly the one derived from the run's own root ids:
 * - local: `<folder>/<root workflow id>/<root run id>.json` in a folder the catalog's workers advertise (or
 *   `SKEIN_TRACE_DIR`), symbolic links resolved, still inside that folder, whatever folder the memo names (the
 *   worker that closes a run writes its trace in its own folder);
 * - remote: in the configured bucket (`SKEIN_TRACE_S3_BUCKET`), exactly the key derived from the root run's
 *   workflow type, workflow id and start (`<prefix><type>/<yyyy>/<mm>/<dd>/<start ms>_<id>.json`), read with the
 *   AWS SDK's credentials (never an unauthenticated fetch).
 * Anything else is treated as absent. The naming rules are the workers' own, from `@skein/names/traces`
 * (`traceFilePath`, `rootTraceObjectKey`).
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { traceFilePath, type TraceRoot } from '@skein/names/traces';

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
 * The file to read for a run whose root is `root`: the real path of the root's own trace file
 * (`traceFilePath(dir, root)`) in the first of `dirs` (absolute folders) that holds it, trying first the folder of
 * `named` (the file the run's memo names, when it lies in one of `dirs`). The memo only says that the run keeps a
 * local trace and which folder to try first: the worker that closes a run writes it in its own folder, which is
 * another one when a later build, or another machine's worker, closed the run. Undefined when no folder holds it.
 */
export async function localTraceFile(dirs: string[], root: TraceRoot, named?: string): Promise<string | undefined> {
  const folders = dirs.filter((dir) => path.isAbsolute(dir));
  const first = named === undefined ? -1 : folders.findIndex((dir) => traceFilePath(dir, root) === named);
  if (first > 0) folders.unshift(...folders.splice(first, 1));
  for (const dir of folders) {
    const real = await confinedTraceFile(dir, traceFilePath(dir, root));
    if (real) return real;
  }
  return undefined;
}
