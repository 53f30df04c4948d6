/**
 * One analysis session: the file system, the module store (each file read, parsed and walked once) and the one
 * diagnostics sink that `discover()` and the validator's rules share. The validator creates one and passes it to
 * `discover()`, then keeps loading files through the same store.
 */
import { Diagnostics } from './diagnostics.js';
import { cachingFileSystem, nodeFileSystem, type FileSystem } from './fs.js';
import { describePackage, type PackageFacts } from './package-facts.js';
import { readPackageJson } from './packages.js';
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
  /**
   * The facts of each package root analysed so far (the validated root and every exposed package), by real path:
   * package.json, entry, layout, file list. Filled by `discover()`, read by the validator through {@link packageFactsOf}.
   */
  readonly packages: Map<string, PackageFacts>;
}

/**
 * Starts a session.
 * @param options `fs` (default `nodeFileSystem`), `maxFileBytes` (default 1 MiB; larger files are `fs/file-too-large`)
 */
export function createSession(options: { fs?: FileSystem; maxFileBytes?: number } = {}): AnalysisSession {
  const fs = cachingFileSystem(options.fs ?? nodeFileSystem);
  return { fs, store: new ModuleStore(fs, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES), diagnostics: new Diagnostics(), ownRoots: [], packages: new Map() };
}

/**
 * The facts of the package at `root` (a real path): those the session holds, else worked out now and kept (the
 * first call for a root decides; `published` and `read` are used only then). `read` is its package.json as the
 * caller already read it, `null` when the caller found none (missing or malformed); when omitted it is read here,
 * without reporting (discovery reports a missing or malformed one).
 */
export function packageFactsOf(
  session: AnalysisSession,
  root: string,
  published: boolean | null,
  read?: { json: Record<string, unknown>; text: string } | null,
): PackageFacts {
  const known = session.packages.get(root);
  if (known) return known;
  let manifest = read;
  if (manifest === undefined) {
    const found = readPackageJson(session.fs, root);
    manifest = found.ok ? { json: found.json, text: found.text } : null;
  }
  const facts = describePackage(session.fs, session.diagnostics, root, manifest, published);
  session.packages.set(root, facts);
  return facts;
}
