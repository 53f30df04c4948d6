/**
 * Following a package entry's re-exports to its workflows (package rules 2 and 3): `export { default as X } from
 * './p/workflow.js'`, `export * from './p/workflow.js'`, import-then-export, through any chain of barrels with
 * relative paths. Every unsupported form met on the way (CommonJS, dynamic `import()`, computed paths,
 * non-relative paths to workflow code, `export * as ns`, runtime export assembly) is reported, never skipped.
 */
import { classifyFile } from './conventions.js';
import { kindOf } from './definitions.js';
import type { Diagnostics } from './diagnostics.js';
import type { Position } from './finding.js';
import { dirname, relative } from 'node:path';
import { isAbsoluteSpecifier, type ExportGraph } from './graph.js';
import { isRelative } from './module-path.js';
import { mayExport, type Definition, type ModuleInfo } from './module-info.js';

/** A workflow definition reached from an entry. */
export interface ReachedWorkflow {
  /** The `workflow.js` file. */
  file: string;
  /** The export of `file` holding the definition (`default` or a name). */
  localExport: string;
  /** The entry export name it is reached through, or `*` when only `export * from` reaches the file. */
  exportName: string;
  definition: Definition;
}

/** What an entry reaches. */
export interface EntryReach {
  workflows: ReachedWorkflow[];
  /** Every `workflow.js` file reached by a re-export edge (whether or not it defines a workflow). */
  workflowFiles: Set<string>;
}

/** Decides whether a non-relative specifier points at workflow code (a workflow file or a workflow package). */
export type WorkflowSpecifierTest = (specifier: string) => boolean;

const FIX_FORMS = "export { default as greet } from './greet/workflow.js' or export * from './greet/workflow.js'";

/**
 * Walks the re-export graph from `entry`, reporting unsupported forms to `diagnostics`, and returns the workflow
 * definitions reached (in entry export order; a definition reached twice keeps its first export name).
 */
export function followEntry(graph: ExportGraph, entry: string, isWorkflowSpecifier: WorkflowSpecifierTest): EntryReach {
  const diagnostics = graph.diagnostics;
  const workflowFiles = new Set<string>();
  const starWorkflowFiles = new Set<string>();
  const visited = new Set<string>();
  const cycles = new Set<string>();

  const visit = (file: string): void => {
    if (visited.has(file)) return;
    visited.add(file);
    const info = graph.module(file);
    if (!info) return;
    reportUnsupported(info, diagnostics);
    const edges: { source: string; position: Position; star: boolean }[] = [];
    for (const binding of info.exports.values()) {
      if (binding.kind === 'reexport') edges.push({ source: binding.source, position: binding.sourcePosition, star: false });
      if (binding.kind === 'local') {
        const local = info.locals.get(binding.local);
        if (local?.kind === 'import') edges.push({ source: local.source, position: local.position, star: false });
      }
    }
    for (const star of info.stars) edges.push({ source: star.source, position: star.sourcePosition, star: true });
    for (const form of info.unsupported) {
      if (form.kind === 'namespace-reexport') edges.push({ source: form.source, position: form.position, star: false });
    }
    reportRuntimeAssembly(graph, info);
    reportNamespaces(graph, info, isWorkflowSpecifier);
    reportAmbiguousStars(graph, info);
    reportMissingExports(graph, info);
    reportCycles(graph, info, cycles);
    const next: string[] = [];
    for (const edge of edges) {
      if (!isRelative(edge.source)) {
        if (isAbsoluteSpecifier(edge.source) || isWorkflowSpecifier(edge.source)) {
          diagnostics.report('reexport/non-relative', 'nonRelative', file, edge.position, { source: edge.source });
        }
        continue;
      }
      const target = graph.resolvePath(file, edge.source);
      if (classifyFile(target) === 'workflow') {
        if (graph.target(file, edge.source, edge.position)) {
          workflowFiles.add(target);
          if (edge.star) starWorkflowFiles.add(target);
        }
        continue;
      }
      next.push(target);
    }
    for (const target of next) {
      if (!graph.store.load(target).missing) visit(target); // a missing one is reported by graph.target
    }
  };

  visit(entry);

  const workflows: ReachedWorkflow[] = [];
  const seen = new Set<string>();
  const add = (w: ReachedWorkflow): void => {
    const key = `${w.file}\0${w.localExport}`;
    if (seen.has(key)) return;
    seen.add(key);
    workflows.push(w);
  };
  for (const name of graph.exportNames(entry)) {
    const r = graph.resolveExport(entry, name);
    if (r?.kind !== 'definition' || kindOf(r.definition, r.file) !== 'workflow') continue;
    if (classifyFile(r.file) !== 'workflow') continue; // a misplaced definition: the validator's `conventions/misplaced-definition`
    add({ file: r.file, localExport: r.exportName, exportName: name, definition: r.definition });
  }
  for (const file of [...starWorkflowFiles].sort()) {
    const info = graph.module(file);
    const binding = info?.exports.get('default');
    if (binding?.kind === 'definition' && kindOf(binding.definition, file) === 'workflow') {
      add({ file, localExport: 'default', exportName: '*', definition: binding.definition });
    }
  }
  return { workflows, workflowFiles };
}

