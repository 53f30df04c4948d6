/**
 * The one answer to "which file is this package's entry" (package rules 2 and 12), for discovery, the validator's
 * resolver and the worker alike: package.json `exports` with the workflow-bundle conditions first wherever the object
 * lists them, then the first key, in the object's order, of the other conditions the workflow bundler resolves with
 * (`webpack`, `import`, `module`, `browser`, `default`), as the bundler and Node pick (subpath patterns included);
 * without `exports`, `module`, then `main`, then `index.js`. An `exports` target is taken as written or as its
 * TypeScript twin (Node adds no extension and reads no folder's index there); `module` and `main` are probed as an
 * import is (`resolveModuleFile`: also with an extension, a folder's index). So a workflow that
 * imports a package by name runs the file discovery registered: `{ "default": "./a.js", "import": "./b.js" }` is
 * `./a.js` for both.
 *
 * Why not the `resolve.exports` library (measured by bench/analysis-libraries/entry-exports.mjs over the 61 entry and
 * subpath queries of every package.json with `exports` under fixtures/ and examples/, and 7 subpath-pattern cases
 * that Node itself also answers): used as it is, it differs in 4 answers. It picks among conditions in the object's
 * key order, as Node does, while the analysis prefers the workflow-bundle conditions wherever they sit in the object
 * (fixtures/discovery/entry-points, `bundle-first`, lists `import` first: it answers `./node.js`, the analysis the
 * workflow-safe `./bundle.js`). Used for the subpath and pattern part only, with our condition preference applied
 * first, it still differs in 3, all pattern cases where Node agrees with the code here (7 of 7; `resolve.exports` 4
 * of 7): it orders pattern keys by length where Node orders them by the prefix before `*` (`./a/b/*` beats `./a/*.js`
 * for `./a/b/c.js`), turns a key into a regular expression unescaped (`./a.b/*` matches `./aXb/c`), and still follows
 * folder mappings ending in `/` that Node no longer supports. The code here is the smaller part and answers as Node
 * does, in a median 1.9 µs per query against its 3.6 µs (load average 16).
 */
import { join, relative, sep } from 'node:path';
import { BUNDLE_CONDITION_NAMES, WORKFLOW_BUNDLE_CONDITIONS } from '@skein/names';
import { isInside, statOrUndefined, type FileSystem } from './fs.js';
import { resolveModuleFile, twinOf } from './module-path.js';

/**
 * Export conditions discovery honours: the workflow-bundle ones in order of preference (wherever a conditions object
 * lists them), then the workflow bundler's others, taken in the object's key order.
 */
export const ENTRY_CONDITIONS: readonly string[] = BUNDLE_CONDITION_NAMES;

const PREFERRED: ReadonlySet<string> = new Set(WORKFLOW_BUNDLE_CONDITIONS);

/** The package.json fields entry resolution reads. */
export interface PackageJsonLike {
  exports?: unknown;
  module?: unknown;
  main?: unknown;
}

/**
 * An entry resolved to a file, or why it could not be; `outside` is set when the target named a path that leaves the
 * package root (never followed).
 */
export type EntryResolution =
  | { ok: true; file: string }
  | {
      ok: false;
      reason: string;
      /** The path a target named outside the package root. */
      outside?: string;
      /** The package's top folder a missing target lies in, itself missing (`dist`): most often, a package not built yet. */
      unbuilt?: string;
    };

function isConditionsObject(value: object): boolean {
  return Object.keys(value).every((k) => !k.startsWith('.'));
}

/**
 * Which string targets a subpath map accepts: `exports` package-relative ones (`./x`); `imports` also a package or a
 * built-in (`dep/x`, `node:fs`), never a path that starts elsewhere (`../x`, `/x`) or another `#` import; `any`
 * every string (to say what a refused target was).
 */
type TargetKind = 'exports' | 'imports' | 'any';

