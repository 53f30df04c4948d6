/**
 * Runs `discover()` or `validate()` in a child process that is killed after a time bound. A cycle that is not
 * cut makes discovery loop on already-settled promises, which starves timers: an in-process `Promise.race` with a
 * timeout never fires and the test would hang instead of failing. A separate process can always be stopped.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DiscoverOptions, Manifest } from '@skein/discovery';
import type { ValidateOptions, ValidationReport } from '@skein/validator';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bounded/child.mjs');
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Default bound, ms: a fixture takes well under a second; a loaded 2-core machine gets slack; below the unit tests' 20 s timeout so the bound, not the timeout, reports. */
export const BOUND_MS = 15_000;

function runChild(mode: 'discover' | 'validate', root: string, options: object, boundMs: number): Promise<unknown> {
  const args = ['--no-warnings', '--experimental-transform-types', '--conditions=@skein/source', CHILD, mode, root, JSON.stringify(options)];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: REPO, timeout: boundMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && (error.killed || error.signal === 'SIGKILL')) reject(new Error(`${mode}(${root}) did not finish within ${boundMs} ms`));
      else if (error) reject(new Error(`${mode}(${root}) failed: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

/**
 * `discover(root, options)` in a child process.
 * @throws Error when it does not finish within `boundMs` (the child is killed) or the child fails
 */
export function discoverBounded(root: string, options: Omit<DiscoverOptions, 'fs'> = {}, boundMs = BOUND_MS): Promise<Manifest> {
  return runChild('discover', root, options, boundMs) as Promise<Manifest>;
}

/**
 * `validate(root, options)` in a child process.
 * @throws Error when it does not finish within `boundMs` (the child is killed) or the child fails
 */
export function validateBounded(root: string, options: ValidateOptions = {}, boundMs = BOUND_MS): Promise<ValidationReport> {
  return runChild('validate', root, options, boundMs) as Promise<ValidationReport>;
}
