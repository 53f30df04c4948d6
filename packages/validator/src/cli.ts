#!/usr/bin/env node
/**
 * Bin entry of `validate-workflow-package` (`npx validate-workflow-package [dir]`). All logic is in `cli/run.ts`;
 * this file loads and runs the command on the main thread, which sets the V8 flags of a process that exists only to
 * validate (`useValidationV8Flags`: no TurboFan, a young generation that does not grow; see thread-limits.ts) just
 * before the analysis runs, prints what it returns and exits with its code. `run()` never throws; anything that escapes it anyway is an internal
 * error (exit 3), reported without a stack trace.
 *
 * Why no worker thread: the young generation used to be capped by running the command in a thread created with
 * `VALIDATION_THREAD_LIMITS`, but a second isolate costs about 0.1 CPU-s of start-up and module loading, a tenth of
 * the whole command on the 1,000-workflow benchmark (bench/validate).
 */
import module from 'node:module';
import { EXIT_INTERNAL } from './cli/exit-codes.js';
import { useValidationV8Flags } from './thread-limits.js';

// Node's on-disk compile cache (as the `skein` bin; each entry is checked against its module's source, so an edited
// file compiles again) spares the next run compiling the validator, discovery and @babel/parser anew: about 20 ms of
// the command's CPU (bench/validate). NODE_DISABLE_COMPILE_CACHE=1 turns it off; NODE_COMPILE_CACHE=<dir> moves it
// (default: the OS temp dir).
module.enableCompileCache?.();

try {
  const { run } = await import('./cli/run.js');
  process.exitCode = await run(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
    // Set only when the analysis runs: a run answered from the cache allocates its few large objects (the cache
    // file, the stored report) faster with V8's default young generation.
    beforeAnalysis: useValidationV8Flags,
  });
} catch (error) {
  process.stderr.write(`validate-workflow-package: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = EXIT_INTERNAL;
}
