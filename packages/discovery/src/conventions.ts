/**
 * File conventions (package rule 1), decided in exactly one place: here, in discovery; everything else asks
 * discovery. TypeScript and JavaScript alike.
 */
import type { FileRole } from './types.js';

/** Source extensions a convention file may have, in the order a folder's files are preferred. */
export const SOURCE_EXTENSIONS: readonly string[] = ['.ts', '.mts', '.js', '.mjs'];

/** File names that may sit in a `steps/` or `evaluators/` folder without being activity files (rule 5 `.d.ts`). */
const COMPANION_SUFFIXES = ['.d.ts', '.d.mts', '.d.ts.map', '.d.mts.map', '.js.map', '.mjs.map'];

/** Test files: `*.test.*`, `*.spec.*`, and anything under `__tests__/`. Never definitions. */
export function isTestFile(file: string): boolean {
  return (file.includes('__tests__') && /(^|[\\/])__tests__[\\/]/.test(file)) || /\.(test|spec)\.[^.\\/]+$/.test(file);
}

/** True for `.d.ts` / `.d.mts` / `.d.cts` declaration files. */
export function isDeclarationFile(file: string): boolean {
  return /\.d\.[mc]?ts$/.test(file);
}

/**
 * The name of a source file without its extension (`workflow.ts` → `workflow`), or undefined for anything that is
 * not a `.ts`/`.mts`/`.js`/`.mjs` source (declarations and test files included).
 */
export function sourceStem(name: string): string | undefined {
  let ext: string | undefined;
  for (const e of SOURCE_EXTENSIONS) {
    if (name.endsWith(e)) {
      ext = e;
      break;
    }
  }
  if (ext === undefined || name.length === ext.length || isDeclarationFile(name) || isTestFile(name)) return undefined;
  return name.slice(0, -ext.length);
}

/**
 * The role a path plays by convention, decided from the path (never touches the disk):
 * - `…/workflow.{ts,mts,js,mjs}` → `workflow`
 * - `…/shared/steps/<x>.{ts,…}` → `shared-steps`, `…/shared/evaluators/<x>` → `shared-evaluators`, at any depth
 *   (`src/shared/steps/tools.ts`), also in folders nested in them (`shared/steps/rates/euro.ts`)
 * - `…/steps/<x>` → `steps`, `…/evaluators/<x>` → `evaluators`
 * - `…/steps.{ts,…}` → `steps`, `…/evaluators.{ts,…}` → `evaluators`
 * - `<workflow folder>/steps/<folders>/<x>` → `steps` (`evaluators` likewise), once discovery has found folders
 *   nested in that workflow's `steps/` folder ({@link noteNestedActivityFolder}): whether a `steps` folder belongs
 *   to a workflow is not in its path, since any folder of the machine may be called so
 * - anything else (`.d.ts`, `*.test.ts`, `*.spec.js`, `__tests__/…`, `.cjs`) → null.
 * Accepts `/` or `\` separators.
 */
export function classifyFile(file: string): FileRole | null {
  let role = roles.get(file);
  if (role === undefined) {
    role = roleOf(file);
    if (roles.size >= ROLE_MEMORY) roles.clear();
    roles.set(file, role);
  }
  return role;
}

/**
 * The `steps/` and `evaluators/` folders of workflows in which discovery found nested folders, with the role of the
 * files below them ({@link noteNestedActivityFolder}). Process-wide, as the answers of `classifyFile` are: a folder
 * stays noted once found, as its direct files are `steps` files by their path alone.
 */
const nestedActivityFolders = new Map<string, 'steps' | 'evaluators'>();

/**
 * Notes that `dir`, the `steps/` or `evaluators/` folder of a workflow (the folder beside its workflow file), holds
 * folders: from now on `classifyFile` gives the files below them, at any depth, the folder's role (`steps` or
 * `evaluators`, from its name), as the system we re-implement loads every file below a workflow's activity folder.
 * Discovery calls it for each workflow it finds (`noteNestedActivityFolders`), before it reads any module.
 */
