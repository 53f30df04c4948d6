import { spawn } from 'node:child_process';
import { closeSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setPriority } from 'node:os';
import { runWebpack, type WebpackRun } from './webpack.js';

/** A priming lock older than this (ms) belongs to a process that died: it is taken over. */
const STALE_LOCK_MS = 10 * 60_000;

/** The lock file next to webpack's cache directory that one priming process holds while it builds. */
export const primeLockFile = (run: Pick<WebpackRun, 'persistent'> & { persistent: { dir: string } }) => `${run.persistent.dir}.lock`;

/**
 * Fills webpack's persistent cache for `run` off the worker's critical path: a detached child process
 * (`prime-main.ts`) at the lowest CPU priority runs the same webpack build with the cache on and writes it; it
 * finishes even if the worker stops first. One at a time per cache (a lock file beside it). Under a TypeScript
 * runner (sources, tests) it builds in this process instead.
 * @returns resolves when the cache is written (or another process is already writing it); never rejects.
 */
export async function primeWebpackCache(run: WebpackRun & { persistent: { dir: string; version: string } }): Promise<void> {
  const lock = primeLockFile(run);
  try {
    closeSync(openSync(lock, 'wx'));
  } catch {
    const age = (() => {
      try {
        return Date.now() - statSync(lock).mtimeMs;
      } catch {
        return Infinity;
      }
    })();
    if (age < STALE_LOCK_MS) return;
    closeSync(openSync(lock, 'w'));
  }
  if (import.meta.url.endsWith('.ts')) {
    try {
      await (await runWebpack(run)).close?.();
    } catch {
      // A failed priming only costs a full rebuild on the next miss.
    } finally {
      rmSync(lock, { force: true });
    }
    return;
  }
  // The run (thousands of paths) goes through a file: one command-line argument is limited to 128 KiB.
  const runFile = `${run.persistent.dir}.run.json`;
  try {
    writeFileSync(runFile, JSON.stringify(run));
  } catch {
    rmSync(lock, { force: true });
    return;
  }
  const child = spawn(process.execPath, [fileURLToPath(new URL('./prime-main.js', import.meta.url)), runFile, lock], { detached: true, stdio: 'ignore' });
  child.unref();
  try {
    if (child.pid) setPriority(child.pid, 19);
  } catch {
    // Not allowed here: it runs at normal priority.
  }
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => {
      rmSync(lock, { force: true });
      resolve();
    });
  });
}
