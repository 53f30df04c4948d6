/**
 * The persistent cache of `validate(root, { cache })` (`validate-workflow-package --cache`): one JSON file holding,
 * per source file, a record keyed by the SHA-1 of its content (`FileRecord` of @skein/discovery): the module facts
 * discovery derives from it (`facts`: imports, exports, definitions, import sites, load problems) and the findings
 * the validator's file rules reported for it under each role (`lint`, with every import resolution and package root
 * those findings depended on). A later analysis parses and walks only the files whose record is missing, stale or
 * depends on an answer that changed; everything else (discovery, the import graph, the project rules) runs again
 * from the cached facts, so the report is the one a validation without the cache gives.
 *
 * The whole cache is dropped when its key changes: the validator's version and code (a listing of its own and the
 * analysis core's modules with sizes and modification times), the rule set, the options that shape findings
 * (`maxFileBytes`, `mode`) and the root; or when any package.json, tsconfig or jsconfig the last analysis read has
 * changed content (or vanished). A file that is not such a cache (unreadable JSON, another tool's file, another
 * format version) is reported once through `onWarning`, ignored and replaced. The file is written through a
 * temporary file and a rename, so a reader never sees half of it.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FactsCache, FileRecord, FileSystem } from '@skein/discovery';

/** The `format` field of a cache file: anything else is a foreign file. */
export const CACHE_FORMAT = 'skein-validate-cache';
/** Bumped whenever the record layout changes (an older file is then ignored as foreign). */
export const CACHE_FORMAT_VERSION = 1;

/** The default cache file of a validated directory: `<root>/.skein/cache/validate.json`. */
export function defaultCacheFile(root: string): string {
  return path.join(root, '.skein', 'cache', 'validate.json');
}

/**
 * Where the cache of `root` lives given `--cache-location`: the location itself when it names a file; inside an
 * existing directory (or a location ending in a path separator), `validate-<hash of root>.json`, so one directory
 * can hold the caches of several projects. Without a location, `defaultCacheFile(root)`.
 * @param location as given by the user, resolved against `cwd`
 */
export function cacheFileFor(root: string, location: string | undefined, cwd: string): string {
  if (location === undefined) return defaultCacheFile(root);
  const resolved = path.resolve(cwd, location);
  let isDir = /[\\/]$/.test(location);
  if (!isDir) {
    try {
      isDir = statSync(resolved).isDirectory();
    } catch {
      isDir = false;
    }
  }
  return isDir ? path.join(resolved, `validate-${sha1(root).slice(0, 12)}.json`) : resolved;
}

/** What invalidates the whole cache, besides the configuration files it records. */
export interface CacheKeyParts {
  version: string;
  /** Rule ids with their severities, in registry order. */
  rules: string[];
  options: { maxFileBytes: number; mode: string };
  root: string;
}

/** The cache file as stored. */
interface CacheFileContent {
  format: typeof CACHE_FORMAT;
  version: number;
  key: string;
  /** `[path, SHA-1 of its content]` of every package.json / tsconfig / jsconfig the analysis read. */
  configs: [string, string][];
  files: Record<string, FileRecord>;
}

/** SHA-1 (hex) of a string; identifies content, not a security boundary. */
function sha1(text: string): string {
  return hash('sha1', text, 'hex');
}

const CONFIG_FILE = /(?:^|[\\/])(?:package\.json|[tj]sconfig[^\\/]*\.json)$/;

/**
 * A listing of the code of the validator and the analysis core (file names, sizes, modification times): rebuilding
 * either changes it, so a cache never outlives the code that filled it, even without a version bump.
 */
function codeListing(): string {
  const dirs = [path.dirname(path.dirname(fileURLToPath(import.meta.url)))];
  try {
    dirs.push(path.dirname(fileURLToPath(import.meta.resolve('@skein/discovery'))));
  } catch {
    // Not resolvable from here (a bundled copy): the validator's own code and version stand for it.
  }
  const parts: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.[cm]?[jt]s$/.test(f) && !/\.d\.[cm]?ts$/.test(f)).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      try {
        const s = statSync(path.join(dir, name));
        parts.push(`${dir}/${name}:${s.size}:${s.mtimeMs}`);
      } catch {
        parts.push(`${dir}/${name}:-`);
      }
    }
  }
  return parts.join('\n');
}

