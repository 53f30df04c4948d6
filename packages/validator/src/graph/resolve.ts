/**
 * Static module resolution for the validator: relative paths, Node built-ins, bare specifiers through
 * `node_modules` (any package manager's layout: hoisted, nested, pnpm symlinks) and `exports`, whose
 * targets are picked by discovery's `resolveEntry` (workflow-bundle conditions first, package rule 12), and a
 * package's own subpath imports (`#lib/x.js` through its package.json `imports`, with the same conditions).
 * Reads only package.json files and checks file existence; never loads code.
 */
import { isBuiltin } from 'node:module';
import * as path from 'node:path';
import {
  deepestRoot,
  isInside,
  isOwnFile,
  isTypeScriptFile,
  readPackageJson,
  resolveEntry,
  resolveImportsTarget,
  resolveModuleFile,
  resolveSpecifier,
  splitBareSpecifier,
  statOrUndefined,
  type FileSystem,
} from '@skein/discovery';
import type { FileRole, ResolvedImport } from '../types.js';

/**
 * Packages written for Temporal's workflow sandbox; imports of them are not followed.
 * `@temporalio/workflow` is the sandbox's own API, `@temporalio/common` its shared types, and
 * `@skein/core` is loaded in workflow code through its own `skein-workflow-bundle` entry, which the
 * framework keeps free of Node APIs (its own tests hold it to that).
 */
export const SANDBOX_SAFE_PACKAGES: readonly string[] = ['@temporalio/workflow', '@temporalio/common', '@skein/core'];

/**
 * Entries of `@skein/core` that are Node-only: the hook-file API, the activity runtime (`Context`, `Event`, `Tracing`), the worker's Temporal
 * client and the worker's own share (`@skein/core/internal`). They work in steps, evaluators and hook files; in workflow code the bundler cannot load them.
 */
export const NODE_ONLY_CORE_ENTRIES: readonly string[] = ['@skein/core/hooks', '@skein/core/sdk/runtime', '@skein/core/temporal', '@skein/core/internal'];

/**
 * The answer for a non-relative specifier when it depends on the specifier alone, whoever imports it: a Node built-in,
 * or a sandbox-safe package (never followed); undefined for anything else.
 */
function specifierOnlyAnswer(specifier: string): ResolvedImport | undefined {
  if (isBuiltin(specifier)) return { kind: 'builtin', name: specifier.replace(/^node:/, '') };
  if (NODE_ONLY_CORE_ENTRIES.includes(specifier)) return { kind: 'node-only', name: specifier };
  const name = splitBareSpecifier(specifier)?.name;
  return name !== undefined && SANDBOX_SAFE_PACKAGES.includes(name) ? { kind: 'sandbox-safe', name } : undefined;
}

/** The answer for a specifier that names nothing (one object: answers are never modified). */
const UNRESOLVED: ResolvedImport = Object.freeze({ kind: 'unresolved' });

/** Resolves specifiers; caches package.json reads. */
export interface Resolver {
  resolve(fromFile: string, specifier: string): ResolvedImport;
  /** The package root (directory holding package.json) a resolved file belongs to, when known. */
  packageRootOf(file: string): string | null;
}

/**
 * Creates a resolver reading through the session's file system.
 * @param ownRoots roots of the packages being validated (an import leaving its own package is `outside`); read at
 * each call, so the session can fill it in after the resolver is made
 * @param classify discovery's `classifyFile`
 */
