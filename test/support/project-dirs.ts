/**
 * Removing a test's temporary project folder. A worker that bundled the project (a miss) fills webpack's persistent
 * cache in a detached process that outlives it (`primeWebpackCache` of `@skein/worker`): `webpack.run.json` beside
 * the cache until that process has read it, then its lock `webpack.priming` while it builds and writes. A removal
 * racing that process fails with ENOTEMPTY, or leaves the files it writes afterwards.
 */
import { glob, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What a priming under way leaves beside a webpack cache, anywhere in a project folder but its node_modules (`**`
 * does not enter dot folders: the default cache, `.skein/bundles`, is named).
 */
const PRIMING = ['**/webpack.run.json', '**/webpack.priming', '**/.skein/**/webpack.run.json', '**/.skein/**/webpack.priming'];

/** How long a priming's lock stays fresh without its holder (`PRIME_LOCK_OPTIONS.stale` of `@skein/worker`), ms. */
const STALE_MS = 30_000;

/** Paths of the primings under way in `dir` (see the file's header): a lock or run file younger than `STALE_MS`. */
async function primingsIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const hit of glob(PRIMING, { cwd: dir, exclude: (name) => name === 'node_modules' })) {
    const at = await stat(path.join(dir, hit)).catch(() => null);
    if (at && Date.now() - at.mtimeMs < STALE_MS) found.push(hit);
  }
  return found;
}

/**
 * Removes `dir` (recursively; nothing when it is missing) once no priming is under way in it and none started for a
 * short quiet spell (a stopping worker starts one just after it stopped), waiting at most `timeoutMs` (ms): after
 * that it removes what is there.
 */
export async function removeProjectDir(dir: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let quiet = 0; quiet < 3 && Date.now() < deadline;) {
    quiet = (await primingsIn(dir).catch(() => [])).length === 0 ? quiet + 1 : 0;
    await sleep(200);
  }
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
}
