/**
 * Package entry points (package rules 2 and 12): package.json `exports` with the workflow-bundle conditions first,
 * then `import`, then `default`; subpath patterns; else `main`; else `index.js`.
 */
import { join } from 'node:path';
import { WORKFLOW_BUNDLE_CONDITIONS } from '@skein/core/names';
import { isFile, type FileSystem } from './fs.js';

/** Export conditions discovery honours, in order of preference. */
export const ENTRY_CONDITIONS: readonly string[] = [...WORKFLOW_BUNDLE_CONDITIONS, 'import', 'default'];

/** The package.json fields entry resolution reads. */
export interface PackageJsonLike {
  exports?: unknown;
  main?: unknown;
}

/** An entry resolved to a file, or why it could not be. */
export type EntryResolution = { ok: true; file: string } | { ok: false; reason: string };

function isConditionsObject(value: object): boolean {
  return Object.keys(value).every((k) => !k.startsWith('.'));
}

/** Picks a target from a conditions value: a string, an array of fallbacks, or a conditions object (by preference). */
function pickTarget(value: unknown, conditions: readonly string[], patternMatch: string | undefined): string | null {
  if (typeof value === 'string') {
    if (!value.startsWith('./')) return null;
    return patternMatch === undefined ? value : value.split('*').join(patternMatch);
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = pickTarget(item, conditions, patternMatch);
      if (target !== null) return target;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const condition of conditions) {
      if (condition in record) {
        const target = pickTarget(record[condition], conditions, patternMatch);
        if (target !== null) return target;
      }
    }
  }
  return null;
}

/** Node's PATTERN_KEY_COMPARE for two pattern keys (each with one `*`): longer prefix before `*` first, then longer key. */
function comparePatternKeys(a: string, b: string): number {
  return b.indexOf('*') - a.indexOf('*') || b.length - a.length;
}

/**
 * Resolves `subpath` (`.` or `./x`) against a package.json `exports` value with the given conditions
 * (preference order, not object order), including subpath patterns (`./*`). Pure.
 * @returns the package-relative target (`./dist/index.js`), or null when nothing matches.
 */
export function resolveExportsTarget(exportsField: unknown, subpath: string, conditions: readonly string[] = ENTRY_CONDITIONS): string | null {
  if (exportsField === null || exportsField === undefined) return null;
  const map: Record<string, unknown> =
    typeof exportsField === 'string' || Array.isArray(exportsField) || (typeof exportsField === 'object' && isConditionsObject(exportsField))
      ? { '.': exportsField }
      : (exportsField as Record<string, unknown>);
  if (Object.hasOwn(map, subpath) && !subpath.includes('*')) return pickTarget(map[subpath], conditions, undefined);
  const patterns = Object.keys(map)
    .filter((k) => k.split('*').length === 2)
    .sort(comparePatternKeys);
  for (const key of patterns) {
    const [prefix, suffix] = key.split('*') as [string, string];
    if (subpath.length >= key.length && subpath.startsWith(prefix) && subpath.endsWith(suffix)) {
      const match = subpath.slice(prefix.length, subpath.length - suffix.length);
      return pickTarget(map[key], conditions, match);
    }
  }
  return null;
}

/**
 * Resolves a package's entry for `subpath` (default `.`) to an existing file: `exports` when present
 * (then `main` is ignored, as in Node), else for `.` `main` (tried as is, with `.js`, and as a folder's
 * `index.js`), else `index.js`. Reads only `fs.stat`.
 */
export function resolveEntry(fs: FileSystem, packageRoot: string, pkg: PackageJsonLike, subpath = '.'): EntryResolution {
  if (pkg.exports !== undefined && pkg.exports !== null) {
    const target = resolveExportsTarget(pkg.exports, subpath);
    if (target === null) {
      return { ok: false, reason: `"exports" has no "${subpath}" target for the conditions ${ENTRY_CONDITIONS.join(', ')}` };
    }
    const file = join(packageRoot, target);
    return (isFile(fs, file)) ? { ok: true, file } : { ok: false, reason: `"exports" points at ${target}, which does not exist` };
  }
  if (subpath !== '.') {
    const file = join(packageRoot, subpath);
    return (isFile(fs, file)) ? { ok: true, file } : { ok: false, reason: `${subpath} does not exist` };
  }
  const main = typeof pkg.main === 'string' && pkg.main !== '' ? pkg.main : undefined;
  const candidates = main ? [main, `${main}.js`, join(main, 'index.js')] : ['index.js'];
  for (const candidate of candidates) {
    const file = join(packageRoot, candidate);
    if (isFile(fs, file)) return { ok: true, file };
  }
  return { ok: false, reason: main ? `"main" points at ${main}, which does not exist` : 'neither "exports" nor "main" is set and index.js does not exist' };
}
