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
 * format version) is reported once through `onWarning`, ignored and replaced.
 *
 * The file is lines of JSON: the header, the snapshot of the last full analysis, its per-file records, then any
 * number of deltas that the fast path appended (`CacheDelta`: what it re-derived since). A full analysis writes the
 * file through a temporary file and a rename, so a reader never sees half of it, and gives it a new `base`; a delta
 * names the base it was derived from and carries the SHA-1 of its own JSON (as the header does of the snapshot and
 * the records), and one of another base (appended to a file replaced meanwhile), edited, or cut short (a process
 * killed while appending) is skipped, which costs the next run that file's re-derivation, never a wrong answer. Appending a few kilobytes instead of rewriting the 10 MB file of the 1,000-workflow benchmark is
 * what keeps the fast path's write under a millisecond; past `DELTA_LIMIT_BYTES` of deltas the fast path writes the
 * file whole again, with its deltas merged into one.
 */
import { hash, randomBytes } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FactsCache, FileRecord, FileSystem, WorkflowEntry } from '@skein/discovery';
import type { ValidateOptions, ValidationReport } from '../types.js';
import { sha1, withReads, type Observation } from '@skein/discovery/observations';

/** The `format` field of a cache file: anything else is a foreign file. */
export const CACHE_FORMAT = 'skein-validate-cache';
/** Bumped whenever the record layout changes (an older file is then ignored as foreign). */
export const CACHE_FORMAT_VERSION = 3;
/** Past this many bytes of appended deltas, the fast path writes the cache file whole again (its deltas merged). */
export const DELTA_LIMIT_BYTES = 512 * 1024;

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

/** What invalidates the whole cache, besides the files its snapshot read and the configuration files it records. */
export interface CacheKeyParts {
  version: string;
  /** `keyOptions` of the validation's options. */
  options: Record<string, unknown>;
  root: string;
}

/**
 * The report of the last full analysis and what it was computed from: every file-system answer it read, and per
 * source file loaded through the module store a digest of what the analysis took from its content (its facts and
 * its rules' findings, under the roles listed). When only such files changed and each still yields the same
 * digest, the report is the same.
 */
export interface Snapshot {
  /**
   * In the file, each workflow's `activityTypes` (hundreds of `<workflow>#<activity>` strings per workflow on a large
   * catalog, most of the report's size) is the index of its list of `<activity>` parts in `activityTypeLists`
   * (`compactActivityTypes`); `parseSnapshot` gives them back as strings.
   */
  report: ValidationReport;
  observations: Observation[];
  /** File → `[digest of its facts and findings, roles its rules ran under]`. */
  files: Record<string, [string, string[]]>;
  /** The analysis' own roots (the project or package, and each exposed package). */
  ownRoots: string[];
  /** The distinct lists of activity parts the stored workflows' `activityTypes` point to (in the file only). */
  activityTypeLists?: string[][];
}

/** The first line of the cache file: its identity and what invalidates it as a whole. */
export interface CacheHeader {
  format: typeof CACHE_FORMAT;
  version: number;
  key: string;
  /** `[path, SHA-1 of its content]` of every package.json / tsconfig / jsconfig the analysis read. */
  configs: [string, string][];
  /** Random, new with each full write of the file: the deltas appended to it name it. */
  base: string;
  /** SHA-1 (hex) of the snapshot line's bytes and of the records line's: a line that differs is a corrupted file. */
  digests: [snapshot: string, records: string];
}

/** The one warning of a cache file that is not a cache of this format version, or is corrupted (`reason`: how, when known). */
export function foreignCacheWarning(file: string, reason?: string): string {
  return `${file} is not a Skein validation cache of this version (or is corrupted${reason ? `: ${reason}` : ''}); ignoring it and writing a new one`;
}

/** The digest a cache file keeps of one of its lines: the SHA-1 (hex) of its UTF-8 bytes, as written or as read. */
export function lineDigest(line: string | Buffer): string {
  return hash('sha1', line, 'hex');
}

/** Whether `line` (a line of a cache file, as read) is what its writer wrote: `digest` is the one it recorded. */
export function intactLine(line: Buffer, digest: string): boolean {
  return lineDigest(line) === digest;
}

/** Thrown by the `--cache` fast path for a cache file that is not what its writer wrote (a line edited or damaged). */
export class CorruptedCacheError extends Error {
  override name = 'CorruptedCacheError';
}