/** The supported re-export of `source` (bound as `binding`), or the two general forms when the source is unknown. */
function esmForm(source: string | undefined, binding: string | undefined): string {
  if (source === undefined) return FIX_FORMS;
  return binding === undefined
    ? `export * from '${source}' or export { default as <name> } from '${source}'`
    : `export { default as ${binding} } from '${source}'`;
}

function reportUnsupported(info: ModuleInfo, diagnostics: Diagnostics): void {
  for (const form of info.unsupported) {
    switch (form.kind) {
      case 'commonjs':
        diagnostics.report('reexport/commonjs', 'commonjs', info.file, form.position, { what: form.what, form: esmForm(form.source, form.binding) });
        break;
      case 'dynamic-import':
        diagnostics.report('reexport/dynamic', 'dynamic', info.file, form.position, { source: form.source, form: esmForm(form.source, undefined) });
        break;
      case 'computed-path':
        diagnostics.report('reexport/computed-path', 'computed', info.file, form.position, { what: form.what });
        break;
      // 'namespace-reexport' is reported by reportNamespaces, which knows whether the namespace holds workflows.
    }
  }
}

/** True when `specifier` (from `from`) is a workflow file or a module whose exports reach a workflow definition. */
function reachesWorkflow(graph: ExportGraph, from: string, specifier: string, isWorkflowSpecifier: WorkflowSpecifierTest): boolean {
  if (!isRelative(specifier)) return isAbsoluteSpecifier(specifier) || isWorkflowSpecifier(specifier);
  const file = graph.resolvePath(from, specifier);
  if (classifyFile(file) === 'workflow') return true;
  if (graph.store.load(file).missing) return false;
  for (const name of graph.exportNames(file)) {
    const r = graph.resolveExport(file, name);
    if (r?.kind === 'definition' && kindOf(r.definition, r.file) === 'workflow') return true;
  }
  return false;
}

/**
 * Reports namespace objects exported from an entry or barrel that hold workflows: `export * as ns from` and
 * `import * as ns from …; export { ns }` (package rule 3). Namespaces of modules without workflows are fine.
 */
function reportNamespaces(graph: ExportGraph, info: ModuleInfo, isWorkflowSpecifier: WorkflowSpecifierTest): void {
  for (const form of info.unsupported) {
    if (form.kind !== 'namespace-reexport' || !reachesWorkflow(graph, info.file, form.source, isWorkflowSpecifier)) continue;
    graph.diagnostics.report('reexport/namespace', 'exportStarAs', info.file, form.position, { name: form.exported, source: form.source });
  }
  for (const [exportName, binding] of info.exports) {
    if (binding.kind !== 'local') continue;
    const local = info.locals.get(binding.local);
    if (local?.kind !== 'import' || local.imported !== '*' || !reachesWorkflow(graph, info.file, local.source, isWorkflowSpecifier)) continue;
    graph.diagnostics.report('reexport/namespace', 'exportedNamespace', info.file, binding.position, {
      name: exportName,
      source: local.source,
      local: binding.local,
    });
  }
}

