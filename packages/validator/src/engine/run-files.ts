/**
 * Checks every file that plays a role (workflow, steps, evaluators, shared activities) and the workflow
 * code they import, breadth-first: each file is read once through the confined file system, parsed once
 * and traversed once with all file rules; its imports are resolved into the module graph. Dependency
 * files reached from workflow code only have their imports collected (SPEC rule 12).
 */
import * as path from 'node:path';
import type { ValidatorFs } from '../fs/confined-fs.js';
import { ModuleGraph, type ImportEdge } from '../graph/module-graph.js';
import type { Resolver } from '../graph/resolve.js';
import { isActivityRole } from '../rules/util/ast.js';
import { meta as fileTooLarge } from '../rules/fs/file-too-large.js';
import { meta as outsidePackage } from '../rules/fs/outside-package.js';
import { meta as unreadable } from '../rules/fs/unreadable.js';
import type { CodeRole, FileRole, FileRule, PackageInfo, ResolvedImport, RuleMeta, ValidatorDiagnostic } from '../types.js';
import type { ImportSite } from './import-collector.js';
import { lintFile, toDiagnostic } from './lint-file.js';

const CODE_FILE = /\.(?:[mc]?js|jsx|[mc]?ts)$/;

/** Input of `runFiles`. */
export interface RunFilesInput {
  fs: ValidatorFs;
  resolver: Resolver;
  packages: readonly PackageInfo[];
  rules: readonly FileRule[];
  classify(file: string): FileRole | null;
  /** Skips engine findings (syntax, size, unreadable) discovery already reported for a file. */
  alreadyReported(ruleId: string, file: string): boolean;
  report(d: ValidatorDiagnostic): void;
}

/** What `runFiles` found. */
export interface RunFilesResult {
  graph: ModuleGraph;
  /** Files read and parsed (own and dependency). */
  filesChecked: number;
}

/**
 * Import sites of dependency files, shared by every validation in this process (the worker, tests, the
 * benchmark), keyed by real path and checked against size and modification time.
 */
const dependencySites = new Map<string, { fingerprint: string; sites: ImportSite[] | null }>();
const MAX_CACHED_DEPENDENCY_FILES = 20_000;

interface Job {
  file: string;
  role: CodeRole | 'dependency';
  packageRoot: string;
}

/** Runs the file rules over every role file of `packages` and the workflow code they reach. */
export function runFiles(input: RunFilesInput): RunFilesResult {
  const { fs, resolver } = input;
  const graph = new ModuleGraph();
  const queued = new Set<string>();
  const queue: Job[] = [];
  for (const pkg of input.packages) {
    for (const file of pkg.files) {
      const role = input.classify(file);
      if (role === null || queued.has(file)) continue;
      queued.add(file);
      queue.push({ file, role, packageRoot: pkg.root });
      if (role === 'workflow') graph.entries.push(file);
    }
  }
  graph.entries.sort();

  let filesChecked = 0;
  for (let i = 0; i < queue.length; i++) {
    const job = queue[i] as Job;
    const own = job.role !== 'dependency';
    const engineReport = (meta: RuleMeta, messageId: string, data: Record<string, string>, loc?: { line: number; column: number }) => {
      if (own && !input.alreadyReported(meta.id, job.file)) input.report(toDiagnostic({ meta }, job.file, { messageId, data, ...(loc ? { loc } : {}) }));
    };
    const memo = new Map<string, ResolvedImport>();
    const resolve = (specifier: string): ResolvedImport => {
      let r = memo.get(specifier);
      if (!r) {
        r = resolver.resolve(job.file, specifier);
        memo.set(specifier, r);
      }
      return r;
    };

    const fingerprint = own ? null : fs.fingerprint(job.file);
    const cached = fingerprint === null ? undefined : dependencySites.get(job.file);
    let sites: ImportSite[] | null;
    if (cached && cached.fingerprint === fingerprint) {
      sites = cached.sites;
    } else {
      const read = fs.readText(job.file);
      if (!read.ok) {
        if (read.reason === 'too-large') engineReport(fileTooLarge, 'tooLarge', { size: String(read.size), max: String(fs.maxFileBytes) });
        else if (read.reason === 'outside') engineReport(outsidePackage, 'symlink', { file: path.relative(job.packageRoot, job.file), target: read.realPath ?? '?' });
        else engineReport(unreadable, 'unreadable', { reason: read.reason });
        continue;
      }
      sites = lintFile({
        file: job.file,
        text: read.text,
        role: job.role,
        packageRoot: job.packageRoot,
        rules: input.rules,
        resolve,
        report: (d) => {
          if (d.ruleId === 'parse/syntax-error' && input.alreadyReported(d.ruleId, job.file)) return;
          input.report(d);
        },
      });
      if (fingerprint !== null && dependencySites.size < MAX_CACHED_DEPENDENCY_FILES) dependencySites.set(job.file, { fingerprint, sites });
    }
    filesChecked++;
    if (sites === null) continue;

    const edges: ImportEdge[] = sites.map((s) => ({ ...s, resolved: resolve(s.specifier) }));
    graph.set({ file: job.file, role: job.role, own, edges });
    const followsImports = job.role === 'workflow' || job.role === 'workflow-code' || job.role === 'dependency';
    for (const edge of edges) {
      const r = edge.resolved;
      if (r.kind === 'outside' && own) {
        engineReport(outsidePackage, 'importPath', { specifier: JSON.stringify(edge.specifier), target: r.path }, edge);
        continue;
      }
      if (!followsImports || r.kind !== 'file' || queued.has(r.path) || isActivityRole(r.role) || !CODE_FILE.test(r.path)) continue;
      queued.add(r.path);
      queue.push({ file: r.path, role: r.inPackage ? 'workflow-code' : 'dependency', packageRoot: resolver.packageRootOf(r.path) ?? path.dirname(r.path) });
    }
  }
  return { graph, filesChecked };
}
