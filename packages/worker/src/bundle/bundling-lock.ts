import { mkdir, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';

/**
 * How long (ms) a bundling lock may go unrefreshed before another process takes it over; its holder refreshes it
 * every half of that (`proper-lockfile`'s `stale` and `update`). A holder on this machine that died is found sooner,
 * by its process id (`bundlingOwnerGone`).
 */
export const BUNDLING_LOCK_STALE_MS = 20_000;

/** How often (ms) a process waiting for another's bundling tries the lock again. */
const BUNDLING_LOCK_POLL_MS = 200;

/** Who holds a bundling lock: written beside the lock (`<key>.bundling.owner`) by its holder. */
interface BundlingOwner {
  pid: number;
  host: string;
}

/** A bundling lock held (`holdBundling`). */
export interface HeldBundling {
  /** Whether another process held the lock first: its bundle may be in the cache now (look it up again). */
  waited: boolean;
  /** Gives the lock up; never rejects. */
  release(): Promise<void>;
}

/**
 * Waits until no other process bundles the configuration key `configKey` into the bundle cache at `cacheDir`, then
 * holds that right until `release()`: workers of one project that start together on one machine (or share the
 * cache folder on one volume) run webpack once, and the others find its bundle in the cache when they get the lock.
 * The lock is `proper-lockfile`'s folder `<cacheDir>/<configKey>.bundling`, refreshed by its holder; a holder that
 * died (`kill -9`) stops refreshing it and is taken over after `BUNDLING_LOCK_STALE_MS`, or at once when the owner
 * file beside it names a process of this machine that no longer exists. `beforeWait` runs once, the first time the
 * lock is found held (to end work the wait makes useless). The waiting is a poll, not `proper-lockfile`'s own
 * retries, because each try also asks whether the holder is alive.
 * Never rejects: where the lock cannot be made (a read-only cache folder) it resolves with a release that does
 * nothing, and the caller bundles as it would alone.
 */
export async function holdBundling(cacheDir: string, configKey: string, beforeWait?: () => Promise<void>): Promise<HeldBundling> {
  const target = path.join(cacheDir, configKey);
  const lockfilePath = `${target}.bundling`;
  const ownerFile = `${lockfilePath}.owner`;
  const options = {
    stale: BUNDLING_LOCK_STALE_MS,
    realpath: false,
    retries: 0,
    lockfilePath,
    // A lock lost to a stalled clock or file system costs at most a second bundling of the same key: never a crash.
    onCompromised: () => {},
  };
  let waited = false;
  try {
    await mkdir(cacheDir, { recursive: true });
    for (;;) {
      try {
        const release = await lockfile.lock(target, options);
        await writeFile(ownerFile, JSON.stringify({ pid: process.pid, host: hostname() } satisfies BundlingOwner)).catch(() => {});
        return {
          waited,
          release: async () => {
            await rm(ownerFile, { force: true }).catch(() => {});
            await release().catch(() => {});
          },
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      }
      if (!waited) {
        waited = true;
        await beforeWait?.();
      }
      if (await bundlingOwnerGone(ownerFile)) {
        await rm(ownerFile, { force: true }).catch(() => {});
        await rmdir(lockfilePath).catch(() => {});
        continue;
      }
      await sleep(BUNDLING_LOCK_POLL_MS);
    }
  } catch {
    return { waited, release: async () => {} };
  }
}

/** Whether the owner file names a process of this machine that has exited (a lock's holder killed mid-bundling). */
async function bundlingOwnerGone(ownerFile: string): Promise<boolean> {
  let owner: BundlingOwner;
  try {
    owner = JSON.parse(await readFile(ownerFile, 'utf8')) as BundlingOwner;
  } catch {
    return false; // not written yet, or released meanwhile: the lock's staleness decides
  }
  if (owner.host !== hostname() || !Number.isInteger(owner.pid) || owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Deletes the owner files (`<key>.bundling.owner`) among `names` (the entries of the bundle cache at `cacheDir`)
 * that no lock folder stands beside and whose last write is more than `graceMs` ms ago: a holder ended by a signal
 * mid-bundling leaves one (`proper-lockfile` removes its lock folder on the way out; nothing removes the owner file).
 * An owner file beside a lock folder belongs to a holder, and a young one may be being written: both are kept. Never
 * rejects.
 */
export async function pruneBundlingOwners(cacheDir: string, names: readonly string[], graceMs: number): Promise<void> {
  const present = new Set(names);
  const now = Date.now();
  await Promise.all(
    names
      .filter((n) => n.endsWith('.bundling.owner') && !present.has(n.slice(0, -'.owner'.length)))
      .map(async (n) => {
        const file = path.join(cacheDir, n);
        const written = await stat(file).then(
          (s) => s.mtimeMs,
          () => now,
        );
        if (now - written > graceMs) await rm(file, { force: true }).catch(() => {});
      }),
  );
}
