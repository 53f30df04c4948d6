/**
 * Entry of the process that primes webpack's persistent cache (see `primeWebpackCache`): argv = a file holding
 * the `WebpackRun` as JSON. It holds the cache's priming lock while it builds; when another process holds it, it
 * leaves the work to that one.
 */
import { readFileSync, rmSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { enableTypeScriptSources } from '../host/typescript/resolve-hook.js';
import { primeLock } from './prime.js';
import { runWebpack, type WebpackRun } from './webpack.js';

const [runFile] = process.argv.slice(2) as [string];
let run: WebpackRun & { persistent: { dir: string } };
try {
  run = JSON.parse(readFileSync(runFile, 'utf8')) as typeof run;
} finally {
  rmSync(runFile, { force: true });
}
const release = await lockfile.lock(run.persistent.dir, primeLock(run)).catch(() => undefined);
if (release) {
  enableTypeScriptSources();
  try {
    await (await runWebpack(run)).close?.();
  } catch {
    // A failed priming only costs a full rebuild on the next miss.
    process.exitCode = 1;
  } finally {
    await release().catch(() => {});
  }
}
