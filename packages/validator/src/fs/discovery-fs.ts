/**
 * The file system handed to `discover()`: discovery's own Node implementation, except that a path inside a
 * validated package (outside its `node_modules`) whose real path leaves that package reads as missing. So a
 * symlink such as `hello/steps.js -> /etc/passwd` is never followed by discovery either; dependencies
 * (anything reached through `node_modules`, whatever the package manager's layout) stay readable.
 */
import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem, type FileSystem } from '@skein/discovery';
import { isInside } from './confined-fs.js';

function outsideError(p: string): Error {
  return Object.assign(new Error(`${p} leads outside the package; not read`), { code: 'ENOENT' });
}

/**
 * Wraps `base` so paths below `roots` (real paths) cannot escape them through symlinks.
 * @param roots real paths of the packages being validated
 */
export function confineDiscoveryFs(roots: readonly string[], base: FileSystem = nodeFileSystem): FileSystem {
  const cache = new Map<string, boolean>();
  const escapes = (p: string): boolean => {
    const abs = path.resolve(p);
    let verdict = cache.get(abs);
    if (verdict !== undefined) return verdict;
    verdict = false;
    for (const root of roots) {
      if (!isInside(root, abs) || path.relative(root, abs).split(path.sep).includes('node_modules')) continue;
      try {
        verdict = statSync(abs, { throwIfNoEntry: false }) !== undefined && !isInside(root, realpathSync.native(abs));
      } catch {
        verdict = false;
      }
      break;
    }
    cache.set(abs, verdict);
    return verdict;
  };
  const guard =
    <T>(call: (p: string) => Promise<T>) =>
    (p: string): Promise<T> =>
      escapes(p) ? Promise.reject(outsideError(p)) : call(p);
  return {
    readFile: guard((p) => base.readFile(p)),
    stat: guard((p) => base.stat(p)),
    realpath: guard((p) => base.realpath(p)),
    readdir: guard((p) => base.readdir(p)),
  };
}
