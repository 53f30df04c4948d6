import { mkdir, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite, FileDigests } from '../cache/file-digests.js';
import { pruneBundlingOwners } from './bundling-lock.js';
import { digest, pathKind } from './digest.js';

/**
 * What a cached bundle was built from: every file webpack read (with its SHA-1) and every path whose
 * absence as a file decided a resolution (an added `steps.ts` next to `steps.js` changes the bundle), with
 * what was there (`none`, `dir`, ...).
 */
export interface BundleInputs {
  files: Array<[file: string, sha1: string]>;
  missing: Array<[file: string, kind: string]>;
}

/** One cache record, `<configKey>-<inputsKey>.json` in the cache directory (several per configuration key). */
interface BundleRecord extends BundleInputs {
  configKey: string;
  /** File name of the bundle, `<configKey>-<inputsKey>.js`. */
  bundle: string;
}

/** How many bundle records are kept (all keys together); older ones are pruned with their bundles. */
const KEEP_RECORDS = 4;

/** How old (ms) a bundle that no record names must be before pruning deletes it (see `prune`). */
const ORPHAN_GRACE_MS = 10 * 60_000;

/**
 * The workflow bundle cache under a project's `.skein/bundles/` (layout in docs/architecture.md):
 * - `configKey` hashes everything known before bundling (Skein's and Temporal's versions, the generated entry
 *   module, the activity stubs, the full bundler options); it prefixes the names of its records;
 * - a record lists the files of the workflow graph webpack read, with their content hashes, and the paths
 *   whose absence mattered; its bundle is used only while every one of them is unchanged (content, not
 *   timestamps), so a bundle is never stale. Several records per key are kept (newest first), so undoing an
 *   edit finds the bundle from before it;
 * - `webpack/` holds webpack's persistent file-system cache, used on a miss so a one-file change rebuilds
 *   only what changed.
 */
export class BundleCache {
  /** @param digests the start's shared file digests (`FileDigests`); in memory only when omitted. */
  constructor(
    readonly dir: string,
    private readonly digests: FileDigests = new FileDigests(null),
  ) {}

  /** webpack's persistent cache directory. */
  get webpackDir(): string {
    return path.join(this.dir, 'webpack');
  }

  /**
   * The cached bundle code for `configKey` when its recorded inputs are all unchanged, else `null` (a miss:
   * no record, an input changed, or the cache is unreadable).
   */
  async lookup(configKey: string): Promise<string | null> {
    for (const name of await this.records(configKey)) {
      let record: BundleRecord;
      try {
        record = JSON.parse(await readFile(path.join(this.dir, name), 'utf8')) as BundleRecord;
      } catch {
        continue;
      }
      if (record.configKey !== configKey || !(await unchanged(record, this.digests))) continue;
      const code = await readFile(path.join(this.dir, record.bundle), 'utf8').catch(() => null);
      if (code === null) continue;
      // Most recently used first, and last to be pruned.
      const now = new Date();
      await utimes(path.join(this.dir, name), now, now).catch(() => {});
      return code;
    }
    return null;
  }

  /** Record file names for `configKey` (all keys when omitted), newest first. */
  private async records(configKey?: string): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const mine = names.filter((n) => n.endsWith('.json') && (!configKey || n.startsWith(`${configKey}-`)));
    const dated = await Promise.all(
      mine.map(async (n) => ({
        n,
        mtime: await stat(path.join(this.dir, n)).then(
          (s) => s.mtimeMs,
          () => 0,
        ),
      })),
    );
    return dated.sort((a, b) => b.mtime - a.mtime).map((d) => d.n);
  }

  /**
   * Records a freshly built bundle: hashes `inputs` (the files as they are now) except those `covered` by the
   * configuration key (activity files, whose bundle form is their stubs), writes the bundle and the record atomically (temp file + rename) and prunes old records. Failures to write are returned, never
   * thrown: a read-only project still runs, just without the cache.
   */
  async store(configKey: string, code: string, inputs: { files: string[]; missing: string[]; covered?: ReadonlySet<string> }): Promise<Error | undefined> {
    try {
      const own = [...new Set(inputs.files)].filter((f) => !inputs.covered?.has(f)).sort();
      const hashed = own.map((file) => [file, this.digests.digest(file)] as const);
      const files = hashed.filter((e): e is [string, string] => e[1] !== null);
      const missing = [...new Set(inputs.missing)].sort().map((file): [string, string] => [file, pathKind(file)]);
      const name = `${configKey}-${digest(JSON.stringify([files, missing, digest(code)]))}`;
      const bundle = `${name}.js`;
      await mkdir(this.dir, { recursive: true });
      await atomicWrite(path.join(this.dir, bundle), code);
      const record: BundleRecord = { configKey, bundle, files, missing };
      await atomicWrite(path.join(this.dir, `${name}.json`), JSON.stringify(record));
      await this.prune();
      return undefined;
    } catch (err) {
      return err as Error;
    }
  }

  /**
   * Keeps the newest `KEEP_RECORDS` records and the bundles they name. Deletes the bundles of the records it drops,
   * and a bundle no record names only once it is `ORPHAN_GRACE_MS` old: another process storing into the same
   * cache (a second worker of the project starting beside this one) writes its bundle before its record, so a young
   * bundle without a record is one being stored, not an orphan. Owner files of bundling locks that a signal left
   * behind go after the same grace (`pruneBundlingOwners`).
   */
  private async prune(): Promise<void> {
    const records = await this.records();
    const dropped = records.slice(KEEP_RECORDS);
    await Promise.all(dropped.map((n) => rm(path.join(this.dir, n), { force: true })));
    const kept = new Set(records.slice(0, KEEP_RECORDS).map(bundleOf));
    const named = new Set(records.map(bundleOf));
    const names = await readdir(this.dir);
    const now = Date.now();
    const stale = async (n: string): Promise<boolean> => {
      if (named.has(n)) return true; // the bundle of a dropped record
      const mtime = await stat(path.join(this.dir, n)).then(
        (s) => s.mtimeMs,
        () => now,
      );
      return now - mtime > ORPHAN_GRACE_MS;
    };
    await Promise.all(names.filter((n) => n.endsWith('.js') && !kept.has(n)).map(async (n) => (await stale(n)) && rm(path.join(this.dir, n), { force: true })));
    await pruneBundlingOwners(this.dir, names, ORPHAN_GRACE_MS);
  }
}

/** The bundle file a record file names (`<name>.json` → `<name>.js`). */
const bundleOf = (record: string): string => record.replace(/\.json$/, '.js');

/** Whether every input a record lists is as it was: same file contents, same kind of thing at each absent path. */
async function unchanged(record: BundleRecord, digests: FileDigests): Promise<boolean> {
  if (!record.files.every(([file, sha1]) => digests.digest(file) === sha1)) return false;
  return record.missing.every(([file, kind]) => pathKind(file) === kind);
}