/** `earlier` answers with each of `later` in place of the one for the same path, or added: one answer per path. */
function mergeOverrides(earlier: readonly Observation[], later: readonly Observation[]): Observation[] {
  const byPath = new Map(earlier.map((o) => [o[1], o]));
  for (const o of later) byPath.set(o[1], o);
  return [...byPath.values()];
}

const isStringPair = (value: unknown): boolean => Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string';

/**
 * A line the fast path appends after the records: what it re-derived since the last full analysis. Later deltas
 * take precedence over earlier ones, and all of them over the snapshot's answers and the records line.
 */
export interface CacheDelta {
  /** The `base` of the header the delta was derived from (a delta of another base is skipped). */
  base: string;
  /** New answers to reads of the snapshot (the files re-derived), which replace the stored ones. */
  overrides: Observation[];
  /** Records of the files re-derived. */
  extra: Record<string, FileRecord>;
}

/**
 * An open cache file: its header, the raw bytes of its snapshot line and of its records line, and its deltas of the
 * header's base merged (`overrides` with one answer per path, `extra`), with the bytes they take (`deltaBytes`).
 */
export interface CacheFileRead {
  header: CacheHeader;
  snapshot: Buffer;
  records: Buffer;
  overrides: Observation[];
  extra: Record<string, FileRecord>;
  deltaBytes: number;
}

/**
 * A delta as a line: the SHA-1 of its JSON, a space, the JSON (so that a line edited or damaged into other valid
 * JSON is found, as for the snapshot and the records).
 */
function deltaLine(delta: CacheDelta): string {
  const json = JSON.stringify(delta);
  return `${lineDigest(json)} ${json}`;
}

/** A parsed delta line of `base`, or undefined for anything else (another base, a line cut short or edited, not a delta). */
function parseDelta(line: Buffer, base: string): CacheDelta | undefined {
  const space = line.indexOf(32);
  if (space !== 40 || !intactLine(line.subarray(space + 1), line.subarray(0, space).toString('latin1'))) return undefined;
  let delta: Partial<CacheDelta> | null;
  try {
    delta = JSON.parse(line.subarray(space + 1).toString('utf8')) as Partial<CacheDelta> | null;
  } catch {
    return undefined;
  }
  if (delta === null || typeof delta !== 'object' || delta.base !== base || !Array.isArray(delta.overrides)) return undefined;
  if (!delta.overrides.every((o) => Array.isArray(o) && typeof o[0] === 'string' && typeof o[1] === 'string' && typeof o[2] === 'string')) return undefined;
  if (delta.extra === null || typeof delta.extra !== 'object' || Array.isArray(delta.extra)) return undefined;
  return delta as CacheDelta;
}

/**
 * Reads a cache file's header and deltas (the snapshot and the records stay unparsed). `missing`: no such file (or
 * folder); `foreign`: a file that is not a cache of this format version (or is corrupted); `unreadable`: another read
 * error.
 */
export function readCacheFile(file: string): CacheFileRead | { problem: 'missing' | 'foreign' | 'unreadable'; message?: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { problem: 'missing' } : { problem: 'unreadable', message: (error as Error).message };
  }
  const first = bytes.indexOf(10);
  const second = first < 0 ? -1 : bytes.indexOf(10, first + 1);
  if (second < 0) return { problem: 'foreign' };
  let header: Partial<CacheHeader>;
  try {
    header = JSON.parse(bytes.subarray(0, first).toString('utf8')) as Partial<CacheHeader>;
  } catch {
    return { problem: 'foreign' };
  }
  if (
    typeof header !== 'object' ||
    header === null ||
    header.format !== CACHE_FORMAT ||
    header.version !== CACHE_FORMAT_VERSION ||
    typeof header.key !== 'string' ||
    typeof header.base !== 'string' ||
    !isStringPair(header.digests) ||
    !Array.isArray(header.configs) ||
    !header.configs.every(isStringPair)
  )
    return { problem: 'foreign' };
  const third = bytes.indexOf(10, second + 1);
  let overrides: Observation[] = [];
  const extra: Record<string, FileRecord> = {};
  // Each delta is written as its own line between two newlines, so a line cut short never swallows the next one.
  for (let start = third + 1, end; third >= 0 && (end = bytes.indexOf(10, start)) >= 0; start = end + 1) {
    if (end === start) continue;
    const delta = parseDelta(bytes.subarray(start, end), header.base);
    if (delta === undefined) continue;
    overrides = mergeOverrides(overrides, delta.overrides);
    Object.assign(extra, delta.extra);
  }
  return {
    header: header as CacheHeader,
    snapshot: bytes.subarray(first + 1, second),
    records: bytes.subarray(second + 1, third < 0 ? bytes.length : third),
    overrides,
    extra,
    deltaBytes: third < 0 ? 0 : bytes.length - third - 1,
  };
}