/** Reports workflows exported inside values assembled at runtime (`export default { greet }`, arrays, calls). */
function reportRuntimeAssembly(graph: ExportGraph, info: ModuleInfo): void {
  for (const [exportName, binding] of info.exports) {
    // An alias (`export const a = greet`) is followed as a re-export is, not assembled.
    if (binding.kind !== 'value' || binding.alias !== undefined) continue;
    for (const ref of binding.references) {
      const r = graph.resolveLocal(info, ref.name); // undefined for a name that is no module binding (a global)
      if (r?.kind === 'definition' && kindOf(r.definition, r.file) === 'workflow') {
        graph.diagnostics.report('reexport/runtime-assembly', 'assembled', info.file, ref.position, { name: ref.name, exportName });
      }
    }
  }
}

/**
 * Reports names that two `export *` of one module both export, bound to two different definitions of which one is a
 * workflow: ES modules leave such a name out of the module's exports (unless the module exports it itself), so that
 * workflow is not registered. Reported once per name, at the later `export *`.
 */
function reportAmbiguousStars(graph: ExportGraph, info: ModuleInfo): void {
  if (info.stars.length < 2) return;
  const firstStarOf = new Map<string, string>();
  const reported = new Set<string>();
  for (const star of info.stars) {
    if (!isRelative(star.source)) continue;
    const target = graph.resolvePath(info.file, star.source);
    if (graph.store.load(target).missing) continue;
    for (const name of graph.exportNames(target)) {
      if (name === 'default' || info.exports.has(name) || reported.has(name)) continue;
      const first = firstStarOf.get(name);
      if (first === undefined) {
        firstStarOf.set(name, star.source);
        continue;
      }
      // Two stars that reach one binding (a diamond, a cycle back to it) are no ambiguity in ES modules.
      const a = graph.resolveExport(graph.resolvePath(info.file, first), name);
      const b = graph.resolveExport(graph.resolvePath(info.file, star.source), name);
      if (a?.kind !== 'definition' || b?.kind !== 'definition' || (a.file === b.file && a.exportName === b.exportName)) continue;
      if (kindOf(a.definition, a.file) !== 'workflow' && kindOf(b.definition, b.file) !== 'workflow') continue;
      reported.add(name);
      graph.diagnostics.report('reexport/ambiguous-star', 'ambiguous', info.file, star.position, { name, first, second: star.source });
    }
  }
}

/**
 * Reports each name the module re-exports (`export { a } from './m.js'`, or an import of it exported again) that the
 * relative module it names does not export: an ES module that names a missing export fails to link, so Node refuses
 * the package's entry and the bundler the workflow code. Only where the named module's exports are all known
 * (`mayExport`); a module that does not resolve is `reexport/unresolved`'s.
 */
function reportMissingExports(graph: ExportGraph, info: ModuleInfo): void {
  const named: { name: string; source: string; position: Position }[] = [];
  for (const binding of info.exports.values()) {
    if (binding.kind === 'reexport') named.push({ name: binding.imported, source: binding.source, position: binding.position });
    else if (binding.kind === 'local') {
      const local = info.locals.get(binding.local);
      if (local?.kind === 'import' && local.imported !== '*') named.push({ name: local.imported, source: local.source, position: local.position });
    }
  }
  for (const { name, source, position } of named) {
    if (!isRelative(source)) continue;
    const target = graph.resolvePath(info.file, source);
    const facts = graph.store.load(target).missing ? undefined : graph.module(target);
    if (!facts || mayExport(facts, name, (file, source) => knownModule(graph, file, source))) continue;
    const names = graph.exportNames(target);
    const exported =
      names.length === 0
        ? 'nothing'
        : names
            .slice(0, 5)
            .map((n) => `'${n}'`)
            .join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');
    graph.diagnostics.report('reexport/missing-export', 'missing', info.file, position, { name, source, exported });
  }
}

/** One step of a re-export chain: export `name` of `file`, re-exported from `source` at `position`, by name or by `export *`. */
interface ChainLink {
  file: string;
  name: string;
  source: string;
  position: Position;
  star: boolean;
}

