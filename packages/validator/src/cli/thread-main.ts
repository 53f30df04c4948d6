/**
 * Entry of the validation thread of `validate-workflow-package` (see `../cli.ts`): runs the command with the
 * process's arguments and streams, and ends with its exit code (which the main thread makes the process's).
 */
import { workerData } from 'node:worker_threads';
import { run } from './run.js';

const { argv, cwd, color } = workerData as { argv: string[]; cwd: string; color: boolean };

process.exitCode = await run(argv, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd,
  color,
});
