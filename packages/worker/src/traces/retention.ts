import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** How often a worker sweeps its trace folder, ms (and once at start). */
export const TRACE_SWEEP_INTERVAL_MS = 3_600_000;

/**
 * Deletes the trace files of `dir` (`<dir>/<workflow id>/<run id>.json`, and stray `.tmp` files) last written more
 * than `maxAgeMs` before `now` (epoch ms), then the workflow folders left empty. Never throws; a file another
 * worker deletes first is skipped.
 * @returns how many files were deleted.
 */
export async function sweepTraces(dir: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  let deleted = 0;
  const folders = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const folder of folders) {
    if (!folder.isDirectory()) continue;
    const sub = path.join(dir, folder.name);
    const files = await readdir(sub).catch(() => [] as string[]);
    let left = files.length;
    for (const name of files) {
      if (!name.endsWith('.json') && !name.endsWith('.tmp')) continue;
      const file = path.join(sub, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || now - info.mtimeMs <= maxAgeMs) continue;
      await rm(file, { force: true }).then(
        () => {
          deleted++;
          left--;
        },
        () => {},
      );
    }
    if (left === 0) await rmdir(sub).catch(() => {});
  }
  return deleted;
}
