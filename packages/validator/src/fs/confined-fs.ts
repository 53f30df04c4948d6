/**
 * The only way the validator touches the disk: a read-only file system confined to allowed roots (the
 * validated package and the dependencies it resolves). It never imports, requires or executes anything.
 * Symlinks are resolved and a real path outside every allowed root is refused, so a malicious package
 * cannot make the validator read `/etc/passwd` through `greet/steps.js -> /etc/passwd`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Why a read was refused. */
export type ReadFailure = 'missing' | 'not-a-file' | 'too-large' | 'outside' | 'unreadable';

/** A file's text, or why it was not read. */
export type ReadResult = { ok: true; text: string } | { ok: false; reason: ReadFailure; size?: number; realPath?: string };

/** A file found while walking a package, or a symlink that was refused because it leads outside. */
export interface WalkResult {
  /** Absolute (lexical) paths of regular files, sorted. */
  files: string[];
  /** Absolute paths of symlinks whose target is outside the allowed roots, with that target. */
  escapes: { path: string; target: string }[];
}

/** Read-only file access for the validator (STYLE: one small interface; trivial to fake in tests). */
export interface ValidatorFs {
  /** Largest file `readText` reads, in bytes. */
  readonly maxFileBytes: number;
  realpath(p: string): string | null;
  isFile(p: string): boolean;
  /** Size and modification time of an allowed file (a cache key), or null. */
  fingerprint(p: string): string | null;
  isDirectory(p: string): boolean;
  /** True when `p`'s real path is inside an allowed root. */
  isAllowed(p: string): boolean;
  /** Allows reading below `realRoot` (a resolved dependency). */
  allow(realRoot: string): void;
  readText(p: string): ReadResult;
  /**
   * Lists a package's files recursively, skipping `node_modules`, dot-directories and `skipDirNames`;
   * never follows a symlink out.
   */
  walk(root: string, skipDirNames?: ReadonlySet<string>): WalkResult;
}

/** True when `child` is `parent` or below it (both absolute and normalized, as `path.resolve` returns them). */
export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

/** Upper bound on the files one walk lists, so a pathological tree cannot exhaust memory. */
const MAX_WALK_FILES = 200_000;

/**
 * Node implementation of `ValidatorFs`.
 * @param roots directories reading is allowed below (resolved to real paths)
 * @param maxFileBytes larger files are refused with `too-large`
 */
export function createConfinedFs(roots: string[], maxFileBytes: number): ValidatorFs {
  const allowed: string[] = [];
  const realpathCache = new Map<string, string | null>();

  const realpath = (p: string): string | null => {
    let r = realpathCache.get(p);
    if (r === undefined) {
      try {
        r = fs.realpathSync.native(p);
      } catch {
        r = null;
      }
      realpathCache.set(p, r);
    }
    return r;
  };
  const allowedReal = (real: string) => allowed.some((root) => isInside(root, real));
  const allow = (root: string) => {
    const real = realpath(root);
    if (real && !allowed.includes(real)) allowed.push(real);
  };
  roots.forEach(allow);

  const statOf = (p: string): fs.Stats | null => {
    try {
      return fs.statSync(p, { throwIfNoEntry: false }) ?? null;
    } catch {
      return null;
    }
  };

  return {
    maxFileBytes,
    realpath,
    allow,
    isFile: (p) => statOf(p)?.isFile() ?? false,
    fingerprint(p) {
      const real = realpath(p);
      const st = real !== null && allowedReal(real) ? statOf(real) : null;
      return st?.isFile() ? `${st.size}:${st.mtimeMs}` : null;
    },
    isDirectory: (p) => statOf(p)?.isDirectory() ?? false,
    isAllowed(p) {
      const real = realpath(p);
      return real !== null && allowedReal(real);
    },
    readText(p) {
      const real = realpath(p);
      if (real === null) return { ok: false, reason: 'missing' };
      if (!allowedReal(real)) return { ok: false, reason: 'outside', realPath: real };
      const st = statOf(real);
      if (!st) return { ok: false, reason: 'missing' };
      if (!st.isFile()) return { ok: false, reason: 'not-a-file' };
      if (st.size > maxFileBytes) return { ok: false, reason: 'too-large', size: st.size };
      try {
        return { ok: true, text: fs.readFileSync(real, 'utf8') };
      } catch {
        return { ok: false, reason: 'unreadable' };
      }
    },
    walk(root, skipDirNames) {
      const files: string[] = [];
      const escapes: WalkResult['escapes'] = [];
      const seenDirs = new Set<string>();
      const visit = (dir: string) => {
        const realDir = realpath(dir);
        if (realDir === null || seenDirs.has(realDir)) return;
        seenDirs.add(realDir);
        let entries: fs.Dirent[];
        try {
          entries = fs.readdirSync(dir, { withFileTypes: true });
        } catch {
          return;
        }
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const entry of entries) {
          if (files.length >= MAX_WALK_FILES) return;
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) {
            if (entry.name === 'node_modules' || entry.name.startsWith('.') || skipDirNames?.has(entry.name)) continue;
            visit(full);
          } else if (entry.isFile()) {
            files.push(full);
          } else if (entry.isSymbolicLink()) {
            if (entry.name === 'node_modules') continue;
            const target = realpath(full);
            if (target === null) continue;
            if (!allowedReal(target)) {
              escapes.push({ path: full, target });
              continue;
            }
            const st = statOf(target);
            if (st?.isDirectory()) visit(full);
            else if (st?.isFile()) files.push(full);
          }
        }
      };
      visit(root);
      return { files, escapes };
    },
  };
}