/** The snapshot of a cache file read by `readCacheFile`, with its deltas' answers applied; undefined when it has none or it is malformed. */
export function parseSnapshot(read: CacheFileRead): Snapshot | undefined {
  let snapshot: Snapshot | null;
  try {
    snapshot = JSON.parse(read.snapshot.toString('utf8')) as Snapshot | null;
  } catch {
    return undefined;
  }
  if (snapshot === null || typeof snapshot !== 'object' || !Array.isArray(snapshot.observations) || typeof snapshot.files !== 'object') return undefined;
  if (!expandActivityTypes(snapshot)) return undefined;
  if (read.overrides.length > 0) snapshot.observations = withReads(snapshot.observations, read.overrides);
  return snapshot;
}

type StoredWorkflow = Omit<WorkflowEntry, 'activityTypes'> & { activityTypes: string[] | number };

/**
 * The snapshot as stored: each workflow's `activityTypes` that all start with `<workflow>#` replaced by the index of
 * its list of `<activity>` parts in `activityTypeLists` (one list per distinct content: on the 1,000-workflow
 * benchmark 1,000 workflows share a handful, and the snapshot shrinks from 13 MB to about 4 MB).
 */
function compactActivityTypes(snapshot: Snapshot): Snapshot {
  const listed = (snapshot.report as Partial<ValidationReport>).manifest?.workflows;
  if (!Array.isArray(listed)) return snapshot;
  const activityTypeLists: string[][] = [];
  const ids = new Map<string, number>();
  const workflows = listed.map((wf): StoredWorkflow => {
    const prefix = `${wf.name}#`;
    if (!wf.activityTypes.every((t) => t.startsWith(prefix))) return wf;
    const parts = wf.activityTypes.map((t) => t.slice(prefix.length));
    const key = JSON.stringify(parts);
    let index = ids.get(key);
    if (index === undefined) {
      ids.set(key, (index = activityTypeLists.length));
      activityTypeLists.push(parts);
    }
    return { ...wf, activityTypes: index };
  });
  const report = { ...snapshot.report, manifest: { ...snapshot.report.manifest, workflows: workflows as unknown as WorkflowEntry[] } };
  return { ...snapshot, report, activityTypeLists };
}

/** Gives a stored snapshot's workflows their `activityTypes` back (in place); false when an index points nowhere. */
function expandActivityTypes(snapshot: Snapshot): boolean {
  const lists = snapshot.activityTypeLists ?? [];
  for (const wf of (snapshot.report?.manifest?.workflows ?? []) as unknown as StoredWorkflow[]) {
    if (typeof wf.activityTypes !== 'number') continue;
    const parts = lists[wf.activityTypes];
    if (!Array.isArray(parts)) return false;
    wf.activityTypes = parts.map((a) => `${wf.name}#${a}`);
  }
  delete snapshot.activityTypeLists;
  return true;
}

/** The key of a cache: `parts` and the listing of the analysis code (`codeListing`). */
export function cacheKey(parts: CacheKeyParts): string {
  return sha1(JSON.stringify({ ...parts, code: codeListing() }));
}

/**
 * The digest a snapshot keeps of one file's record: its facts, its findings under `roles`, and every other field a
 * layer added (by name), so that a new per-file fact takes part without a change here (one that the re-derivation
 * of a changed file does not fill in makes the digests differ: the safe answer, a full analysis).
 */
export function recordDigest(record: FileRecord, roles: readonly string[]): string {
  const lint = record.lint as Record<string, unknown> | undefined;
  const others = Object.keys(record)
    .filter((key) => key !== 'hash' && key !== 'facts' && key !== 'lint' && record[key] !== undefined)
    .sort();
  return sha1(JSON.stringify([record.facts ?? null, roles.map((role) => lint?.[role] ?? null), ...others.map((key) => [key, record[key]])]));
}

