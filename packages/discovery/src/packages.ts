/**
 * Which installed packages exist and which expose workflows (package rule 4): every package reachable from the
 * project's `node_modules`, then each ancestor's (hoisted installs), scoped packages included, de-duplicated by
 * real path (workspace symlinks) and by name (the nearest install wins, as in Node's resolution).
 * Nested installs (`node_modules/a/node_modules/b`) are not searched: a workflow package is served by the
 * project only when it is resolvable from the project itself.
 */
import { basename, dirname, join, resolve, sep } from 'node:path';
import { PACKAGE_JSON_KEY } from '@skein/names';
import { Diagnostics } from './diagnostics.js';
import { jsonErrorPosition, keyPosition } from './json-position.js';
import { errorCode, type FileSystem } from './fs.js';
import type { PackageRef } from './types.js';

/** How a package.json sets the expose flag. Only `exposed` (the boolean `true`) is discovered. */
export type ExposeState = 'exposed' | 'absent' | 'invalid';

/** An installed package whose package.json was read. */
export interface InstalledPackage extends PackageRef {
  /** Absolute path of its package.json (under the real root). */
  manifest: string;
  json: Record<string, unknown>;
  /** The package.json text (for positions). */
  text: string;
  expose: ExposeState;
}

/** Outcome of reading one package.json. */
export type ManifestRead = { ok: true; json: Record<string, unknown>; text: string } | { ok: false };

/**
 * Outcome of reading `<dir>/package.json` without reporting: the parsed object and its text, or what went wrong
 * (`missing`: no such file, or one outside the confined roots; `unreadable`: any other read error, with its `code`;
 * `syntax`: not JSON, or not a JSON object, with the parser's `message`).
 */
export type PackageJsonRead =
  | { ok: true; file: string; json: Record<string, unknown>; text: string }
  | { ok: false; file: string; problem: 'missing' | 'unreadable'; code: string }
  | { ok: false; file: string; problem: 'syntax'; text: string; message: string };

/**
 * The one package.json reader of the analysis (discovery, the validator's resolver, the worker's hook files):
 * reads and parses `<dir>/package.json` through `fs`. Never throws.
 */
export function readPackageJson(fs: FileSystem, dir: string): PackageJsonRead {
  const file = join(dir, 'package.json');
  let text: string;
  try {
    text = fs.readFile(file);
  } catch (error) {
    const code = errorCode(error);
    return { ok: false, file, problem: code === 'ENOENT' || code === 'EOUTSIDE' ? 'missing' : 'unreadable', code };
  }
  try {
    const json: unknown = JSON.parse(text);
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new SyntaxError('the top-level value is not an object');
    return { ok: true, file, json: json as Record<string, unknown>, text };
  } catch (error) {
    return { ok: false, file, problem: 'syntax', text, message: (error as Error).message };
  }
}

/**
 * Reads and parses `<dir>/package.json` (`readPackageJson`), reporting `package/missing-manifest` or, for a file
 * that cannot be read or parsed, `package/invalid-json` (an installed package: skipped), or with `root` (the
 * validated directory's own) `package/invalid-root-json`, with the position of the JSON error. Never throws.
 */
export function readManifest(fs: FileSystem, dir: string, diagnostics: Diagnostics, root = false): ManifestRead {
  const read = readPackageJson(fs, dir);
  if (read.ok) return { ok: true, json: read.json, text: read.text };
  const { file } = read;
  const invalid = root ? 'package/invalid-root-json' : 'package/invalid-json';
  if (read.problem === 'syntax') diagnostics.report(invalid, 'syntax', file, jsonErrorPosition(read.text, read.message), { file, reason: read.message });
  else if (read.problem === 'missing') diagnostics.report('package/missing-manifest', 'missing', file, undefined, { dir });
  else diagnostics.report(invalid, 'unreadable', file, undefined, { file, code: read.code });
  return { ok: false };
}

/** The expose state of a package.json (package rule 4: strictly the boolean `true`). */
export function exposeState(json: Record<string, unknown>): ExposeState {
  const expose = (json[PACKAGE_JSON_KEY] as { workflows?: { expose?: unknown } | null } | null | undefined)?.workflows?.expose;
  if (expose === true) return 'exposed';
  return expose === undefined ? 'absent' : 'invalid';
}

/** The `node_modules` folders searched, nearest first: the project's, then each ancestor's up to `ceiling`. */
export function nodeModulesChain(projectRoot: string, ceiling?: string): string[] {
  const dirs: string[] = [];
  const stop = ceiling ? resolve(ceiling) : undefined;
  for (let dir = resolve(projectRoot); ; dir = dirname(dir)) {
    dirs.push(join(dir, 'node_modules'));
    if (dir === stop || dirname(dir) === dir) break;
  }
  return dirs;
}

