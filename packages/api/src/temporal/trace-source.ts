/**
 * Where `GET …/trace-log` may read a trace from (docs/reference/trace-format.md, "Where it lives"): a run's memo names its trace
 * destinations, but anyone with engine access or workflow code can set a memo, so a destination is read only
 * when it is a file under the configured trace directory (`SKEIN_TRACE_DIR`), symbolic links resolved, or a URL
 * under the configured remote prefix (`SKEIN_TRACE_REMOTE_URL`). Anything else is treated as absent.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';

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
 * Whether `url` lies under `prefix`: same origin, and its path starts with the prefix's path (at a `/`
 * boundary). No prefix configured → never. Credentials in the URL are never accepted.
 */
export function remoteTraceAllowed(prefix: string | null, url: string): boolean {
  if (prefix === null) return false;
  let u: URL;
  let p: URL;
  try {
    u = new URL(url);
    p = new URL(prefix);
  } catch {
    return false;
  }
  if (u.origin !== p.origin || u.username !== '' || u.password !== '') return false;
  const base = p.pathname.endsWith('/') ? p.pathname : `${p.pathname}/`;
  return u.pathname === p.pathname || u.pathname.startsWith(base);
}
