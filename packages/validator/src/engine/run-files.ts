/**
 * Checks every file that plays a role (workflow, steps, evaluators, shared activities) and the workflow code they
 * import, breadth-first, through the session's store: a file discovery already loaded was linted in that same
 * traversal; any other is loaded now (read once, parsed once, walked once with every file rule). Its imports are
 * resolved into the module graph. Dependency files reached from workflow code only have their imports collected
 * (package rule 12). Finally every other own source file is looked at for misplaced definitions.
 */
import * as path from 'node:path';
import { ModuleGraph, type ImportEdge } from '../graph/module-graph.js';
import type { Resolver } from '../graph/resolve.js';
import { meta as outsidePackage } from '../rules/fs/outside-package.js';
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
  return { graph, filesChecked: linter.linted.size };
}

/** The directory a file's package is rooted at (for rule contexts). */
export function packageRootFor(resolver: Resolver, file: string): string {
  return resolver.packageRootOf(file) ?? path.dirname(file);
}
