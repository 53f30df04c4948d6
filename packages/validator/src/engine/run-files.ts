/**
 * Checks every file that plays a role (workflow, steps, evaluators, shared activities) and the workflow code they
 * import, breadth-first, through the session's store: a file discovery already loaded was linted in that same
 * traversal; any other is loaded now (read once, parsed once, walked once with every file rule). Its imports are
 * resolved into the module graph. Dependency files reached from workflow code only have their imports collected
 * (package rule 12). Then every other own source file is looked at for misplaced definitions. Last, with every file
 * loaded, the named imports of the files the worker loads are checked against their modules' exports.
 */
import * as path from 'node:path';
import { isRelative } from '@skein/discovery';
import { ModuleGraph, type ImportEdge } from '../graph/module-graph.js';
import type { Resolver } from '../graph/resolve.js';
import { meta as outsidePackage } from '../rules/fs/outside-package.js';
import { meta as missingExport, missingExportReports } from '../rules/imports/missing-export.js';
import { meta as unresolvedImport, unresolvedImportReport } from '../rules/fs/unresolved-import.js';
import { isActivityRole } from '../rules/util/ast.js';
import type { CodeRole, FileRole, PackageInfo } from '../types.js';
import { isOwnSource, toDiagnostic, type FileLinter } from './file-linter.js';

const CODE_FILE = /\.(?:[mc]?js|jsx|[mc]?ts|tsx)$/;

/** Input of `runFiles`. */
export interface RunFilesInput {
  linter: FileLinter;
  resolver: Resolver;
  packages: readonly PackageInfo[];
  classify(file: string): FileRole | null;
}

/** What `runFiles` found. */
export interface RunFilesResult {
  graph: ModuleGraph;
  /** Files the rules looked at (own and dependency). */
  filesChecked: number;
}

interface Job {
  file: string;
  role: CodeRole | 'dependency';
}

/** Runs the file rules over every role file of `packages`, the workflow code they reach, and the other own sources. */
export function runFiles(input: RunFilesInput): RunFilesResult {
  const { linter, resolver } = input;
  const { store, diagnostics } = linter.session;
  const graph = new ModuleGraph();
  const queued = new Set<string>();
  const queue: Job[] = [];
  for (const pkg of input.packages) {
    for (const file of pkg.files) {
      const role = input.classify(file);
      if (role === null || queued.has(file)) continue;
      queued.add(file);
      queue.push({ file, role });
      if (role === 'workflow') graph.entries.push(file);
    }
  }
  graph.entries.sort();

  const lint = (job: Job): boolean => {
    const own = job.role !== 'dependency';
    linter.pending.set(job.file, job.role);
    if (!store.has(job.file)) {
      if (own) store.loadReporting(job.file, diagnostics);
      else store.load(job.file);
    } else if (linter.linted.get(job.file) !== job.role) {
      if (own) store.loadReporting(job.file, diagnostics);
      store.revisit(job.file); // first loaded before its role was known (a barrel that workflow code imports)
    }
    return linter.linted.get(job.file) === job.role;
  };

  for (let i = 0; i < queue.length; i++) {
    const job = queue[i] as Job;
    const own = job.role !== 'dependency';
    if (!lint(job)) continue;
    // The import sites discovery's collector recorded in the file's traversal; a computed specifier is no edge.
    const edges: ImportEdge[] = [];
    for (const site of store.load(job.file).info?.importSites ?? []) {
      if (site.specifier === null) continue;
      const edge: ImportEdge = { specifier: site.specifier, line: site.line, column: site.column, resolved: resolver.resolve(job.file, site.specifier) };
      edges.push(edge);
      if (own) {
        const unresolved = unresolvedImportReport(linter.session.fs, job.file, site, edge.resolved, () => packageRootFor(resolver, job.file));
        if (unresolved) diagnostics.add(toDiagnostic(unresolvedImport, job.file, unresolved));
      }
    }
    graph.set({ file: job.file, role: job.role, own, edges });
    const followsImports = job.role === 'workflow' || job.role === 'workflow-code' || job.role === 'dependency';
    for (const edge of edges) {
      const r = edge.resolved;
      if (r.kind === 'outside' && own) {
        diagnostics.add(
          toDiagnostic(outsidePackage, job.file, { messageId: 'importPath', data: { specifier: JSON.stringify(edge.specifier), target: r.path }, loc: edge }),
        );
        continue;
      }
      if (!followsImports || r.kind !== 'file' || queued.has(r.path) || isActivityRole(r.role) || !CODE_FILE.test(r.path)) continue;
      queued.add(r.path);
      queue.push({ file: r.path, role: r.inPackage ? 'workflow-code' : 'dependency' });
    }
  }

  // Every other own source file: only `conventions/misplaced-definition` looks at it (role `other`).
  for (const pkg of input.packages) {
    for (const file of pkg.files) {
      if (queued.has(file) || !isOwnSource(file)) continue;
      queued.add(file);
      lint({ file, role: 'other' });
    }
  }
  reportMissingExports(linter, resolver, graph);
  return { graph, filesChecked: linter.linted.size };
}

/**
 * `imports/missing-export` (rules/imports/missing-export.ts) over the own files the worker loads: the graph's own
 * files (role files and the workflow code they import) and, through their relative imports, the modules activity
 * files import (linted as `other`). Runs once every file is loaded, so it reads facts and never loads a file.
 */
function reportMissingExports(linter: FileLinter, resolver: Resolver, graph: ModuleGraph): void {
  const { store, diagnostics } = linter.session;
  /** The facts of an own module `source` names from `file`, when it is loaded (this pass never loads a file). */
  const ownModule = (file: string, source: string) => {
    const target = resolver.resolve(file, source);
    return target.kind === 'file' && target.inPackage && store.has(target.path) ? store.load(target.path).info : undefined;
  };
  const loaded: string[] = [];
  const seen = new Set<string>();
  for (const node of graph.nodes.values()) {
    if (!node.own) continue;
    seen.add(node.file);
    loaded.push(node.file);
  }
  for (let i = 0; i < loaded.length; i++) {
    const file = loaded[i] as string;
    const info = store.has(file) ? store.load(file).info : undefined;
    if (!info) continue;
    const role = graph.get(file)?.role;
    const workflowCode = role === 'workflow' || role === 'workflow-code';
    for (const declaration of info.imports) {
      if (!isRelative(declaration.source)) continue;
      const target = resolver.resolve(file, declaration.source);
      if (target.kind !== 'file' || !target.inPackage || !CODE_FILE.test(target.path) || !store.has(target.path)) continue;
      if (!seen.has(target.path)) {
        seen.add(target.path);
        loaded.push(target.path);
      }
      if (workflowCode && isActivityRole(target.role)) continue; // `steps/import-style` says what a steps file exports
      const targetInfo = store.load(target.path).info;
      if (!targetInfo) continue;
      for (const report of missingExportReports(declaration, targetInfo, ownModule)) diagnostics.add(toDiagnostic(missingExport, file, report));
    }
  }
}

/** The directory a file's package is rooted at (for rule contexts). */
export function packageRootFor(resolver: Resolver, file: string): string {
  return resolver.packageRootOf(file) ?? path.dirname(file);
}