export function noteNestedActivityFolder(dir: string): void {
  const role = splitLast(dir)[1] === 'evaluators' ? 'evaluators' : 'steps';
  if (nestedActivityFolders.get(dir) === role) return;
  nestedActivityFolders.set(dir, role);
  roles.clear(); // answers given before the folder was known
}

/** The role of files below a noted nested activity folder that `folder` lies in (up to `MAX_NESTED_DEPTH` levels). */
function nestedActivityRole(folder: string): FileRole | null {
  let dir = folder;
  for (let level = 0; level <= MAX_NESTED_DEPTH && dir; level++) {
    const role = nestedActivityFolders.get(dir);
    if (role) return role;
    dir = splitLast(dir)[0];
  }
  return null;
}

/** How deep folders nested in a convention folder (shared, or a workflow's noted one) are walked and classified. */
export const MAX_NESTED_DEPTH = 8;

/**
 * Answers of `classifyFile` by path. A validation asks about each file ~7 times (the walk, discovery, the resolver,
 * the linter, rules): a lookup instead of working it out again saves ~10 ms per 4,000 files (bench/validate). The
 * function is pure, so the memory is process-wide, and bounded: it starts over past `ROLE_MEMORY` paths.
 */
const roles = new Map<string, FileRole | null>();
const ROLE_MEMORY = 100_000;

/** `classifyFile` worked out. */
function roleOf(file: string): FileRole | null {
  // Name, parent and grandparent cut from the path's tail, not a split of the whole path (the `__tests__` check,
  // which needs the whole path, runs only for a source file name, mostly as a substring search).
  const [folder, name] = splitLast(file);
  const stem = sourceStem(name);
  if (stem === undefined || (file.includes('__tests__') && isTestFile(file))) return null;
  if (stem === 'workflow') return 'workflow';
  const [above, parent] = splitLast(folder);
  if (parent === 'steps' || parent === 'evaluators') {
    const shared = splitLast(above)[1] === 'shared';
    if (parent === 'steps') return shared ? 'shared-steps' : 'steps';
    return shared ? 'shared-evaluators' : 'evaluators';
  }
  const nested = sharedFolderOf(file);
  if (nested !== undefined) return nested.endsWith('steps') ? 'shared-steps' : 'shared-evaluators';
  if (stem === 'steps') return 'steps';
  if (stem === 'evaluators') return 'evaluators';
  return nestedActivityFolders.size === 0 ? null : nestedActivityRole(folder);
}

/** The last `shared/steps` or `shared/evaluators` folder of a path whose file lies below it, and what is before it. */
const IN_SHARED = /^(.*[\\/]shared[\\/](?:steps|evaluators))[\\/].+$/;

/**
 * The shared activity folder (`…/shared/steps` or `…/shared/evaluators`, the nearest above) that a source file lies
 * in, directly or in folders nested in it (`src/shared/steps/rates/euro.ts` → `src/shared/steps`), as the system we
 * re-implement loads any file below such a folder; else undefined. Pure: decided from the path alone.
 */
export function sharedFolderOf(file: string): string | undefined {
  if (!file.includes('shared')) return undefined;
  return IN_SHARED.exec(file)?.[1];
}

/** `path` cut at its last `/` or `\\`: what is before it (`''` when there is none) and what is after it. */
function splitLast(path: string): [string, string] {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return [path.slice(0, Math.max(cut, 0)), path.slice(cut + 1)];
}

/** True for files that may accompany activity files in a convention folder without a warning (`.d.ts`, source maps). */
export function isCompanionFile(name: string): boolean {
  return COMPANION_SUFFIXES.some((s) => name.endsWith(s));
}

/** Folder names never walked when looking for convention files: `node_modules`, dot-folders and `__tests__`. */
export function isSkippedDirName(name: string): boolean {
  return name === 'node_modules' || name.startsWith('.') || name === '__tests__';
}
