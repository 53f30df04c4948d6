import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setPriority } from 'node:os';
import lockfile from 'proper-lockfile';
import { BUNDLING_NODE_FLAGS, runWebpack, type WebpackRun } from './webpack.js';

/**
 * The priming lock (`proper-lockfile`): its holder refreshes the lock's time every `stale / 2` ms, so a lock not
 * refreshed for `stale` ms belongs to a process that died and is taken over.
 */
export const PRIME_LOCK_OPTIONS = {
  stale: 30_000,
  realpath: false,
  retries: 0,
  // A lock lost to a stalled clock or file system costs at most a second build of the same cache: never a crash.
  onCompromised: () => {},
} as const;

/** The lock (a folder, `proper-lockfile`'s) next to webpack's cache directory, held by the one priming process. */
export const primeLockFile = (run: Pick<WebpackRun, 'persistent'> & { persistent: { dir: string } }) => `${run.persistent.dir}.priming`;

/** Options of `proper-lockfile` for the cache of `run`: the lock path is {@link primeLockFile}. */
export const primeLock = (run: Pick<WebpackRun, 'persistent'> & { persistent: { dir: string } }) => ({
  ...PRIME_LOCK_OPTIONS,
  lockfilePath: primeLockFile(run),
});

/**
 * Fills webpack's persistent cache for `run` off the worker's critical path: a detached child process
 * (`prime-main.ts`) at the lowest CPU priority runs the same webpack build with the cache on and writes it; it
 * finishes even if the worker stops first. One at a time per cache: the process that builds holds a lock beside
 * the cache, and a start that finds it held leaves the priming to its holder. Under a TypeScript runner (sources,
 * tests) it builds in this process instead.
 * @returns resolves when the cache is written (or another process is already writing it); never rejects.
 */
export async function primeWebpackCache(run: WebpackRun & { persistent: { dir: string; version: string } }): Promise<void> {
  const lockOptions = primeLock(run);
  if (await lockfile.check(run.persistent.dir, lockOptions).catch(() => true)) return;
  if (import.meta.url.endsWith('.ts')) {
    const release = await lockfile.lock(run.persistent.dir, lockOptions).catch(() => undefined);
    if (!release) return;
    try {
      await (await runWebpack(run)).close?.();
    } catch {
      // A failed priming only costs a full rebuild on the next miss.
    } finally {
      await release().catch(() => {});
    }
    return;
  }
  // The run (thousands of paths) goes through a file: one command-line argument is limited to 128 KiB.
  const runFile = `${run.persistent.dir}.run.json`;
  try {
    writeFileSync(runFile, JSON.stringify(run));
  } catch {
    return;
  }
  // The child takes the lock itself (a lock is refreshed by the process that holds it); a second child that finds
  // it taken exits at once.
  const child = spawn(process.execPath, [...BUNDLING_NODE_FLAGS, fileURLToPath(new URL('./prime-main.js', import.meta.url)), runFile], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  try {
    if (child.pid) setPriority(child.pid, 19);
  } catch {
    // Not allowed here: it runs at normal priority.
  }
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
}
