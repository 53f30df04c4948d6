#!/usr/bin/env node
/**
 * Bin entry of `validate-workflow-package` (`npx validate-workflow-package [dir]`). All logic is in
 * `cli/run.ts`; this file only wires it to the process.
 */
import { run } from './cli/run.js';

process.exitCode = await run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  color: process.stdout.isTTY === true && !process.env.NO_COLOR,
});
