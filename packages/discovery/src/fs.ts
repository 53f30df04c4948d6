/**
 * The one small file-system interface discovery reads through (one interface,
 * so tests can use in-memory trees and so "never imports package code" is evident: nothing here can load a module).
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';

/** What a directory entry is, without following symlinks. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** One directory entry. */
export interface DirEntry {
  name: string;
  kind: EntryKind;
}

/** The result of `stat` (symlinks followed). `size` in bytes. */
export interface FileStat {
  kind: 'file' | 'directory' | 'other';
  size: number;
}

/**
 * Read-only file access. Every method throws an `Error` carrying a Node-style `code`
 * (`ENOENT`, `ENOTDIR`, `ELOOP`, `EACCES`, ...) when the path cannot be read.
 */
export interface FileSystem {
  /** UTF-8 contents of a file. */
  readFile(path: string): string;
  /** Kind and size of a path, following symlinks. */
  stat(path: string): FileStat;
  /** Canonical absolute path with every symlink resolved. */
  realpath(path: string): string;
  /** Entries of a directory, unsorted, symlinks reported as `symlink`. */
  readdir(path: string): DirEntry[];
}

/**
 * The Node implementation of `FileSystem`: the synchronous `node:fs` functions. Analysis reads thousands of
 * small files, and a synchronous read is several times cheaper than the open/fstat/read/close round trips of
 * `fs/promises` through the thread pool (see bench/validate).
 */
export const nodeFileSystem: FileSystem = {
  readFile: (path) => readFileSync(path, 'utf8'),
  stat: (path) => {
    const s = statSync(path);
    return { kind: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size };
  },
  realpath: (path) => realpathSync.native(path),
  readdir: (path) =>
    readdirSync(path, { withFileTypes: true }).map((e) => ({
      name: e.name,
      kind: e.isSymbolicLink() ? 'symlink' : e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other',
    })),
};

/** The Node-style error code of a thrown error, or `EUNKNOWN`. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'EUNKNOWN';
}

/** Resolves to `undefined` instead of throwing when `path` does not exist or is not what was asked. */
export function statOrUndefined(fs: FileSystem, path: string): FileStat | undefined {
  try {
    return fs.stat(path);
  } catch {
    return undefined;
  }
}

/** True when `path` is an existing regular file (symlinks followed). */
export function isFile(fs: FileSystem, path: string): boolean {
  return statOrUndefined(fs, path)?.kind === 'file';
}

/**
 * Wraps a `FileSystem` so that `stat`, `realpath`, `readdir` and JSON reads of one path are asked once (results
 * and errors are remembered). Used for the duration of one `discover()` run, which lists the same folders
 * from several places (the package walk, the activity listing, entry resolution).
 *
 * `realpath` of a path whose folder was listed already is worked out without a system call: when the listing shows
 * the entry is a plain file or folder (not a symlink), its real path is the folder's real path joined with its name.
 * A walk lists every folder before anyone asks for the real path of the files in it, so the thousands of
 * `realpath` calls of a validation (one per file, from the resolver and the module graph) cost a map lookup each.
 */
export function cachingFileSystem(fs: FileSystem): FileSystem {
  // Answers are stored as they are, failures apart (rare): a hit is one lookup and no wrapper object per path
  // (in-process A/B over 4,000 files, see bench/validate).
  const stats = new Map<string, FileStat>();
  const reals = new Map<string, string>();
  const dirs = new Map<string, DirEntry[]>();
  const json = new Map<string, string>();
  /** What the failed calls threw, one map per method, by path. */
  const statFailures = new Map<string, unknown>();
  const realFailures = new Map<string, unknown>();
  const dirFailures = new Map<string, unknown>();
  const jsonFailures = new Map<string, unknown>();
  /** Entry kinds of each listed folder, by name (built on first use from `dirs`). */
  const kinds = new Map<string, Map<string, EntryKind>>();
  const memo = <T>(cache: Map<string, T>, failures: Map<string, unknown>, path: string, call: (path: string) => T): T => {
    const hit = cache.get(path);
    if (hit !== undefined) return hit;
    if (failures.has(path)) throw failures.get(path);
    let value: T;
    try {
      value = call(path);
    } catch (error) {
      failures.set(path, error);
      throw error;
    }
    cache.set(path, value);
    return value;
  };
  const kindIn = (dir: string, name: string): EntryKind | undefined => {
    let byName = kinds.get(dir);
    if (!byName) {
      const listed = dirs.get(dir);
      if (!listed) return undefined;
      byName = new Map(listed.map((e) => [e.name, e.kind]));
      kinds.set(dir, byName);
    }
    return byName.get(name);
  };
  const realpathOf = (path: string): string => derivedRealpath(path) ?? fs.realpath(path);
  const realpath = (path: string): string => memo(reals, realFailures, path, realpathOf);
  /** The real path of `path` from its listed folder, or undefined when that is not known without asking `fs`. */
  const derivedRealpath = (path: string): string | undefined => {
    const split = splitPlainPath(path); // `x.js/`, `a/../x.js`: not an entry as listed; only `fs` knows
    if (split === undefined) return undefined;
    const kind = kindIn(split.dir, split.name);
    if (kind !== 'file' && kind !== 'directory') return undefined;
    try {
      return joinName(realpath(split.dir), split.name); // the folder was listed, so it exists: at worst one `fs.realpath` for it
    } catch {
      return undefined;
    }
  };
  // One function per method, made once: `memo` is on the path of every call.
  const readJson = (path: string): string => fs.readFile(path);
  const statOf = (path: string): FileStat => fs.stat(path);
  const list = (path: string): DirEntry[] => fs.readdir(path);
  return {
    // Source files are read once by the module store; JSON (package.json, tsconfig.json) is asked for by several
    // readers (discovery, layout, the validator's package rules), so it is remembered too.
    readFile: (path) => (path.endsWith('.json') ? memo(json, jsonFailures, path, readJson) : fs.readFile(path)),
    stat: (path) => memo(stats, statFailures, path, statOf),
    realpath,
    readdir: (path) => memo(dirs, dirFailures, path, list),
  };
}

