/**
 * The one small file-system interface discovery reads through (STYLE "diagnostics are data": one interface,
 * so tests can use in-memory trees and so "never imports package code" is evident: nothing here can load a module).
 */
import { promises as nodeFs } from 'node:fs';

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

/** The Node implementation of `FileSystem` over `node:fs/promises`. */
export const nodeFileSystem: FileSystem = {
  readFile: (path) => nodeFs.readFile(path, 'utf8'),
  async stat(path) {
    const s = await nodeFs.stat(path);
    return { kind: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size };
  },
  realpath: (path) => nodeFs.realpath(path),
  async readdir(path) {
    const entries = await nodeFs.readdir(path, { withFileTypes: true });
    return entries.map((e) => ({
      name: e.name,
      kind: e.isSymbolicLink() ? 'symlink' : e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other',
    }));
  },
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
