/**
 * Which file a relative import names, as TypeScript and Node resolve it: the path as written;
 * an import written with `.js` / `.mjs` / `.jsx` from a TypeScript file resolves to the `.ts` / `.mts` / `.tsx`
 * beside it first (the `node16`/`nodenext`/`bundler` convention), from a JavaScript file only when the `.js` is
 * absent (a project whose `.js` output is gone); an extensionless path tries each source extension, then the
 * folder's `index` file. Reads only `stat`.
 */
import { dirname, join, resolve, sep } from 'node:path';
import { isTypeScriptFile } from './parse.js';
import { statOrUndefined, type FileSystem } from './fs.js';

/** True for `./x` and `../x` specifiers. */
export function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

/** Extensions tried, in order, for an extensionless import and for a folder's `index`. */
const EXTENSIONS = ['.ts', '.mts', '.tsx', '.js', '.mjs', '.jsx', '.cjs', '.cts', '.json'];
const TS_TWIN: Record<string, string> = { '.js': '.ts', '.mjs': '.mts', '.jsx': '.tsx', '.cjs': '.cts' };

function isFile(fs: FileSystem, path: string): boolean {
  return statOrUndefined(fs, path)?.kind === 'file';
}

const TWINNED = Object.keys(TS_TWIN);

/** The TypeScript twin of a `.js`-style path (`a.js` → `a.ts`), or undefined. */
export function twinOf(path: string): string | undefined {
  for (const ext of TWINNED) if (path.endsWith(ext)) return path.slice(0, -ext.length) + TS_TWIN[ext];
  return undefined;
}

/** `./a/b.js`: a relative specifier of plain segments only (no `.`, `..` or empty segment, no trailing `/`). */
const PLAIN_RELATIVE = /^\.\/(?:[^/.][^/]*\/)*[^/.][^/]*$/;
/** A normalized absolute POSIX folder (no empty, `.` or `..` segment, no trailing `/` unless it is the root). */
const PLAIN_FOLDER = /^\/(?:(?:[^/]+\/)*[^/]+)?$/;
const DOT_SEGMENT = /\/\.{1,2}(?:\/|$)/;

/**
 * `path.resolve(dir, specifier)` for an absolute `dir`: on POSIX, `./x.js` from a normalized folder is joined as
 * strings (most imports; `resolve` normalizes the whole path again, character by character), anything else goes
 * through `resolve`.
 */
export function resolveSpecifier(dir: string, specifier: string): string {
  if (sep === '/' && PLAIN_RELATIVE.test(specifier) && PLAIN_FOLDER.test(dir) && !DOT_SEGMENT.test(dir)) {
    return dir === '/' ? specifier.slice(1) : dir + specifier.slice(1);
  }
  return resolve(dir, specifier);
}

/**
 * The existing file a path (already made absolute) names, or undefined. `fromTypeScript` decides whether a `.js`
 * path prefers its `.ts` twin.
 */
export function resolveModuleFile(fs: FileSystem, target: string, fromTypeScript: boolean): string | undefined {
  const twin = twinOf(target);
  if (twin && fromTypeScript && isFile(fs, twin)) return twin;
  if (isFile(fs, target)) return target;
  if (twin && isFile(fs, twin)) return twin;
  for (const ext of EXTENSIONS) if (isFile(fs, target + ext)) return target + ext;
  // A folder's index file (only a folder can hold one, so no separate directory check).
  for (const ext of EXTENSIONS) if (isFile(fs, join(target, `index${ext}`))) return join(target, `index${ext}`);
  return undefined;
}

/**
 * The file a relative specifier written in `fromFile` names: the existing file (see the module docs), or the plain
 * resolved path when nothing exists (so callers can report it as unresolved).
 */
export function resolveRelativeImport(fs: FileSystem, fromFile: string, specifier: string): string {
  const target = resolveSpecifier(dirname(fromFile), specifier);
  return resolveModuleFile(fs, target, isTypeScriptFile(fromFile)) ?? target;
}
