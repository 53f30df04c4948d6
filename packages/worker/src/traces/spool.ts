import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** One trace waiting to be uploaded. */
export interface SpooledTrace {
  /** Object key. */
  key: string;
  workflowId: string;
  runId: string;
  /** When it was first spooled, epoch ms. */
  spooledAt: number;
  /** The trace file's JSON. */
  body: string;
}

/** A claimed spool entry: sent, then `done()`; or handed back with `release()`. */
export interface SpoolClaim {
  item: SpooledTrace;
  done(): Promise<void>;
  release(): Promise<void>;
}

/**
 * Dates a claim now: a rename keeps the file's modification time (when the trace was spooled), and a claim's age
 * is what tells a dead worker's claim from a live one's.
 */
async function stampClaim(claimed: string): Promise<void> {
  const now = new Date();
  await utimes(claimed, now, now).catch(() => {});
}

/** Claims older than this are taken to belong to a worker that died while sending (ms). */
export const STALE_CLAIM_MS = 60_000;

/**
 * Traces waiting for their upload, kept on local disk so that they survive a worker restart: one file per object
 * key, `<dir>/<sha256 of key>.json`, written atomically. Several workers may share one spool folder: a worker
 * claims a file by renaming it (`<file>.<claimant>`) before sending it, and a claim left by a worker that died is
 * handed back after 60 s, and sent in the same pass.
 */
export class TraceSpool {
  /** Claims of other workers the last {@link claims} pass saw that were not stale yet (handed back later). */
  youngClaims = 0;

  /**
   * @param dir the spool folder.
   * @param claimant this worker's suffix of claimed files.
   * @param staleClaimMs age after which another worker's claim is taken back (default {@link STALE_CLAIM_MS}).
   */
  constructor(
    readonly dir: string,
    private readonly claimant: string,
    private readonly staleClaimMs = STALE_CLAIM_MS,
  ) {}

  /**
   * Stores a trace to send. @returns its spool file, for {@link claim}.
   * @throws when the folder cannot be written.
   */
  async put(item: SpooledTrace): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${createHash('sha256').update(item.key).digest('hex')}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(item));
    await rename(tmp, file);
    return file;
  }

  /** Claims the entry just `put` as `file` (whose content the caller holds), or undefined when it is gone or taken. */
  async claim(file: string, item: SpooledTrace): Promise<SpoolClaim | undefined> {
    const claimed = `${file}.${this.claimant}`;
    try {
      await rename(file, claimed);
    } catch {
      return undefined;
    }
    await stampClaim(claimed);
    return { item, done: () => rm(claimed, { force: true }), release: () => rename(claimed, file).catch(() => {}) };
  }

  /**
   * Claims every unclaimed entry, oldest file name order, those taken back first from stale claims of workers that
   * died (counting the claims not stale yet in {@link youngClaims}); unreadable entries are dropped and reported
   * through `onBad`.
   */
  async *claims(onBad: (file: string, err: unknown) => void): AsyncGenerator<SpoolClaim> {
    let names = await readdir(this.dir).catch(() => [] as string[]);
    let reclaimed = 0;
    this.youngClaims = 0;
    for (const name of names) {
      if (name.endsWith('.json') || name.endsWith('.tmp') || !/\.json\..+$/.test(name)) continue;
      if (await this.reclaimIfStale(path.join(this.dir, name))) reclaimed++;
      else this.youngClaims++;
    }
    if (reclaimed > 0) names = await readdir(this.dir).catch(() => [] as string[]);
    const claimSuffix = `.${this.claimant}`;
    for (const name of names.sort()) {
      const file = path.join(this.dir, name);
      if (!name.endsWith('.json')) continue;
      const claimed = file + claimSuffix;
      try {
        await rename(file, claimed);
      } catch {
        continue; // another worker took it
      }
      await stampClaim(claimed);
      let item: SpooledTrace;
      try {
        item = JSON.parse(await readFile(claimed, 'utf8')) as SpooledTrace;
        if (typeof item.key !== 'string' || typeof item.body !== 'string') throw new Error('not a spooled trace');
      } catch (err) {
        onBad(claimed, err);
        await rm(claimed, { force: true });
        continue;
      }
      yield { item, done: () => rm(claimed, { force: true }), release: () => rename(claimed, file).catch(() => {}) };
    }
  }

  /** Hands a claim older than the stale age back to the spool. @returns whether it did. */
  private async reclaimIfStale(file: string): Promise<boolean> {
    const info = await stat(file).catch(() => undefined);
    if (!info || Date.now() - info.mtimeMs <= this.staleClaimMs) return false;
    return rename(file, file.replace(/(\.json)\..+$/, '$1')).then(
      () => true,
      () => false,
    );
  }
}
