/**
 * Which file a relative import names, as TypeScript and Node resolve it (ISSUE 9 point 2): the path as written;
 * an import written with `.js` / `.mjs` / `.jsx` from a TypeScript file resolves to the `.ts` / `.mts` / `.tsx`
 * beside it first (the `node16`/`nodenext`/`bundler` convention), from a JavaScript file only when the `.js` is
 * absent (a project whose `.js` output is gone); an extensionless path tries each source extension, then the
 * folder's `index` file. Reads only `stat`.
 */
import { dirname, join, resolve } from 'node:path';
import { isTypeScriptFile } from './parse.js';
import { statOrUndefined, type FileSystem } from './fs.js';

/** Extensions tried, in order, for an extensionless import and for a folder's `index`. */
const EXTENSIONS = ['.ts', '.mts', '.tsx', '.js', '.mjs', '.jsx', '.cjs', '.cts', '.json'];
const TS_TWIN: Record<string, string> = { '.js': '.ts', '.mjs': '.mts', '.jsx': '.tsx', '.cjs': '.cts' };

function isFile(fs: FileSystem, path: string): boolean {
  return statOrUndefined(fs, path)?.kind === 'file';
}

/** The TypeScript twin of a `.js`-style path (`a.js` → `a.ts`), or undefined. */
function twinOf(path: string): string | undefined {
  const ext = Object.keys(TS_TWIN).find((e) => path.endsWith(e));
  return ext ? path.slice(0, -ext.length) + TS_TWIN[ext] : undefined;
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
  const target = resolve(dirname(fromFile), specifier);
  return resolveModuleFile(fs, target, isTypeScriptFile(fromFile)) ?? target;
}