/** Where export `name` of `info` is re-exported from by name (`export { x } from`, or import-then-export), if it is. */
function namedSource(info: ModuleInfo, name: string): { source: string; imported: string; position: Position } | undefined {
  const binding = info.exports.get(name);
  if (binding?.kind === 'reexport') return { source: binding.source, imported: binding.imported, position: binding.position };
  if (binding?.kind !== 'local') return undefined;
  const local = info.locals.get(binding.local);
  return local?.kind === 'import' ? { source: local.source, imported: local.imported, position: binding.position } : undefined;
}

/**
 * The cycle the re-export chain of export `name` of `file` runs into, as the links of the cycle in chain order, or
 * undefined when every chain ends (at a definition, a value, a missing file, a namespace or a non-relative path). A
 * name the module neither declares nor re-exports by name is sought through its `export *` sources, as ESM does; a
 * ring made of `export *` links alone is no cycle (ESM finds no such name there, which is not an error of the ring).
 */
function namedCycle(graph: ExportGraph, file: string, name: string): ChainLink[] | undefined {
  const chain: ChainLink[] = [];
  const onChain = new Map<string, number>();
  /** (file, name) pairs searched to the end without a cycle. */
  const done = new Set<string>();
  const search = (at: { file: string; name: string }): ChainLink[] | undefined => {
    const key = `${at.file}\0${at.name}`;
    const start = onChain.get(key);
    if (start !== undefined) {
      const loop = chain.slice(start);
      return loop.some((l) => !l.star) ? loop : undefined;
    }
    if (done.has(key)) return undefined;
    const info = graph.store.load(at.file).info;
    const steps: { source: string; imported: string; position: Position; star: boolean }[] = [];
    const named = info && namedSource(info, at.name);
    if (named) {
      if (named.imported !== '*' && isRelative(named.source)) steps.push({ ...named, star: false });
    } else if (info && !info.exports.has(at.name) && at.name !== 'default') {
      for (const star of info.stars)
        if (isRelative(star.source)) steps.push({ source: star.source, imported: at.name, position: star.sourcePosition, star: true });
    }
    onChain.set(key, chain.length);
    for (const step of steps) {
      const target = graph.resolvePath(at.file, step.source);
      if (graph.store.load(target).missing) continue; // reported as `reexport/unresolved`
      chain.push({ file: at.file, name: at.name, source: step.source, position: step.position, star: step.star });
      const found = search({ file: target, name: step.imported });
      if (found) return found;
      chain.pop();
    }
    onChain.delete(key);
    done.add(key);
    return undefined;
  };
  return search({ file, name });
}

/**
 * Reports named re-exports of `info` that run into a cycle (`export { a } from './b.js'` where b.js re-exports `a`
 * from the first file, by name or through an `export *`): ESM refuses to link such a module, and discovery would
 * otherwise lose the name silently.
 * Each cycle is reported once, at the link where the chain from this module enters it; `reported` holds the cycles
 * reported so far (by their members).
 */
function reportCycles(graph: ExportGraph, info: ModuleInfo, reported: Set<string>): void {
  for (const name of info.exports.keys()) {
    const cycle = namedCycle(graph, info.file, name);
    if (!cycle) continue;
    const key = cycle
      .map((l) => `${l.file}\0${l.name}`)
      .sort()
      .join('\n');
    if (reported.has(key)) continue;
    reported.add(key);
    const first = cycle[0] as ChainLink;
    const from = dirname(first.file);
    const shown = (file: string) => {
      const rel = relative(from, file);
      return rel.startsWith('.') ? rel : `./${rel}`;
    };
    const chain = [...cycle, first].map((l) => `${shown(l.file)} '${l.name}'`).join(' → ');
    graph.diagnostics.report('reexport/cycle', cycle.some((l) => l.star) ? 'starCycle' : 'cycle', first.file, first.position, {
      name: first.name,
      source: first.source,
      chain,
    });
  }
}

/** The facts of the module `source` names from `file`, or undefined when it does not exist or cannot be read. */
function knownModule(graph: ExportGraph, file: string, source: string): ModuleInfo | undefined {
  const target = graph.resolvePath(file, source);
  return graph.store.load(target).missing ? undefined : graph.module(target);
}