/**
 * The options that take part in a cache's key: every option of `validate()` but the file system, the cache itself
 * and the command's hooks, with defaults filled in (so an option added later is part of the key without a change
 * here).
 */
export function keyOptions(options: ValidateOptions & { beforeAnalysis?: unknown }, maxFileBytes: number, mode: string): Record<string, unknown> {
  // `shapes` adds to the report and changes no finding: a validation with it and one without share records.
  const { fs: _fs, cache: _cache, beforeAnalysis: _before, shapes: _shapes, onManifest: _onManifest, ...rest } = options;
  return { ...rest, maxFileBytes, mode };
}

/** A new `base` for a header: 12 random hex digits. */
export function newBase(): string {
  return randomBytes(6).toString('hex');
}

/**
 * Writes a whole cache file (`header`, then the snapshot and the records, each JSON text or the raw bytes of a file
 * read before, then `delta` when given) through a temporary file and a rename. Returns the error instead of throwing
 * it.
 */
export function writeCacheFile(file: string, header: CacheHeader, snapshot: string | Buffer, records: string | Buffer, delta?: CacheDelta): Error | undefined {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const fd = openSync(tmp, 'w');
    try {
      const parts = [`${JSON.stringify(header)}\n`, snapshot, '\n', records, '\n'];
      if (delta !== undefined) parts.push(`${deltaLine(delta)}\n`);
      for (const part of parts) writeSync(fd, typeof part === 'string' ? Buffer.from(part) : part);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
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

/**
 * Appends `delta` to the cache file as one line (one write; never creates the file: when it is gone, nothing is
 * written). Returns the error instead of throwing it.
 */
function appendCacheDelta(file: string, delta: CacheDelta): Error | undefined {
  try {
    const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND);
    try {
      writeSync(fd, Buffer.from(`\n${deltaLine(delta)}\n`));
    } finally {
      closeSync(fd);
    }
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : (error as Error);
  }
}

/**
 * Saves what the fast path re-derived on top of the file `read` was read from: the new answers (`overrides`) and
 * records (`extra`) appended as one delta line, or, past `DELTA_LIMIT_BYTES` of deltas, the file written whole again
 * with every delta and this one merged into one. Returns the error instead of throwing it.
 */
export function saveDelta(file: string, read: CacheFileRead, overrides: Observation[], extra: Record<string, FileRecord>): Error | undefined {
  const base = read.header.base;
  if (read.deltaBytes < DELTA_LIMIT_BYTES) return appendCacheDelta(file, { base, overrides, extra });
  const merged: CacheDelta = { base, overrides: mergeOverrides(read.overrides, overrides), extra: { ...read.extra, ...extra } };
  return writeCacheFile(file, read.header, read.snapshot, read.records, merged);
}

const CONFIG_FILE = /(?:^|[\\/])(?:package\.json|[tj]sconfig[^\\/]*\.json)$/;

/**
 * A listing of the code of the validator and the analysis core (file names, sizes, modification times): rebuilding
 * either changes it, so a cache never outlives the code (and so the rule set) that filled it, even without a
 * version bump.
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
        const st = statSync(path.join(dir, name));
        parts.push(`${dir}/${name}:${st.size}:${st.mtimeMs}`);
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
  /** Whether usable records were found (false: missing, foreign, or invalidated as a whole). */
  loaded: boolean;
  /** Why the stored records were not used, when a cache of this format existed. */
  invalidated?: 'key' | 'config';
}

/**
 * An open cache for a full analysis: the store asks it for each file's record (`recordFor`); `fileSystem` wraps the
 * analysis' file system to note the configuration files it reads; `save` writes every record used in this analysis
 * and the snapshot of its report.
 */
export class ValidationFileCache implements FactsCache {
  readonly stats: CacheStats;
  readonly #file: string;
  readonly #key: string;
  readonly #previous: Record<string, FileRecord> = {};
  readonly #current = new Map<string, FileRecord>();
  readonly #configs = new Map<string, string>();

