/**
 * One walk of a directory tree through `FileSystem`, resolving symlinks to real paths and guarding against
 * symlink loops (reported as `fs/symlink-loop`, never thrown).
 */
import { sep } from 'node:path';
import type { Diagnostics } from './diagnostics.js';
import { errorCode, joinName, type FileSystem } from './fs.js';

/** What to walk. */
export interface WalkOptions {
  /** Directory names (or real paths) to skip. */
  skipDir(name: string, realPath: string): boolean;
  /** Which files to collect, by name and path (the path as reached, before symlinks are resolved). */
  wantFile(name: string, path: string): boolean;
  /** Called for a symlink whose target lies outside the walked root (it is never followed). */
  onOutside?(path: string, target: string): void;
}

/**
 * Lists the wanted files under `root` (real paths, sorted). Directories reached twice through symlinks are walked
 * once; a symlink back into one of its own ancestors is a `fs/symlink-loop` warning; symlinks to directories
 * outside `root` are not followed (a package's walk never leaves the package). Unreadable directories are
 * `fs/unreadable` errors. Never rejects.
 */
export function walkFiles(fs: FileSystem, root: string, options: WalkOptions, diagnostics: Diagnostics): string[] {
  const found: string[] = [];
  const visited = new Set<string>();
  /** The folders being walked, from the root down to the current one (one set, not a copy per folder). */
  const chain = new Set<string>();

  function visitDir(realDir: string): void {
    visited.add(realDir);
    let entries;
    try {
      entries = fs.readdir(realDir);
    } catch (error) {
      diagnostics.report('fs/unreadable', 'directory', realDir, undefined, { dir: realDir, code: errorCode(error) });
      return;
    }
    chain.add(realDir); // never there already: only unvisited folders are walked
    for (const entry of entries) {
      const path = joinName(realDir, entry.name); // `realDir` is a real (normalized) path: no `path.join` per entry
      if (entry.kind === 'directory') {
        if (!options.skipDir(entry.name, path) && !visited.has(path)) visitDir(path);
        continue;
      }
      if (entry.kind === 'file') {
        if (options.wantFile(entry.name, path)) found.push(path);
        continue;
      }
      if (entry.kind !== 'symlink') continue;
      let real: string;
      let kind: string;
      try {
        real = fs.realpath(path);
        kind = fs.stat(real).kind;
      } catch (error) {
        const code = errorCode(error);
        if (code === 'EOUTSIDE') {
          const target = (error as { target?: unknown }).target;
          options.onOutside?.(path, typeof target === 'string' ? target : path);
          continue;
        }
        if (code === 'ELOOP') {
          diagnostics.report('fs/symlink-loop', 'loops', path, undefined, { path });
        }
        continue; // a dangling symlink is ignored
      }
      if (kind === 'file') {
        if (!inRoot(real)) options.onOutside?.(path, real);
        else if (options.wantFile(entry.name, path)) found.push(real);
        continue;
      }
      if (kind !== 'directory' || options.skipDir(entry.name, real)) continue;
      if (!inRoot(real)) {
        options.onOutside?.(path, real);
        continue;
      }
      if (chain.has(real)) {
        diagnostics.report('fs/symlink-loop', 'ancestor', path, undefined, { path, target: real });
        continue;
      }
      if (!visited.has(real)) visitDir(real);
    }
    chain.delete(realDir);
  }

  let realRoot: string;
  try {
    realRoot = fs.realpath(root);
  } catch (error) {
    const code = errorCode(error);
    diagnostics.report(code === 'ELOOP' ? 'fs/symlink-loop' : 'fs/unreadable', 'walkRoot', root, undefined, { dir: root, code });
    return [];
  }
  const rootPrefix = realRoot.endsWith(sep) ? realRoot : realRoot + sep;
  const inRoot = (real: string): boolean => real === realRoot || real.startsWith(rootPrefix);
  visitDir(realRoot);
  return [...new Set(found)].sort();
}