/**
 * Lists installed packages (exposed or not), nearest `node_modules` first, each directory's entries sorted.
 * `excludeRoots` are real paths never listed (the project itself). Reports unreadable manifests,
 * `package/invalid-expose-flag` for a flag that is not the boolean `true`, and symlink loops. Never rejects.
 */
export function listInstalledPackages(
  fs: FileSystem,
  projectRoot: string,
  ceiling: string | undefined,
  excludeRoots: ReadonlySet<string>,
  diagnostics: Diagnostics,
): InstalledPackage[] {
  const chain = nodeModulesChain(projectRoot, ceiling);
  const perFolder = chain.map((nm) => candidateDirs(fs, nm));
  const candidates = perFolder.flat();
  const read = candidates.map((dir) => readPackage(fs, dir, diagnostics));
  const byReal = new Set<string>(excludeRoots);
  const byName = new Set<string>();
  const out: InstalledPackage[] = [];
  for (const pkg of read) {
    if (!pkg || byReal.has(pkg.root) || byName.has(pkg.name)) continue;
    byReal.add(pkg.root);
    byName.add(pkg.name);
    out.push(pkg);
  }
  return out;
}

/**
 * The installed package a bare import of `name` from `projectRoot` reaches: the nearest `node_modules/<name>` of the
 * chain (see `nodeModulesChain`) whose package.json names it, never one of `excludeRoots` (real paths). Reads only
 * that package's manifest, so package mode, where installed packages only answer the import checks of workflow
 * code, never lists (or holds) every package of `node_modules`. Problems of the package are not reported.
 */
export function findInstalledPackage(
  fs: FileSystem,
  projectRoot: string,
  ceiling: string | undefined,
  excludeRoots: ReadonlySet<string>,
  name: string,
): InstalledPackage | undefined {
  for (const nodeModules of nodeModulesChain(projectRoot, ceiling)) {
    const pkg = readPackage(fs, join(nodeModules, name), new Diagnostics());
    if (pkg && pkg.name === name && !excludeRoots.has(pkg.root)) return pkg;
  }
  return undefined;
}

/**
 * The install of `name` that a bare import written in `file`, a file of an installed package, reaches before the
 * project's own `node_modules`: the nearest `node_modules/<name>` in the folders between the file and the
 * `node_modules` folder its package sits in (npm nests a dependency there when another version is hoisted, pnpm
 * keeps every dependency there). Undefined for a file that lies in no `node_modules`, or when nothing nearer is
 * installed: then the import reaches what the project's lookup (`findInstalledPackage`, the listing) finds.
 * Problems of the package are not reported.
 */
export function findNestedInstall(fs: FileSystem, file: string, name: string): InstalledPackage | undefined {
  const outermost = file.indexOf(`${sep}node_modules${sep}`);
  if (outermost < 0) return undefined;
  const floor = file.slice(0, outermost + `${sep}node_modules`.length);
  for (let dir = dirname(file); dir.length > floor.length; dir = dirname(dir)) {
    if (basename(dir) === 'node_modules') continue;
    const pkg = readPackage(fs, join(dir, 'node_modules', name), new Diagnostics());
    if (pkg && pkg.name === name) return pkg;
  }
  return undefined;
}

