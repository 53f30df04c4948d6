/**
 * Which installed packages exist and which expose workflows (SPEC rule 4): every package reachable from the
 * project's `node_modules`, then each ancestor's (hoisted installs), scoped packages included, de-duplicated by
 * real path (workspace symlinks) and by name (the nearest install wins, as in Node's resolution).
 * Nested installs (`node_modules/a/node_modules/b`) are not searched: a workflow package is served by the
 * project only when it is resolvable from the project itself.
 */
import { dirname, join, resolve } from 'node:path';
import { PACKAGE_JSON_KEY } from '@skein/core';
import type { Diagnostics, Position } from './diagnostics.js';
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
export type ManifestRead =
  | { ok: true; json: Record<string, unknown>; text: string }
  | { ok: false; missing: boolean };

/**
 * Reads and parses `<dir>/package.json`, reporting `package/missing-manifest` (when `reportMissing`) or
 * `package/invalid-json` with the position of the JSON error. Never rejects.
 */
export async function readManifest(fs: FileSystem, dir: string, diagnostics: Diagnostics, reportMissing: boolean): Promise<ManifestRead> {
  const file = join(dir, 'package.json');
  let text: string;
  try {
    text = await fs.readFile(file);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') {
      if (reportMissing) {
        diagnostics.report('package/missing-manifest', file, undefined, `${dir} has no package.json.`, 'Add a package.json, or remove the directory.');
      }
      return { ok: false, missing: true };
    }
    diagnostics.report('package/invalid-json', file, undefined, `Cannot read ${file} (${code}); the package is skipped.`, 'Check the file permissions.');
    return { ok: false, missing: false };
  }
  try {
    const json: unknown = JSON.parse(text);
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new SyntaxError('the top-level value is not an object');
    return { ok: true, json: json as Record<string, unknown>, text };
  } catch (error) {
    const message = (error as Error).message;
    diagnostics.report('package/invalid-json', file, jsonErrorPosition(text, message), `${file} is not valid JSON (${message}); the package is skipped.`, 'Fix the JSON syntax (no trailing commas or comments).');
    return { ok: false, missing: false };
  }
}

/** 1-based position of a `JSON.parse` error, from V8's "(line L column C)" or "at position N". */
export function jsonErrorPosition(text: string, message: string): Position | undefined {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(message);
  return pos ? positionAt(text, Number(pos[1])) : undefined;
}

/** 1-based line and column of a character offset. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** 1-based position of the first `"key"` in a package.json text, if present. */
export function keyPosition(text: string, key: string): Position | undefined {
  const offset = text.indexOf(`"${key}"`);
  return offset >= 0 ? positionAt(text, offset) : undefined;
}

/** The expose state of a package.json (SPEC rule 4; CONTRACT: strictly the boolean `true`). */
export function exposeState(json: Record<string, unknown>): ExposeState {
  const ns = json[PACKAGE_JSON_KEY];
  if (ns === undefined) return 'absent';
  const workflows = ns && typeof ns === 'object' ? (ns as Record<string, unknown>).workflows : undefined;
  const expose = workflows && typeof workflows === 'object' ? (workflows as Record<string, unknown>).expose : undefined;
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
export async function listInstalledPackages(
  fs: FileSystem,
  projectRoot: string,
  ceiling: string | undefined,
  excludeRoots: ReadonlySet<string>,
  diagnostics: Diagnostics,
): Promise<InstalledPackage[]> {
  const chain = nodeModulesChain(projectRoot, ceiling);
  const perFolder = await Promise.all(chain.map((nm) => candidateDirs(fs, nm)));
  const candidates = perFolder.flat();
  const read = await Promise.all(candidates.map((dir) => readPackage(fs, dir, diagnostics)));
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

async function listDir(fs: FileSystem, dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir))
      .filter((e) => (e.kind === 'directory' || e.kind === 'symlink') && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

async function candidateDirs(fs: FileSystem, nodeModules: string): Promise<string[]> {
  const names = await listDir(fs, nodeModules);
  const groups = await Promise.all(
    names.map(async (name) => {
      const dir = join(nodeModules, name);
      if (!name.startsWith('@')) return [dir];
      return (await listDir(fs, dir)).map((n) => join(dir, n));
    }),
  );
  return groups.flat();
}

async function readPackage(fs: FileSystem, dir: string, diagnostics: Diagnostics): Promise<InstalledPackage | undefined> {
  let root: string;
  try {
    root = await fs.realpath(dir);
    if ((await fs.stat(root)).kind !== 'directory') return undefined;
  } catch (error) {
    if (errorCode(error) === 'ELOOP') {
      diagnostics.report('fs/symlink-loop', dir, undefined, `Symlink ${dir} cannot be resolved: it loops; it is skipped.`, 'Remove the symlink or point it at a package directory.');
    }
    return undefined;
  }
  const manifest = await readManifest(fs, root, diagnostics, true);
  if (!manifest.ok) return undefined;
  const { json, text } = manifest;
  const name = typeof json.name === 'string' && json.name !== '' ? json.name : dir.split(/[\\/]node_modules[\\/]/).pop() ?? dir;
  const version = typeof json.version === 'string' ? json.version : '0.0.0';
  const expose = exposeState(json);
  const file = join(root, 'package.json');
  if (expose === 'invalid') {
    const ns = json[PACKAGE_JSON_KEY] as { workflows?: { expose?: unknown } } | undefined;
    diagnostics.report(
      'package/invalid-expose-flag',
      file,
      keyPosition(text, 'expose'),
      `${name} sets "${PACKAGE_JSON_KEY}.workflows.expose" to ${JSON.stringify(ns?.workflows?.expose) ?? 'a non-boolean value'}, not the boolean true; its workflows are not discovered.`,
      `Set "${PACKAGE_JSON_KEY}": { "workflows": { "expose": true } } (the boolean, not a string).`,
    );
  }
  return { name, version, root, manifest: file, json, text, expose };
}