const accepts = (value: string, kind: TargetKind): boolean =>
  value.startsWith('./') || (kind === 'imports' && value !== '' && !/^[./#]/.test(value)) || (kind === 'any' && value !== '');

/**
 * Picks a target from a conditions value: a string, an array of fallbacks, or a conditions object: by the object's
 * own key order among `conditions` (as Node and the workflow bundler pick), except that for `exports` the
 * workflow-bundle conditions come first, in their order of preference, wherever the object lists them (the analysis
 * prefers a workflow-safe entry).
 */
function pickTarget(value: unknown, conditions: readonly string[], patternMatch: string | undefined, kind: TargetKind): string | null {
  if (typeof value === 'string') {
    if (!accepts(value, kind)) return null;
    return patternMatch === undefined ? value : value.split('*').join(patternMatch);
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = pickTarget(item, conditions, patternMatch, kind);
      if (target !== null) return target;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const inKeyOrder = Object.keys(record).filter((key) => conditions.includes(key));
    const order =
      kind === 'imports' ? inKeyOrder : [...conditions.filter((c) => PREFERRED.has(c) && c in record), ...inKeyOrder.filter((key) => !PREFERRED.has(key))];
    for (const condition of order) {
      const target = pickTarget(record[condition], conditions, patternMatch, kind);
      if (target !== null) return target;
    }
  }
  return null;
}

/** Node's PATTERN_KEY_COMPARE for two pattern keys (each with one `*`): longer prefix before `*` first, then longer key. */
function comparePatternKeys(a: string, b: string): number {
  return b.indexOf('*') - a.indexOf('*') || b.length - a.length;
}

/**
 * Resolves `subpath` (`.` or `./x`) against a package.json `exports` value with the given conditions (the
 * workflow-bundle ones first, the others in the object's key order), including subpath patterns (`./*`). Pure.
 * @returns the package-relative target (`./dist/index.js`), or null when nothing matches.
 */
export function resolveExportsTarget(exportsField: unknown, subpath: string, conditions: readonly string[] = ENTRY_CONDITIONS): string | null {
  return exportsTarget(exportsField, subpath, conditions, 'exports');
}

function exportsTarget(exportsField: unknown, subpath: string, conditions: readonly string[], kind: TargetKind): string | null {
  if (exportsField === null || exportsField === undefined) return null;
  const map: Record<string, unknown> =
    typeof exportsField === 'string' || Array.isArray(exportsField) || (typeof exportsField === 'object' && isConditionsObject(exportsField))
      ? { '.': exportsField }
      : (exportsField as Record<string, unknown>);
  return matchSubpath(map, subpath, conditions, kind);
}

/** The target of `key` in a subpath map (`exports` by subpath, `imports` by `#` name): its own entry, else the pattern Node would pick. */
function matchSubpath(map: Record<string, unknown>, key: string, conditions: readonly string[], kind: TargetKind): string | null {
  if (Object.hasOwn(map, key) && !key.includes('*')) return pickTarget(map[key], conditions, undefined, kind);
  const patterns = Object.keys(map)
    .filter((k) => k.split('*').length === 2)
    .sort(comparePatternKeys);
  for (const pattern of patterns) {
    const [prefix, suffix] = pattern.split('*') as [string, string];
    if (key.length >= pattern.length && key.startsWith(prefix) && key.endsWith(suffix)) {
      return pickTarget(map[pattern], conditions, key.slice(prefix.length, key.length - suffix.length), kind);
    }
  }
  return null;
}

/**
 * Resolves a subpath import (`#lib/clock.js`) against a package.json `imports` value, as the workflow bundler does:
 * its conditions (`BUNDLE_CONDITION_NAMES` of @skein/names) in the object's key order, the patterns and fallbacks of
 * `exports` (Node's package imports). Pure.
 * @returns the target: package-relative (`./lib/clock.js`), or a package or built-in specifier (`dep/x`,
 * `node:fs`); null when nothing matches (or `specifier` does not start with `#`).
 */
export function resolveImportsTarget(importsField: unknown, specifier: string, conditions: readonly string[] = BUNDLE_CONDITION_NAMES): string | null {
  if (!specifier.startsWith('#') || specifier === '#' || specifier.startsWith('#/')) return null;
  if (importsField === null || typeof importsField !== 'object' || Array.isArray(importsField)) return null;
  return matchSubpath(importsField as Record<string, unknown>, specifier, conditions, 'imports');
}

/**
 * The file `target` (package-relative) names inside `packageRoot`, or why not: outside the package, a folder, or
 * missing (with the package's missing top folder it lies in, when that is why: `unbuilt`).
 */
function probe(fs: FileSystem, packageRoot: string, target: string, field: string): EntryResolution {
  const full = join(packageRoot, target);
  if (!isInside(packageRoot, full)) return { ok: false, reason: `${field} points at ${target}, outside the package`, outside: full };
  const file = resolveModuleFile(fs, full, false);
  // An `exports` target is used as written (Node and the bundler add no extension and look for no folder's index);
  // only its TypeScript twin is taken beside it, as for every `.js` path of a project run from its sources.
  const exact = file === undefined || field !== '"exports"' || file === full || file === twinOf(full);
  if (file !== undefined && exact) return { ok: true, file };
  const named = file === undefined ? '' : `./${relative(packageRoot, file).split(sep).join('/')}`;
  if (statOrUndefined(fs, full)?.kind === 'directory') {
    return {
      ok: false,
      reason: `${field} points at ${target}, a folder: a target names a file${named ? ` (Node does not look for its index: name ${named})` : ''}`,
    };
  }
  if (named)
    return { ok: false, reason: `${field} points at ${target}, which does not exist (a target is used as written, with no extension added: name ${named})` };
  const top = relative(packageRoot, full).split(/[\\/]/)[0];
  const unbuilt = top !== undefined && top !== relative(packageRoot, full) && statOrUndefined(fs, join(packageRoot, top)) === undefined ? top : undefined;
  return {
    ok: false,
    reason: `${field} points at ${target}, which does not exist${unbuilt ? ` (nor does ${unbuilt}/)` : ''}`,
    ...(unbuilt ? { unbuilt } : {}),
  };
}

/**
 * Resolves a package's entry for `subpath` (default `.`) to an existing file: `exports` when present (then `module`
 * and `main` are ignored, as in Node), else for `.` `module`, then `main`, then `index.js`; another subpath without
 * `exports` is a path inside the package. Reads only `fs.stat`. Never throws.
 */
export function resolveEntry(fs: FileSystem, packageRoot: string, pkg: PackageJsonLike, subpath = '.'): EntryResolution {
  if (pkg.exports !== undefined && pkg.exports !== null) {
    const target = resolveExportsTarget(pkg.exports, subpath);
    if (target === null) {
      const refused = exportsTarget(pkg.exports, subpath, ENTRY_CONDITIONS, 'any');
      return {
        ok: false,
        reason:
          refused !== null
            ? `"exports" maps "${subpath}" to ${refused}, which does not start with "./" (a target is a path inside the package, written ./…)`
            : `"exports" has no "${subpath}" target for the conditions ${ENTRY_CONDITIONS.join(', ')}`,
      };
    }
    return probe(fs, packageRoot, target, '"exports"');
  }
  if (subpath !== '.') {
    const found = probe(fs, packageRoot, subpath, 'the subpath');
    return found.ok || found.outside ? found : { ok: false, reason: `${subpath} does not exist` };
  }
  for (const field of ['module', 'main'] as const) {
    const value = pkg[field];
    if (typeof value !== 'string' || value === '') continue;
    const found = probe(fs, packageRoot, value, `"${field}"`);
    if (found.ok || field === 'main') return found;
  }
  const index = resolveModuleFile(fs, join(packageRoot, 'index.js'), false);
  return index === undefined ? { ok: false, reason: 'neither "exports" nor "main" is set and index.js does not exist' } : { ok: true, file: index };
}