  /**
   * Opens (reads) the cache file. Never throws: a missing file is an empty cache; a foreign or corrupted one is an
   * empty cache and one call of `onWarning`.
   */
  constructor(file: string, parts: CacheKeyParts, onWarning: (message: string) => void) {
    this.#file = file;
    this.#key = cacheKey(parts);
    this.stats = { file, loaded: false };
    const read = readCacheFile(file);
    if ('problem' in read) {
      if (read.problem === 'unreadable') onWarning(`cannot read the cache file ${file} (${read.message}); validating without it`);
      if (read.problem === 'foreign') onWarning(foreignCacheWarning(file));
      return;
    }
    const { header } = read;
    if (header.key !== this.#key) {
      this.stats.invalidated = 'key';
      return;
    }
    if (!intactLine(read.records, header.digests[1])) {
      onWarning(foreignCacheWarning(file, 'its records line is not the one its writer wrote'));
      return;
    }
    for (const entry of header.configs) {
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
    let records: unknown;
    try {
      records = JSON.parse(read.records.toString('utf8'));
    } catch {
      onWarning(foreignCacheWarning(file));
      return;
    }
    if (typeof records !== 'object' || records === null || Array.isArray(records)) {
      onWarning(foreignCacheWarning(file));
      return;
    }
    this.#previous = Object.assign(records as Record<string, FileRecord>, read.extra);
    this.stats.loaded = true;
  }

  /** The record of `file` for the content `text`: the stored one when its hash matches, else a new empty one. */
  recordFor(file: string, text: string): FileRecord {
    const digest = sha1(text);
    const current = this.#current.get(file);
    if (current?.hash === digest) return current;
    const stored = Object.hasOwn(this.#previous, file) ? this.#previous[file] : undefined;
    const record: FileRecord = stored !== undefined && typeof stored === 'object' && stored !== null && stored.hash === digest ? stored : { hash: digest };
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
   * Writes the records of this analysis (files not looked at are dropped) and `snapshot` (when given: a report
   * whose every file-system answer was recorded). `snapshotFiles` picks the files whose content may change without
   * invalidating the snapshot (those whose content reaches the report only through their record), with the roles
   * their rules ran under. Returns the error instead of throwing it.
   */
  save(snapshot?: Omit<Snapshot, 'files'> & { files: Map<string, string[]> }): Error | undefined {
    // Each record is turned into JSON once, by its fields (and its findings by role), and the snapshot's digest of
    // a file is made of the same texts (`recordDigest` gives the same value): on the benchmark's 4,000 files a second
    // serialization of every record cost as much as writing them.
    const files: Snapshot['files'] = {};
    const texts: string[] = [];
    for (const [file, record] of this.#current) {
      const fields: string[] = [];
      let facts = 'null';
      const lint = new Map<string, string>();
      const others: [string, string][] = [];
      for (const [key, value] of Object.entries(record)) {
        if (value === undefined) continue;
        let text: string;
        if (key === 'lint' && value !== null && typeof value === 'object') {
          for (const [role, entry] of Object.entries(value as Record<string, unknown>)) if (entry !== undefined) lint.set(role, JSON.stringify(entry));
          text = `{${[...lint].map(([role, entry]) => `${JSON.stringify(role)}:${entry}`).join(',')}}`;
        } else {
          text = JSON.stringify(value);
          if (key === 'facts') facts = text;
          else if (key !== 'hash') others.push([key, text]);
        }
        fields.push(`${JSON.stringify(key)}:${text}`);
      }
      texts.push(`${JSON.stringify(file)}:{${fields.join(',')}}`);
      const roles = snapshot?.files.get(file);
      if (roles !== undefined && record.facts !== undefined)
        files[file] = [
          sha1(
            `[${facts},[${roles.map((role) => lint.get(role) ?? 'null').join(',')}]${others
              .sort((a, b) => (a[0] < b[0] ? -1 : 1))
              .map(([key, text]) => `,[${JSON.stringify(key)},${text}]`)
              .join('')}]`,
          ),
          roles,
        ];
    }
    const stored: Snapshot | null = snapshot ? compactActivityTypes({ ...snapshot, files }) : null;
    const snapshotText = JSON.stringify(stored);
    const recordsText = `{${texts.join(',')}}`;
    const header: CacheHeader = {
      format: CACHE_FORMAT,
      version: CACHE_FORMAT_VERSION,
      key: this.#key,
      base: newBase(),
      digests: [lineDigest(snapshotText), lineDigest(recordsText)],
      configs: [...this.#configs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    };
    return writeCacheFile(this.#file, header, snapshotText, recordsText);
  }

  /** Number of files with a record in this analysis. */
  get size(): number {
    return this.#current.size;
  }

  /** Files with a record in this analysis. */
  files(): IterableIterator<string> {
    return this.#current.keys();
  }
}
