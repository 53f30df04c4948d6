/**
 * The one small file-system interface discovery reads through (STYLE "diagnostics are data": one interface,
 * so tests can use in-memory trees and so "never imports package code" is evident: nothing here can load a module).
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';

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
 * Read-only file access. Every method rejects with an `Error` carrying a Node-style `code`
 * (`ENOENT`, `ENOTDIR`, `ELOOP`, `EACCES`, ...) when the path cannot be read.
 */
export interface FileSystem {
  /** UTF-8 contents of a file. */
  readFile(path: string): Promise<string>;
  /** Kind and size of a path, following symlinks. */
  stat(path: string): Promise<FileStat>;
  /** Canonical absolute path with every symlink resolved. */
  realpath(path: string): Promise<string>;
  /** Entries of a directory, unsorted, symlinks reported as `symlink`. */
  readdir(path: string): Promise<DirEntry[]>;
}

/** Runs a synchronous call, settling a promise with its result or its error. */
function settle<T>(call: () => T): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/**
 * The Node implementation of `FileSystem`. It calls the synchronous `node:fs` functions behind the promise
 * interface: discovery reads thousands of small files, and a synchronous read is several times cheaper than
 * the open/fstat/read/close round trips of `fs/promises` through the thread pool (see bench/discovery).
 */
export const nodeFileSystem: FileSystem = {
  readFile: (path) => settle(() => readFileSync(path, 'utf8')),
  stat: (path) =>
    settle(() => {
      const s = statSync(path);
      return { kind: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size };
    }),
  realpath: (path) => settle(() => realpathSync.native(path)),
  readdir: (path) =>
    settle(() =>
      readdirSync(path, { withFileTypes: true }).map((e) => ({
        name: e.name,
        kind: e.isSymbolicLink() ? 'symlink' : e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other',
      })),
    ),
};

/** The Node-style error code of a rejection, or `EUNKNOWN`. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'EUNKNOWN';
}

/** Resolves to `undefined` instead of rejecting when `path` does not exist or is not what was asked. */
export async function statOrUndefined(fs: FileSystem, path: string): Promise<FileStat | undefined> {
  try {
    return await fs.stat(path);
  } catch {
    return undefined;
  }
}

/** True when `path` is an existing regular file (symlinks followed). */
export async function isFile(fs: FileSystem, path: string): Promise<boolean> {
  return (await statOrUndefined(fs, path))?.kind === 'file';
}

/**
 * Wraps a `FileSystem` so that `stat`, `realpath` and `readdir` of one path are asked once (results and
 * rejections are remembered). Used for the duration of one `discover()` run, which lists the same folders
 * from several places (the package walk, the activity listing, entry resolution).
 */
export function cachingFileSystem(fs: FileSystem): FileSystem {
  const stats = new Map<string, Promise<FileStat>>();
  const reals = new Map<string, Promise<string>>();
  const dirs = new Map<string, Promise<DirEntry[]>>();
  const memo = <T>(cache: Map<string, Promise<T>>, path: string, call: () => Promise<T>): Promise<T> => {
    let found = cache.get(path);
    if (!found) {
      found = call();
      cache.set(path, found);
    }
    return found;
  };
  return {
    readFile: (path) => fs.readFile(path),
    stat: (path) => memo(stats, path, () => fs.stat(path)),
    realpath: (path) => memo(reals, path, () => fs.realpath(path)),
    readdir: (path) => memo(dirs, path, () => fs.readdir(path)),
  };
}