/** A path with an empty, `.` or `..` segment, or a trailing separator (POSIX). */
const UNPLAIN_SEGMENT = /\/(?:\.{1,2})?(?:\/|$)/;

/**
 * The folder and name of a normalized absolute POSIX path other than the root (`dirname` and `basename`, by a
 * character scan instead of `normalize`: asked for every file), or undefined for any other path, and for every path
 * on Windows, whose callers then take the `node:path` way (`resolve`, `dirname`) or ask the file system.
 */
export function splitPlainPath(path: string): { dir: string; name: string } | undefined {
  if (sep !== '/' || path.charCodeAt(0) !== 47 || UNPLAIN_SEGMENT.test(path)) return undefined;
  const cut = path.lastIndexOf('/');
  return { dir: cut === 0 ? '/' : path.slice(0, cut), name: path.slice(cut + 1) };
}

/** `join(dir, name)` for a normalized `dir` and a directory entry's name (no separator, never `.` or `..`). */
export function joinName(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** True when `child` is `parent` or below it (both absolute and normalized, as `path.resolve` returns them). */
export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  return child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** The roots of one `deepestRoot` array, and the answer for each path asked about so far (null: none). */
interface RootIndex {
  roots: ReadonlySet<string>;
  byPath: Map<string, string | null>;
}

const rootIndexes = new WeakMap<readonly string[], RootIndex>();

/**
 * The deepest of `roots` (absolute paths) that is `file` itself or one of its folders, or undefined: the answer of
 * `isInside` over every root, found by walking up from `file` (as many set lookups as `file` has folders, however
 * many roots there are; a project with hundreds of exposed packages asks this for every file), and remembered per
 * path, folders included (the files of one folder share their folder's answer; a file asked again, as every file is
 * by the linter and the resolver, costs one lookup). `roots` is remembered per array: pass a new array when the
 * roots change, never a mutated one.
 */
export function deepestRoot(roots: readonly string[], file: string): string | undefined {
  if (roots.length === 0) return undefined; // the resolver's dependency roots, before any bare import: asked per file
  let index = rootIndexes.get(roots);
  if (!index) {
    index = { roots: new Set(roots.map((r) => resolve(r))), byPath: new Map() };
    rootIndexes.set(roots, index);
  }
  return rootAt(index, file) ?? undefined;
}

/** `deepestRoot`'s answer for `path`, from its folder's (remembered). */
function rootAt(index: RootIndex, path: string): string | null {
  let found = index.byPath.get(path);
  if (found === undefined) {
    if (index.roots.has(path)) found = path;
    else {
      const parent = dirname(path);
      found = parent === path ? null : rootAt(index, parent);
    }
    index.byPath.set(path, found);
  }
  return found;
}

const NODE_MODULES_END = `${sep}node_modules`;
const NODE_MODULES_SEGMENT = `${NODE_MODULES_END}${sep}`;

/** True when `file` is inside one of `roots` and not in a `node_modules` folder below that root. */
export function isOwnFile(roots: readonly string[], file: string): boolean {
  const root = deepestRoot(roots, file);
  if (root === undefined) return false;
  // A `node_modules` segment after the root: inside the path, or as its last segment.
  return !file.includes(NODE_MODULES_SEGMENT, root.length) && !(file.endsWith(NODE_MODULES_END) && file.length - NODE_MODULES_END.length >= root.length);
}

/**
 * Wraps `base` so that a path inside one of `roots` (real paths), outside its `node_modules`, whose real path
 * leaves that root throws `EOUTSIDE` (with the real `target`): a symlink such as `hello/steps.js -> /etc/passwd` is never
 * followed. Dependencies (anything reached through `node_modules`, whatever the package manager's layout) stay
 * readable. The validator reads every file through this.
 */
export function confineFileSystem(base: FileSystem, roots: readonly string[]): FileSystem {
  const resolvedRoots = roots.map((r) => resolve(r)); // `/p/` is `/p`
  const withPrefixes = resolvedRoots.map((root) => ({ root, prefix: root.endsWith(sep) ? root : root + sep }));
  const verdicts = new Map<string, boolean>();
  const realDirs = new Map<string, string | null>();
  const kinds = new Map<string, ReadonlyMap<string, EntryKind>>();
  const listings = new Map<string, DirEntry[]>();
  /** A directory's entries, listed once (both for the symlink check and for callers). */
  const list = (dir: string): DirEntry[] => {
    let entries = listings.get(dir);
    if (!entries) {
      entries = base.readdir(dir);
      listings.set(dir, entries);
    }
    return entries;
  };
  /** Kinds of a directory's entries by name (memoized; empty when it cannot be listed). */
  const entriesOf = (dir: string): ReadonlyMap<string, EntryKind> => {
    let byName = kinds.get(dir);
    if (!byName) {
      try {
        byName = new Map(list(dir).map((e) => [e.name, e.kind]));
      } catch {
        byName = new Map();
      }
      kinds.set(dir, byName);
    }
    return byName;
  };
  /**
   * Real path of a directory inside a root (memoized; null when it cannot be resolved). A root is real; a folder
   * listed as a plain directory (not a symlink) in a real parent is real too, so `realpath` is asked only below a
   * symlink. Called only for a root or a folder below one, so the walk up stops at the root.
   */
  const realDir = (dir: string): string | null => {
    let real = realDirs.get(dir);
    if (real === undefined) {
      const parent = dirname(dir);
      if (resolvedRoots.includes(dir)) real = dir;
      else if (realDir(parent) === parent && entriesOf(parent).get(basename(dir)) === 'directory') real = dir;
      else {
        try {
          real = base.realpath(dir);
        } catch {
          real = null;
        }
      }
      realDirs.set(dir, real);
    }
    return real;
  };
  // Only symlinks can lead out: a path escapes when its folder's real path is outside the root, or when it is itself
  // a symlink whose target is. So realpath is asked once per folder and once per symlink, not once per file.
  const escapes = (p: string): boolean => {
    let verdict = verdicts.get(p);
    if (verdict !== undefined) return verdict;
    verdict = false;
    // A normalized absolute path (every path the walk and the resolver make) is split as a string; `resolve` would
    // normalize it again character by character (~10 ms over a 4,000-file validation).
    const split = splitPlainPath(p);
    const abs = split ? p : resolve(p);
    for (const { root, prefix } of withPrefixes) {
      if (abs !== root && !abs.startsWith(prefix)) continue;
      if (abs.includes(`${sep}node_modules`, root.length) && abs.slice(root.length).split(sep).includes('node_modules')) break;
      if (abs === root) break;
      const dir = split ? split.dir : dirname(abs);
      const real = realDir(dir);
      if (real !== null && !isInside(root, real)) verdict = true;
      else if (real !== null && entriesOf(dir).get(split ? split.name : basename(abs)) === 'symlink') {
        try {
          verdict = !isInside(root, base.realpath(abs));
        } catch {
          verdict = false;
        }
      }
      break;
    }
    verdicts.set(p, verdict);
    return verdict;
  };
  const realTarget = (p: string): string => {
    try {
      return base.realpath(p);
    } catch {
      return p;
    }
  };
  const guard =
    <T>(call: (p: string) => T) =>
    (p: string): T => {
      if (escapes(p)) throw Object.assign(new Error(`${p} leads outside the package; not read`), { code: 'EOUTSIDE', target: realTarget(p) });
      return call(p);
    };
  return {
    readFile: guard((p) => base.readFile(p)),
    stat: guard((p) => base.stat(p)),
    realpath: guard((p) => base.realpath(p)),
    readdir: guard((p) => list(splitPlainPath(p) ? p : resolve(p))),
  };
}
