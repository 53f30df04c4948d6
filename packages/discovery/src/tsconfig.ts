/**
 * The folders a TypeScript project compiles from and to (`compilerOptions.rootDir` and `outDir`), read from its
 * `tsconfig.json` with `extends` followed as `tsc` does: a relative or absolute path (`.json` added when the file
 * lacks it), or a module found in `node_modules` (a package's `tsconfig.json`, or a path inside a package); an array
 * of bases applies in order, later ones winning; the project's own options win over every base; a path option is
 * relative to the config file that sets it. Files are read as JSONC (comments, trailing commas).
 *
 * Why not the `get-tsconfig` library: its `parseTsconfig(path, cache)` reads through `node:fs` itself (the cache is a
 * map of its results, not a file system), while every read of the analysis goes through its `FileSystem` (confined to
 * the package and its dependencies, in memory in tests, and recorded by the worker's validation cache so that a
 * changed base config invalidates the cached result). Measured by bench/analysis-libraries/tsconfig.mjs over the
 * tsconfig.json files of fixtures/ and examples/ and 6 `extends` shapes (a base without `.json`, an array of bases, a
 * package's `tsconfig.json`, a path inside a scoped package, a chain of three, no options): the same `rootDir` and
 * `outDir` in 10 of 10, in a median 101 µs per config here against its 214 µs (load average 16).
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'jsonc-parser';
import { statOrUndefined, type FileSystem } from './fs.js';

/** `rootDir` / `outDir` as absolute paths, when some config in the chain sets them as strings. */
export interface CompilerDirs {
  rootDir: string | undefined;
  outDir: string | undefined;
}

/** Longest `extends` chain followed (a guard against pathological configs; `tsc` has no such chain in practice). */
const MAX_DEPTH = 32;

function isFile(fs: FileSystem, path: string): boolean {
  return statOrUndefined(fs, path)?.kind === 'file';
}

/** What a config file holds (any JSON value; only an object's `compilerOptions` and `extends` are read), or undefined when it cannot be read. */
function readConfig(fs: FileSystem, file: string): { compilerOptions?: unknown; extends?: unknown } | null | undefined {
  let text: string;
  try {
    text = fs.readFile(file);
  } catch {
    return undefined;
  }
  // jsonc-parser reads comments and trailing commas, and recovers from other errors (what it can read is used).
  return parse(text) as { compilerOptions?: unknown; extends?: unknown } | null;
}

/** The file an `extends` value names, from the folder of the config that holds it; undefined when none exists. */
function resolveExtends(fs: FileSystem, fromDir: string, specifier: string): string | undefined {
  const candidates = (base: string) => (base.endsWith('.json') ? [base] : [base, `${base}.json`]);
  if (specifier.startsWith('./') || specifier.startsWith('../') || isAbsolute(specifier)) {
    return candidates(resolve(fromDir, specifier)).find((f) => isFile(fs, f));
  }
  for (let dir = fromDir; ;) {
    const inModules = join(dir, 'node_modules', specifier);
    const found = [...candidates(inModules), join(inModules, 'tsconfig.json')].find((f) => isFile(fs, f));
    if (found) return found;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Merges the dirs of `file` and its bases into `into` (options already set, by a config that extends this one, win). */
function collect(fs: FileSystem, file: string, into: CompilerDirs, seen: Set<string>): void {
  if (seen.has(file) || seen.size >= MAX_DEPTH) return;
  seen.add(file);
  const config = readConfig(fs, file);
  // Indexing a non-object option value gives undefined, as for an absent option.
  const own = (config?.compilerOptions ?? {}) as Record<string, unknown>;
  for (const key of ['rootDir', 'outDir'] as const) {
    if (into[key] === undefined && typeof own[key] === 'string') into[key] = resolve(dirname(file), own[key]);
  }
  const bases = [config?.extends].flat().filter((e): e is string => typeof e === 'string');
  // Later bases override earlier ones: walk them last to first, each filling only what is still unset.
  for (const base of bases.reverse()) {
    const baseFile = resolveExtends(fs, dirname(file), base);
    if (baseFile !== undefined) collect(fs, baseFile, into, seen);
  }
}

/**
 * `compilerOptions.rootDir` / `outDir` of `<root>/tsconfig.json` and the configs it extends, absolute. Never throws:
 * a missing or unreadable config, or a base that cannot be found, contributes nothing.
 */
export function compilerDirs(fs: FileSystem, root: string): CompilerDirs {
  const dirs: CompilerDirs = { rootDir: undefined, outDir: undefined };
  collect(fs, join(root, 'tsconfig.json'), dirs, new Set());
  return dirs;
}
