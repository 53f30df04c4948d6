/**
 * `compareVersions`: the versioning check alone, without the rest of the validation: the `versioning/*` findings of
 * a project's code against a baseline build or project.
 */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { createSession, discover, prepareForShapes, shapesOf, type Diagnostic } from '@skein/discovery';
import { toDiagnostic } from '../engine/file-linter.js';
import { rule as incompatibleChange } from '../rules/versioning/incompatible-change.js';
import { rule as unprovableChange } from '../rules/versioning/unprovable-change.js';
import type { ProjectRule, ProjectRuleContext, ReportDescriptor, ValidatorDiagnostic } from '../types.js';
import { BaselineError, loadBaseline, projectNameOf } from './baseline.js';
import { pinnedChanges } from './check.js';

/** A finding of `compareVersions`: always a `versioning/*` rule, with `data.workflow` naming the workflow. */
export type Finding = ValidatorDiagnostic;

/**
 * Compares the workflows of the project at `dir` with `baseline`.
 * @param options `dir`: the new code (a project directory); `baseline`: a build directory made by `skein build`
 *   (its recorded shapes) or a project directory (its shapes derived now)
 * @returns the `versioning/incompatible-change` and `versioning/unprovable-change` findings, sorted by file, line and
 *   column; empty when nothing is reported, or when the baseline build predates recorded shapes (then `onWarning`,
 *   default none, receives one line); `onNote` (default none) receives one line per pinned workflow whose commands
 *   changed (information: its runs finish on the build they started on)
 * @throws BaselineError when the baseline is not a build or a project, or is of another project
 */
export async function compareVersions(options: {
  dir: string;
  baseline: string;
  onWarning?: (line: string) => void;
  onNote?: (line: string) => void;
}): Promise<Finding[]> {
  const dir = path.resolve(options.dir);
  const loaded = await loadBaseline(options.baseline, projectNameOf(dir));
  if (!loaded.shapes) {
    options.onWarning?.(loaded.skipped);
    return [];
  }
  const session = createSession();
  prepareForShapes(session, realpathSync(dir), loaded.shapes);
  const manifest = await discover(dir, { session });
  const current = shapesOf(session, manifest, loaded.shapes);
  const findings: Finding[] = [];
  const versioning = { baseline: loaded.shapes, current, root: manifest.root };
  for (const name of pinnedChanges(versioning))
    options.onNote?.(`pinned workflow "${name}" changed its commands; its runs finish on the build they started on`);
  for (const rule of [incompatibleChange, unprovableChange] as unknown as ProjectRule<string>[]) {
    // The versioning rules read only `versioning` and `report` of their context.
    const context = { versioning, report: (d: ReportDescriptor & { file: string }) => findings.push(toDiagnostic(rule.meta, d.file, d)) };
    void rule.check(context as unknown as ProjectRuleContext);
  }
  return findings.sort(compareFindings);
}

function compareFindings(a: Diagnostic, b: Diagnostic): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column;
}

export { BaselineError };