function listDir(fs: FileSystem, dir: string): string[] {
  try {
    return fs
      .readdir(dir)
      .filter((e) => (e.kind === 'directory' || e.kind === 'symlink') && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort(); // readdir order varies by file system; of two folders holding one package (or one name), the first wins
  } catch {
    return [];
  }
}

function candidateDirs(fs: FileSystem, nodeModules: string): string[] {
  const names = listDir(fs, nodeModules);
  return names.flatMap((name) => {
    const dir = join(nodeModules, name);
    return name.startsWith('@') ? listDir(fs, dir).map((n) => join(dir, n)) : [dir];
  });
}

function readPackage(fs: FileSystem, dir: string, diagnostics: Diagnostics): InstalledPackage | undefined {
  let root: string;
  try {
    root = fs.realpath(dir);
    if (fs.stat(root).kind !== 'directory') return undefined;
  } catch (error) {
    if (errorCode(error) === 'ELOOP') {
      diagnostics.report('fs/symlink-loop', 'packageLoops', dir, undefined, { path: dir });
    }
    return undefined;
  }
  const manifest = readManifest(fs, root, diagnostics);
  if (!manifest.ok) return undefined;
  const { json, text } = manifest;
  const pkg = toInstalledPackage(root, json, text, dir.split(/[\\/]node_modules[\\/]/).pop());
  const { name, expose, manifest: file } = pkg;
  if (expose === 'invalid') {
    const ns = json[PACKAGE_JSON_KEY] as { workflows?: { expose?: unknown } } | undefined;
    diagnostics.report('package/invalid-expose-flag', 'invalid', file, keyPosition(text, 'expose'), {
      name,
      value: JSON.stringify(ns?.workflows?.expose) ?? 'a non-boolean value',
    });
  }
  const misspelt = expose === 'absent' ? misspeltFlag(json) : undefined;
  if (misspelt) diagnostics.report('package/invalid-expose-flag', 'misspelt', file, keyPosition(text, misspelt.key), { name, problem: misspelt.problem });
  return pkg;
}

/** An `InstalledPackage` for a package root whose package.json was read (`fallbackName` when it has no name). */
export function toInstalledPackage(
  root: string,
  json: Record<string, unknown>,
  text: string,
  fallbackName = root.split(/[\\/]/).pop() as string,
): InstalledPackage {
  const name = typeof json.name === 'string' && json.name !== '' ? json.name : fallbackName;
  const version = typeof json.version === 'string' ? json.version : '0.0.0';
  return { name, version, root, manifest: join(root, 'package.json'), json, text, expose: exposeState(json) };
}

/** Levenshtein distance of two short strings (for spotting a misspelt key). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length] as number;
}

/** The key of `record` that is a near miss of `wanted` (case aside, up to two edits), if any; `wanted` is not a key. */
function nearMiss(record: Record<string, unknown>, wanted: string): string | undefined {
  return Object.keys(record).find((k) => distance(k.toLowerCase(), wanted) <= 2);
}

/**
 * A misspelt expose flag of an installed package that plainly means to expose workflows: a key one or two letters
 * from `skein` holding a `workflows` object (`"skien": { "workflows": … }`), or a `workflows` object under `skein`
 * with a key one or two letters from `expose` (`"exposed": true`). Nothing for a package without such a key (most
 * of `node_modules`), so a project's other dependencies are never reported.
 */
function misspeltFlag(json: Record<string, unknown>): { key: string; problem: string } | undefined {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const ns = json[PACKAGE_JSON_KEY];
  if (ns === undefined) {
    const miss = nearMiss(json, PACKAGE_JSON_KEY);
    const value = miss === undefined ? undefined : json[miss];
    return miss && isObject(value) && isObject(value.workflows)
      ? { key: miss, problem: `"${miss}" looks like a misspelling of "${PACKAGE_JSON_KEY}"` }
      : undefined;
  }
  if (!isObject(ns) || !isObject(ns.workflows) || ns.workflows.expose !== undefined) return undefined;
  const miss = nearMiss(ns.workflows, 'expose');
  return miss ? { key: miss, problem: `"${miss}" looks like a misspelling of "expose"` } : undefined;
}
/**
 * What is wrong with a package.json's expose flag, in words, or undefined when it is the boolean true or absent
 * without any near miss: a misspelt `"skein"`, `"workflows"` or `"expose"` key, or a non-boolean value
 * (strictly the boolean true). Used by package mode (`package/not-exposed`).
 */
export function checkPackageFlag(json: Record<string, unknown>): string | undefined {
  return flagProblem(json)?.problem;
}

/**
 * True when a package.json says, or misspells, that it is a workflow package: the expose flag is set (to anything),
 * or `"skein"` / `"workflows"` / `"expose"` is misspelt. A `"skein"` key with only other settings (`hookFiles` of a
 * project) is not. Decides `auto` mode.
 */
export function intendsWorkflowPackage(json: Record<string, unknown>): boolean {
  return exposeState(json) !== 'absent' || flagProblem(json)?.intent === true;
}

function flagProblem(json: Record<string, unknown>): { problem: string; intent: boolean } | undefined {
  const found = (problem: string, intent = true) => ({ problem, intent });
  const ns = json[PACKAGE_JSON_KEY];
  if (ns === undefined) {
    const miss = nearMiss(json, PACKAGE_JSON_KEY);
    return miss ? found(`"${miss}" looks like a misspelling of "${PACKAGE_JSON_KEY}"`) : undefined;
  }
  if (!ns || typeof ns !== 'object') return found(`"${PACKAGE_JSON_KEY}" is ${JSON.stringify(ns)}, not an object`);
  const workflows = (ns as Record<string, unknown>).workflows;
  if (workflows === undefined) {
    const miss = nearMiss(ns as Record<string, unknown>, 'workflows');
    return miss ? found(`"${miss}" looks like a misspelling of "workflows"`) : found(`"${PACKAGE_JSON_KEY}" has no "workflows" key`, false);
  }
  if (!workflows || typeof workflows !== 'object') return found(`"workflows" is ${JSON.stringify(workflows)}, not an object`);
  const expose = (workflows as Record<string, unknown>).expose;
  if (expose === true) return undefined;
  if (expose === undefined) {
    const miss = nearMiss(workflows as Record<string, unknown>, 'expose');
    return found(miss ? `"${miss}" looks like a misspelling of "expose"` : '"workflows" has no "expose" key');
  }
  return found(`"expose" is ${JSON.stringify(expose)}, not the boolean true`);
}
