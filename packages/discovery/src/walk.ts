/**
 * One walk of a directory tree through `FileSystem`, resolving symlinks to real paths and guarding against
 * symlink loops (reported as `fs/symlink-loop`, never thrown).
 */
import { join, sep } from 'node:path';
import type { Diagnostics } from './diagnostics.js';
import { errorCode, type FileSystem } from './fs.js';

/** What to walk. */
export interface WalkOptions {
  /** Directory names (or real paths) to skip. */
  skipDir(name: string, realPath: string): boolean;
  /** Which files to collect, by name. */
  wantFile(name: string): boolean;
}

/**
 * Lists the wanted files under `root` (real paths, sorted). Directories reached twice through symlinks are walked
 * once; a symlink back into one of its own ancestors is a `fs/symlink-loop` warning; symlinks to directories
 * outside `root` are not followed (a package's walk never leaves the package). Unreadable directories are
 * `fs/unreadable` errors. Never rejects.
 */
export async function walkFiles(fs: FileSystem, root: string, options: WalkOptions, diagnostics: Diagnostics): Promise<string[]> {
  const found: string[] = [];
  const visited = new Set<string>();

  async function visitDir(realDir: string, ancestors: ReadonlySet<string>): Promise<void> {
    visited.add(realDir);
    let entries;
    try {
      entries = await fs.readdir(realDir);
    } catch (error) {
      diagnostics.report('fs/unreadable', realDir, undefined, `Cannot read directory ${realDir} (${errorCode(error)}).`, 'Check its permissions, or remove it.');
      return;
    }
    const chain = new Set(ancestors).add(realDir);
    await Promise.all(
      entries.map(async (entry) => {
        const path = join(realDir, entry.name);
        if (entry.kind === 'directory') {
          if (!options.skipDir(entry.name, path) && !visited.has(path)) await visitDir(path, chain);
          return;
        }
        if (entry.kind === 'file') {
          if (options.wantFile(entry.name)) found.push(path);
          return;
        }
        if (entry.kind !== 'symlink') return;
        let real: string;
        let kind: string;
        try {
          real = await fs.realpath(path);
          kind = (await fs.stat(real)).kind;
        } catch (error) {
          const code = errorCode(error);
          if (code === 'ELOOP') {
            diagnostics.report('fs/symlink-loop', path, undefined, `Symlink ${path} cannot be resolved: it loops.`, 'Remove the symlink or point it at a real directory.');
          }
          return; // a dangling symlink is ignored
        }
        if (kind === 'file') {
          if (options.wantFile(entry.name)) found.push(real);
          return;
        }
        if (kind !== 'directory' || options.skipDir(entry.name, real) || !(real === realRoot || real.startsWith(rootPrefix))) return;
        if (chain.has(real)) {
          diagnostics.report('fs/symlink-loop', path, undefined, `Symlink ${path} points back to ${real}, a directory that contains it; it is not followed.`, 'Remove the symlink or point it outside its own ancestors.');
          return;
        }
        if (!visited.has(real)) await visitDir(real, chain);
      }),
    );
  }

  let realRoot: string;
  try {
    realRoot = await fs.realpath(root);
  } catch (error) {
    const code = errorCode(error);
    diagnostics.report(code === 'ELOOP' ? 'fs/symlink-loop' : 'fs/unreadable', root, undefined, `Cannot resolve directory ${root} (${code}).`, 'Check that the directory exists, is readable, and is not a looping symlink.');
    return [];
  }
  const rootPrefix = realRoot.endsWith(sep) ? realRoot : realRoot + sep;
  await visitDir(realRoot, new Set());
  return [...new Set(found)].sort();
}
