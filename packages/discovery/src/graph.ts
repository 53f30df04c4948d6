/**
 * Static export resolution across modules (SPEC rule 2): which definition an export name of a module reaches,
 * through `export { a as b } from`, `export *`, and import-then-export, over any chain of barrels with relative
 * paths. Cycles end resolution; nothing is executed.
 */
import { isAbsolute } from 'node:path';
import { resolveRelativeImport } from './module-path.js';
import type { Diagnostics, Position } from './diagnostics.js';
import type { Definition, ModuleInfo } from './module-info.js';
import type { ModuleStore } from './store.js';

/** Where an export name leads. */
export type Resolved =
  /** A `workflow()`/`step()`/`evaluator()` definition exported as `exportName` of `file`. */
  | { kind: 'definition'; file: string; exportName: string; definition: Definition }
  /** Some other value exported by `file`. */
  | { kind: 'value'; file: string; exportName: string }
  /** A namespace object of `file` (`import * as x` then `export { x }`). */
  | { kind: 'namespace'; file: string }
  /** A non-relative specifier discovery does not follow. */
  | { kind: 'external'; specifier: string; imported: string }
  /** Nothing (missing file, missing name, cycle, unreadable module). */
  | { kind: 'none' };

/** True for `./x` and `../x` specifiers. */
export function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../');
}


/** True for absolute paths and `file:` URLs, which SPEC rule 2 forbids in re-exports. */
export function isAbsoluteSpecifier(specifier: string): boolean {
  return isAbsolute(specifier) || specifier.startsWith('file:');
}

/** Resolves export names over modules loaded from a `ModuleStore`, reporting load problems to `diagnostics`. */
export class ExportGraph {
  /** Answers of `resolvePath` by importing file, then specifier (entries and barrels ask about each edge several times). */
  readonly #paths = new Map<string, Map<string, string>>();

  constructor(
    readonly store: ModuleStore,
    readonly diagnostics: Diagnostics,
  ) {}

  /** The file a relative specifier in `from` names (`.js` → `.ts` twin, extensionless, folder index; see module-path.ts). */
  resolvePath(from: string, specifier: string): string {
    let byFile = this.#paths.get(from);
    if (!byFile) {
      byFile = new Map();
      this.#paths.set(from, byFile);
    }
    let path = byFile.get(specifier);
    if (path === undefined) {
      path = resolveRelativeImport(this.store.fs, from, specifier);
      byFile.set(specifier, path);
    }
    return path;
  }

  /** Loads a module, reporting unreadable/oversized/unparsable files. */
  module(file: string): ModuleInfo | undefined {
    return this.store.loadReporting(file, this.diagnostics);
  }

  /** Loads the target of a relative specifier; reports `reexport/unresolved` at `position` when it does not exist. */
  target(from: string, specifier: string, position: Position): ModuleInfo | undefined {
    const file = this.resolvePath(from, specifier);
    const { missing } = this.store.load(file);
    if (missing) {
      this.diagnostics.report('reexport/unresolved', 'unresolved', from, position, { specifier, file });
      return undefined;
    }
    return this.module(file);
  }

  /**
   * Every export name of `file`, own exports first (source order) then names reached through `export *`
   * (never `default`; names two stars provide are ambiguous in ESM and dropped).
   */
  exportNames(file: string, seen: Set<string> = new Set()): string[] {
    if (seen.has(file)) return [];
    seen.add(file);
    const info = this.module(file);
    if (!info) return [];
    const names = [...info.exports.keys()];
    const own = new Set(names);
    const fromStars = new Map<string, number>();
    for (const star of info.stars) {
      if (!isRelative(star.source)) continue;
      const target = this.target(file, star.source, star.sourcePosition);
      if (!target) continue;
      for (const name of this.exportNames(target.file, seen)) {
        if (name !== 'default' && !own.has(name)) fromStars.set(name, (fromStars.get(name) ?? 0) + 1);
      }
    }
    for (const [name, count] of fromStars) if (count === 1) names.push(name);
    return names;
  }

  /** What export `name` of `file` leads to. */
  resolveExport(file: string, name: string, seen: Set<string> = new Set()): Resolved {
    const key = `${file}\0${name}`;
    if (seen.has(key)) return { kind: 'none' };
    seen.add(key);
    const info = this.module(file);
    if (!info) return { kind: 'none' };
    const binding = info.exports.get(name);
    if (binding) {
      switch (binding.kind) {
        case 'definition':
          return { kind: 'definition', file, exportName: name, definition: binding.definition };
        case 'value':
          return { kind: 'value', file, exportName: name };
        case 'reexport':
          return this.#follow(file, binding.source, binding.imported, binding.sourcePosition, seen);
        case 'local':
          return this.resolveLocal(info, binding.local, seen);
      }
    }
    if (name === 'default') return { kind: 'none' };
    const found: Resolved[] = [];
    for (const star of info.stars) {
      if (!isRelative(star.source)) continue;
      const target = this.target(file, star.source, star.sourcePosition);
      if (!target) continue;
      const r = this.resolveExport(target.file, name, seen);
      if (r.kind !== 'none') found.push(r);
    }
    return found.length === 1 ? (found[0] as Resolved) : { kind: 'none' };
  }

  /** What a top-level binding of a module leads to (imports are followed). */
  resolveLocal(info: ModuleInfo, local: string, seen: Set<string> = new Set()): Resolved {
    const binding = info.locals.get(local);
    if (!binding) return { kind: 'none' };
    if (binding.kind === 'definition') return { kind: 'definition', file: info.file, exportName: local, definition: binding.definition };
    if (binding.kind === 'value') return { kind: 'value', file: info.file, exportName: local };
    return this.#follow(info.file, binding.source, binding.imported, binding.position, seen);
  }

  #follow(from: string, source: string, imported: string, position: Position, seen: Set<string>): Resolved {
    if (!isRelative(source)) return { kind: 'external', specifier: source, imported };
    const target = this.target(from, source, position);
    if (!target) return { kind: 'none' };
    if (imported === '*') return { kind: 'namespace', file: target.file };
    return this.resolveExport(target.file, imported, seen);
  }
}
