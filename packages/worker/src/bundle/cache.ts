import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { digest, fileDigest, mapLimit, pathKind } from './digest.js';

/**
 * What a cached bundle was built from: every file webpack read (with its SHA-1) and every path whose
 * absence as a file decided a resolution (an added `steps.ts` next to `steps.js` changes the bundle), with
 * what was there (`none`, `dir`, ...).
 */
export interface BundleInputs {
  files: Array<[file: string, sha1: string]>;
  missing: Array<[file: string, kind: string]>;
}

/** One cache record, `<configKey>.json` in the cache directory. */
interface BundleRecord extends BundleInputs {
  configKey: string;
  /** File name of the bundle, `<configKey>-<inputsKey>.js`. */
  bundle: string;
}

/** How many bundle records (one per configuration key) are kept; older ones are pruned with their bundles. */
const KEEP_RECORDS = 4;
const FILE_CONCURRENCY = 64;

/**
 * The workflow bundle cache under a project's `.skein/bundles/` (layout in docs/architecture.md):
 * - `configKey` hashes everything known before bundling (Skein's and Temporal's versions, the generated entry
 *   module, the activity stubs, the full bundler options); it names a record file;
 * - the record lists the files of the workflow graph webpack read, with their content hashes, and the paths
 *   whose absence mattered; the bundle is used only while every one of them is unchanged (content, not
 *   timestamps), so a bundle is never stale;
 * - `webpack/` holds webpack's persistent file-system cache, used on a miss so a one-file change rebuilds
 *   only what changed.
 */
export class BundleCache {
  constructor(readonly dir: string) {}

  /** webpack's persistent cache directory. */
  get webpackDir(): string {
    return path.join(this.dir, 'webpack');
  }

  /**
   * The cached bundle code for `configKey` when its recorded inputs are all unchanged, else `null` (a miss:
   * no record, an input changed, or the cache is unreadable).
   */
  async lookup(configKey: string): Promise<string | null> {
    let record: BundleRecord;
    try {
      record = JSON.parse(await readFile(this.recordPath(configKey), 'utf8')) as BundleRecord;
    } catch {
      return null;
    }
    if (record.configKey !== configKey) return null;
    const sameFiles = await mapLimit(record.files, FILE_CONCURRENCY, async ([file, sha1]) => (await fileDigest(file)) === sha1);
    if (sameFiles.includes(false)) return null;
    const stillMissing = await mapLimit(record.missing, FILE_CONCURRENCY, async ([file, kind]) => (await pathKind(file)) === kind);
    if (stillMissing.includes(false)) return null;
    return readFile(path.join(this.dir, record.bundle), 'utf8').catch(() => null);
  }

  /**
   * Records a freshly built bundle: hashes `inputs` (the files as they are now) except those `covered` by the
   * configuration key (activity files, whose bundle form is their stubs), writes the bundle and the record atomically (temp file + rename) and prunes old records. Failures to write are returned, never
   * thrown: a read-only project still runs, just without the cache.
   */
  async store(configKey: string, code: string, inputs: { files: string[]; missing: string[]; covered?: ReadonlySet<string> }): Promise<Error | undefined> {
    try {
      const own = [...new Set(inputs.files)].filter((f) => !inputs.covered?.has(f)).sort();
      const hashed = await mapLimit(own, FILE_CONCURRENCY, async (file) => [file, await fileDigest(file)] as const);
      const files = hashed.filter((e): e is [string, string] => e[1] !== null);
      const missing = await mapLimit([...new Set(inputs.missing)].sort(), FILE_CONCURRENCY, async (file): Promise<[string, string]> => [file, await pathKind(file)]);
      const bundle = `${configKey}-${digest(JSON.stringify([files, missing, digest(code)]))}.js`;
      await mkdir(this.dir, { recursive: true });
      await atomicWrite(path.join(this.dir, bundle), code);
      const record: BundleRecord = { configKey, bundle, files, missing };
      await atomicWrite(this.recordPath(configKey), JSON.stringify(record));
      await this.prune();
      return undefined;
    } catch (err) {
      return err as Error;
    }
  }

  private recordPath(configKey: string): string {
    return path.join(this.dir, `${configKey}.json`);
  }

  /** Keeps the newest `KEEP_RECORDS` records and the bundles they name; deletes every other bundle file. */
  private async prune(): Promise<void> {
    const names = await readdir(this.dir);
    const records = await Promise.all(
      names.filter((n) => n.endsWith('.json')).map(async (n) => ({ n, mtime: (await stat(path.join(this.dir, n))).mtimeMs })),
    );
    records.sort((a, b) => b.mtime - a.mtime);
    const stale = records.slice(KEEP_RECORDS).map((r) => r.n);
    await Promise.all(stale.map((n) => rm(path.join(this.dir, n), { force: true })));
    const kept = new Set<string>();
    for (const { n } of records.slice(0, KEEP_RECORDS)) {
      const record = JSON.parse(await readFile(path.join(this.dir, n), 'utf8').catch(() => '{}')) as Partial<BundleRecord>;
      if (record.bundle) kept.add(record.bundle);
    }
    await Promise.all(names.filter((n) => n.endsWith('.js') && !kept.has(n)).map((n) => rm(path.join(this.dir, n), { force: true })));
  }
}

async function atomicWrite(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}