/** Counts of one analysis with the cache (for tests and benchmarks). */
export interface CacheStats {
  /** The cache file. */
  file: string;
  /** Whether a usable cache was found (false: missing, foreign, or invalidated as a whole). */
  loaded: boolean;
  /** Why the stored cache was not used, when one existed. */
  invalidated?: 'key' | 'config';
}

/**
 * An open cache: the store asks it for each file's record (`recordFor`); `fileSystem` wraps the analysis' file system
 * to note the configuration files it reads; `save` writes every record used in this analysis.
 */
export class ValidationFileCache implements FactsCache {
  readonly stats: CacheStats;
  readonly #file: string;
  readonly #key: string;
  readonly #previous: Record<string, FileRecord>;
  readonly #current = new Map<string, FileRecord>();
  readonly #configs = new Map<string, string>();

  /**
   * Opens (reads) the cache file. Never throws: a missing file is an empty cache; a foreign or corrupted one is an
   * empty cache and one call of `onWarning`.
   */
  constructor(file: string, parts: CacheKeyParts, onWarning: (message: string) => void) {
    this.#file = file;
    this.#key = sha1(JSON.stringify({ ...parts, code: codeListing() }));
    this.stats = { file, loaded: false };
    this.#previous = {};
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onWarning(`cannot read the cache file ${file} (${(error as Error).message}); validating without it`);
      return;
    }
    let stored: Partial<CacheFileContent>;
    try {
      stored = JSON.parse(text) as Partial<CacheFileContent>;
    } catch {
      onWarning(`${file} is not a Skein validation cache (corrupted); ignoring it and writing a new one`);
      return;
    }
    if (
      typeof stored !== 'object' ||
      stored === null ||
      stored.format !== CACHE_FORMAT ||
      stored.version !== CACHE_FORMAT_VERSION ||
      typeof stored.key !== 'string' ||
      !Array.isArray(stored.configs) ||
      typeof stored.files !== 'object' ||
      stored.files === null
    ) {
      onWarning(`${file} is not a Skein validation cache of this version; ignoring it and writing a new one`);
      return;
    }
    if (stored.key !== this.#key) {
      this.stats.invalidated = 'key';
      return;
    }
    for (const entry of stored.configs) {
      let now: string | undefined;
      try {
        now = sha1(readFileSync(entry[0], 'utf8'));
      } catch {
        now = undefined;
      }
      if (now !== entry[1]) {
        this.stats.invalidated = 'config';
        return;
      }
    }
    this.#previous = stored.files;
    this.stats.loaded = true;
  }

  /** The record of `file` for the content `text`: the stored one when its hash matches, else a new empty one. */
  recordFor(file: string, text: string): FileRecord {
    const digest = sha1(text);
    const current = this.#current.get(file);
    if (current?.hash === digest) return current;
    const stored = Object.hasOwn(this.#previous, file) ? this.#previous[file] : undefined;
    const record: FileRecord = stored !== undefined && typeof stored === 'object' && stored.hash === digest ? stored : { hash: digest };
    this.#current.set(file, record);
    return record;
  }

  /** `base` with every package.json / tsconfig / jsconfig it reads noted (by content hash) as a key of the cache. */
  fileSystem(base: FileSystem): FileSystem {
    return {
      stat: (p) => base.stat(p),
      realpath: (p) => base.realpath(p),
      readdir: (p) => base.readdir(p),
      readFile: (p) => {
        const text = base.readFile(p);
        if (CONFIG_FILE.test(p)) this.#configs.set(p, sha1(text));
        return text;
      },
    };
  }

  /**
   * Writes the records of this analysis (files not looked at are dropped) through a temporary file and a rename.
   * Returns the error instead of throwing it (a cache that cannot be written is a warning, not a failure).
   */
  save(): Error | undefined {
    const content: CacheFileContent = {
      format: CACHE_FORMAT,
      version: CACHE_FORMAT_VERSION,
      key: this.#key,
      configs: [...this.#configs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
      files: Object.fromEntries(this.#current),
    };
    const tmp = `${this.#file}.${process.pid}.tmp`;
    try {
      mkdirSync(path.dirname(this.#file), { recursive: true });
      writeFileSync(tmp, JSON.stringify(content));
      renameSync(tmp, this.#file);
      return undefined;
    } catch (error) {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing was written
      }
      return error as Error;
    }
  }
}
