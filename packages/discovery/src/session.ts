/**
 * One analysis session: the file system, the module store (each file read, parsed and walked once) and the one
 * diagnostics sink that `discover()` and the validator's rules share. The validator creates one and passes it to
 * `discover()`, then keeps loading files through the same store.
 */
import { Diagnostics } from './diagnostics.js';
import { cachingFileSystem, nodeFileSystem, type FileSystem } from './fs.js';
import { DEFAULT_MAX_FILE_BYTES, ModuleStore } from './store.js';

/** What one analysis run shares. */
export interface AnalysisSession {
  /** The file system every read goes through (a caching wrapper: `stat`/`realpath`/`readdir` asked once). */
  readonly fs: FileSystem;
  readonly store: ModuleStore;
  readonly diagnostics: Diagnostics;
  /**
   * Real paths of the roots whose files are the project's own: the project (or the package in package mode) and
   * every exposed package, set by `discover()` before it loads any module.
   */
  ownRoots: string[];
}

/**
 * Starts a session.
 * @param options `fs` (default `nodeFileSystem`), `maxFileBytes` (default 1 MiB; larger files are `fs/file-too-large`)
 */
export function createSession(options: { fs?: FileSystem; maxFileBytes?: number } = {}): AnalysisSession {
  const fs = cachingFileSystem(options.fs ?? nodeFileSystem);
  return { fs, store: new ModuleStore(fs, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES), diagnostics: new Diagnostics(), ownRoots: [] };
}
