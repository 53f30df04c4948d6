/**
 * Entry of the process that primes webpack's persistent cache (see `primeWebpackCache`): argv = a file holding
 * the `WebpackRun` as JSON, the lock file to remove when done.
 */
import { readFileSync, rmSync } from 'node:fs';
import { enableTypeScriptSources } from '../typescript/resolve-hook.js';
import { runWebpack, type WebpackRun } from './webpack.js';

const [runFile, lock] = process.argv.slice(2) as [string, string];
enableTypeScriptSources();
try {
  await (await runWebpack(JSON.parse(readFileSync(runFile, 'utf8')) as WebpackRun)).close?.();
} catch {
  // A failed priming only costs a full rebuild on the next miss.
  process.exitCode = 1;
} finally {
  rmSync(runFile, { force: true });
  rmSync(lock, { force: true });
}
