/**
 * Static export resolution across modules (package rule 2): which definition an export name of a module reaches,
 * through `export { a as b } from`, `export *`, and import-then-export, over any chain of barrels with relative
 * paths. Cycles end resolution; nothing is executed.
 */
import { isAbsolute } from 'node:path';
import { isRelative, resolveRelativeImport } from './module-path.js';
import type { Diagnostics } from './diagnostics.js';
import type { Position } from './finding.js';
import type { Definition, ModuleInfo } from './module-info.js';
import type { ModuleStore } from './store.js';

/** A `workflow()`/`step()`/`evaluator()` definition, exported as `exportName` of `file`. */
export interface ReachedDefinition {
  kind: 'definition';
  file: string;
  exportName: string;
  definition: Definition;
}

/**
 * Something that is not a definition: another value, a namespace object (`import * as x` then `export { x }`), or a
 * binding of a non-relative specifier discovery does not follow. It still counts as "found" for the ambiguity rule
 * of `export *` (two stars providing a name hide it).
 */
const OTHER = { kind: 'other' } as const;

/** Where an export name leads: a definition, something else (`{ kind: 'other' }`), or nothing (`undefined`: missing file or name, cycle, unreadable module). */
export type Resolved = ReachedDefinition | typeof OTHER | undefined;

/** True for absolute paths and `file:` URLs, which package rule 2 forbids in re-exports. */
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
   * Every name `file` may export: its own export names (source order), then the names its relative `export *`
   * targets may export, each once. Whether a name really leads somewhere is `resolveExport`'s answer (the one place
   * that knows `export *` never passes on `default`, and that a name two stars provide is ambiguous in ESM).
   */
  exportNames(file: string, seen: Set<string> = new Set()): string[] {
    if (seen.has(file)) return [];
    seen.add(file);
    const info = this.module(file);
    if (!info) return [];
    const names = new Set(info.exports.keys());
    for (const star of info.stars) {
      if (!isRelative(star.source)) continue;
      const target = this.target(file, star.source, star.sourcePosition);
      if (target) for (const name of this.exportNames(target.file, seen)) names.add(name);
    }
    return [...names];
  }

  /** What export `name` of `file` leads to. */
  resolveExport(file: string, name: string, seen: Set<string> = new Set()): Resolved {
    const key = `${file}\0${name}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const info = this.module(file);
    if (!info) return undefined;
    const binding = info.exports.get(name);
    if (binding) {
      switch (binding.kind) {
        case 'definition':
          return { kind: 'definition', file, exportName: name, definition: binding.definition };
        case 'value':
          return binding.alias === undefined ? OTHER : this.resolveLocal(info, binding.alias, seen);
        case 'reexport':
          return this.#follow(file, binding.source, binding.imported, binding.sourcePosition, seen);
        case 'local':
          return this.resolveLocal(info, binding.local, seen);
      }
    }
    if (name === 'default') return undefined;
    const found: Resolved[] = [];
    for (const star of info.stars) {
      if (!isRelative(star.source)) continue;
      const target = this.target(file, star.source, star.sourcePosition);
      if (!target) continue;
      const r = this.resolveExport(target.file, name, seen);
      if (r) found.push(r);
    }
    return found.length === 1 ? found[0] : undefined;
  }

  /** What a top-level binding of a module leads to (imports are followed). */
  resolveLocal(info: ModuleInfo, local: string, seen: Set<string> = new Set()): Resolved {
    const binding = info.locals.get(local);
    if (!binding) return undefined;
    if (binding.kind === 'definition') return { kind: 'definition', file: info.file, exportName: local, definition: binding.definition };
    if (binding.kind === 'value') {
      if (binding.alias === undefined) return OTHER;
      // `const alias = greet`: what `greet` leads to (a circle of aliases leads nowhere).
      const key = `${info.file}\0local ${local}`;
      if (seen.has(key)) return undefined;
      seen.add(key);
      return this.resolveLocal(info, binding.alias, seen);
    }
    return this.#follow(info.file, binding.source, binding.imported, binding.position, seen);
  }

  #follow(from: string, source: string, imported: string, position: Position, seen: Set<string>): Resolved {
    if (!isRelative(source)) return OTHER;
    const target = this.target(from, source, position);
    if (!target) return undefined;
    if (imported === '*') return OTHER;
    return this.resolveExport(target.file, imported, seen);
  }
}
