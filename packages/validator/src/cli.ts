#!/usr/bin/env node
/**
 * Bin entry of `validate-workflow-package` (`npx validate-workflow-package [dir]`). All logic is in
 * `cli/run.ts`; this file runs it in a validation thread sized by `VALIDATION_THREAD_LIMITS` (a young generation of
 * 12 MB, which keeps the command's resident memory down on large projects; see thread-limits.ts), forwards the
 * thread's output and exits with its code. A thread that dies (out of memory, a crash) is an internal error (exit 3).
 * The process exists only to validate, so it runs without V8's TurboFan tier (`useValidationV8Flags`).
 */
import { Worker } from 'node:worker_threads';
import { EXIT_INTERNAL } from './cli/exit-codes.js';
import { useValidationV8Flags, VALIDATION_THREAD_LIMITS } from './thread-limits.js';

useValidationV8Flags();

const thread = new Worker(new URL('./cli/thread-main.js', import.meta.url), {
  workerData: { argv: process.argv.slice(2), cwd: process.cwd(), color: process.stdout.isTTY === true && !process.env.NO_COLOR },
  resourceLimits: VALIDATION_THREAD_LIMITS,
});
thread.on('error', (error: Error) => {
  process.stderr.write(`validate-workflow-package: internal error: ${error.message}\n`);
  process.exitCode = EXIT_INTERNAL;
});
thread.on('exit', (code) => {
  process.exitCode ??= code;
});