export function createResolver(fsys: FileSystem, ownRoots: () => readonly string[], classify: (file: string) => FileRole | null): Resolver {
  const fs = {
    realpath(p: string): string | null {
      try {
        return fsys.realpath(p);
      } catch {
        return null;
      }
    },
    isFile: (p: string) => statOrUndefined(fsys, p)?.kind === 'file',
    isDirectory: (p: string) => statOrUndefined(fsys, p)?.kind === 'directory',
  };
  const pkgJsonCache = new Map<string, Record<string, unknown> | null>();
  /** Roots of the dependencies met so far; replaced (never mutated) when one is added, as `deepestRoot` requires. */
  let dependencyRoots: readonly string[] = [];

  /** A dependency's parsed package.json (the core's reader, remembered per folder), or null when it cannot be read. */
  const packageJsonOf = (dir: string): Record<string, unknown> | null => {
    let v = pkgJsonCache.get(dir);
    if (v === undefined) {
      const read = readPackageJson(fsys, dir);
      v = read.ok ? read.json : null;
      pkgJsonCache.set(dir, v);
    }
    return v;
  };

  /** Answers by importing file and specifier (the rules and the module graph ask about the same imports). */
  const answers = new Map<string, Map<string, ResolvedImport>>();
  let answeredFor: readonly string[] | undefined;
  /** Package root of each file asked about. Both caches are emptied whenever a dependency root is added (answers may change). */
  const rootOfFile = new Map<string, string | null>();
  const packageRootOf = (file: string): string | null => {
    let root = rootOfFile.get(file);
    if (root === undefined) {
      const real = fs.realpath(file) ?? file;
      const own = deepestRoot(ownRoots(), real);
      const deps = deepestRoot(dependencyRoots, real);
      root = own && deps ? (deps.length > own.length ? deps : own) : (own ?? deps ?? null);
      rootOfFile.set(file, root);
    }
    return root;
  };
  const addDependencyRoot = (root: string): void => {
    if (dependencyRoots.includes(root)) return;
    dependencyRoots = [...dependencyRoots, root];
    rootOfFile.clear();
    answers.clear();
  };

  const tryFile = (candidate: string, fromFile: string): string | null => resolveModuleFile(fsys, candidate, isTypeScriptFile(fromFile)) ?? null;

  /** True when `real` is a package's own file: below an own root, not inside a `node_modules` there. */
  const isOwn = (real: string): boolean => isOwnFile(ownRoots(), real);

  /** The answer for an existing file, by its real path (asked once per resolved import). */
  const fileAt = (real: string): ResolvedImport => ({ kind: 'file', path: real, role: classify(real), inPackage: isOwn(real) });
  const asFile = (file: string): ResolvedImport => fileAt(fs.realpath(file) ?? file);

  const resolveRelative = (fromFile: string, specifier: string): ResolvedImport => {
    const from = fs.realpath(fromFile) ?? fromFile;
    const base = packageRootOf(from);
    const target = resolveSpecifier(path.dirname(from), specifier);
    if (base && !isInside(base, target)) return { kind: 'outside', path: target };
    const found = tryFile(target, from);
    if (!found) return UNRESOLVED;
    const real = fs.realpath(found) ?? found;
    if (base && !isInside(base, real) && !real.split(path.sep).includes('node_modules')) return { kind: 'outside', path: real };
    return fileAt(real);
  };

  /** A bare specifier that is neither a built-in nor a sandbox-safe package, through `node_modules`. */
  const resolveBare = (fromFile: string, specifier: string): ResolvedImport => {
    const bare = splitBareSpecifier(specifier);
    if (!bare) return UNRESOLVED;
    const { name, subpath } = bare;
    let dir = path.dirname(fs.realpath(fromFile) ?? fromFile);
    for (;;) {
      const candidate = path.join(dir, 'node_modules', name);
      // Only a directory with a package.json is a dependency (a `node_modules/x -> /` symlink is not).
      if (fs.isDirectory(candidate) && fs.isFile(path.join(candidate, 'package.json'))) {
        const realRoot = fs.realpath(candidate);
        if (realRoot) {
          addDependencyRoot(realRoot);
          return resolveInPackage(realRoot, subpath);
        }
      }
      const parent = path.dirname(dir);
      if (parent === dir) return UNRESOLVED;
      dir = parent;
    }
  };

  /**
   * A subpath import (`#lib/x.js`) through the `imports` of the package.json nearest above the importing file (within
   * its package), as Node and the workflow bundler resolve it: a package-relative target as a path inside that
   * folder, any other target (a dependency, a built-in) as if that folder imported it.
   */
  const resolveSubpathImport = (fromFile: string, specifier: string): ResolvedImport => {
    const from = fs.realpath(fromFile) ?? fromFile;
    const root = packageRootOf(from);
    if (root === null) return UNRESOLVED;
    let scope = path.dirname(from);
    while (scope !== root && isInside(root, scope) && !fs.isFile(path.join(scope, 'package.json'))) scope = path.dirname(scope);
    const target = resolveImportsTarget(packageJsonOf(scope)?.imports, specifier);
    if (target === null) return UNRESOLVED;
    if (!target.startsWith('./')) return resolveUncached(path.join(scope, 'package.json'), target);
    const full = path.join(scope, target);
    if (!isInside(scope, full)) return { kind: 'outside', path: full };
    const found = tryFile(full, from);
    return found ? asFile(found) : UNRESOLVED;
  };

  /** A subpath of a dependency, by the one entry resolver of the analysis core (`resolveEntry`). */
  const resolveInPackage = (root: string, subpath: string): ResolvedImport => {
    const entry = resolveEntry(fsys, root, packageJsonOf(root) ?? {}, subpath);
    if (entry.ok) return asFile(entry.file);
    return entry.outside !== undefined ? { kind: 'outside', path: entry.outside } : UNRESOLVED;
  };

  /**
   * Answers that depend on the specifier alone (`specifierOnlyAnswer`), made once and shared by every importing file:
   * most files import `@skein/core` and a few built-ins.
   */
  const bySpecifier = new Map<string, ResolvedImport>();
  const resolveUncached = (fromFile: string, specifier: string): ResolvedImport => {
    if (specifier.startsWith('.') || specifier.startsWith('/')) return resolveRelative(fromFile, specifier);
    if (specifier.startsWith('#')) return resolveSubpathImport(fromFile, specifier);
    let shared = bySpecifier.get(specifier);
    if (shared === undefined) {
      shared = specifierOnlyAnswer(specifier);
      if (shared !== undefined) bySpecifier.set(specifier, shared);
    }
    if (shared !== undefined) return shared;
    if (/^[a-z][a-z0-9+.-]*:/i.test(specifier)) return UNRESOLVED;
    return resolveBare(fromFile, specifier);
  };
  return {
    packageRootOf,
    resolve(fromFile, specifier) {
      const roots = ownRoots();
      if (roots !== answeredFor) {
        // The session set its own roots after this resolver was made: earlier answers may no longer hold.
        answers.clear();
        rootOfFile.clear();
        answeredFor = roots;
      }
      let byFile = answers.get(fromFile);
      if (!byFile) {
        byFile = new Map();
        answers.set(fromFile, byFile);
      }
      let resolved = byFile.get(specifier);
      if (!resolved) {
        resolved = resolveUncached(fromFile, specifier);
        byFile.set(specifier, resolved);
      }
      return resolved;
    },
  };
}
