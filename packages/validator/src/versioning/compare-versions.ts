/**
 * `compareVersions`: the versioning check alone, without the rest of the validation: the `versioning/*` findings of
 * a project's code against a baseline build or project.
 */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { createSession, discover, prepareForShapes, shapesOf, type Diagnostic, type ShapeSet } from '@skein/discovery';
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
  return (await compareWithShapes(dir, loaded.shapes, { onNote: options.onNote })).findings;
}

/**
 * `compareVersions` against shapes in hand (derived earlier: `deriveCommandShapes` of `@skein/discovery`, or the
 * `current` of an earlier call), for a loop that keeps the shapes of the code it serves (`skein dev`).
 * @param options `everyRunMovesOn`: judge every workflow as auto-upgrade, for a host whose runs all continue on the
 *   new code whatever their versioning behaviour (`skein dev` serves every reload as one build); `onNote` as for
 *   `compareVersions` (never called with `everyRunMovesOn`)
 * @returns the findings (as `compareVersions`'s) and the shapes of the code at `dir` now
 */
export async function compareWithShapes(
  dir: string,
  baseline: ShapeSet,
  options: { everyRunMovesOn?: boolean; onNote?: (line: string) => void } = {},
): Promise<{ findings: Finding[]; current: ShapeSet }> {
  const session = createSession();
  prepareForShapes(session, realpathSync(dir), baseline);
  const manifest = await discover(dir, { session });
  const current = shapesOf(session, manifest, baseline);
  const findings: Finding[] = [];
  const versioning = options.everyRunMovesOn
    ? { baseline: movingOn(baseline), current: movingOn(current), root: manifest.root }
    : { baseline, current, root: manifest.root };
  for (const name of pinnedChanges(versioning))
    options.onNote?.(`pinned workflow "${name}" changed its commands; its runs finish on the build they started on`);
  for (const rule of [incompatibleChange, unprovableChange] as unknown as ProjectRule<string>[]) {
    // The versioning rules read only `versioning` and `report` of their context.
    const context = { versioning, report: (d: ReportDescriptor & { file: string }) => findings.push(toDiagnostic(rule.meta, d.file, d)) };
    void rule.check(context as unknown as ProjectRuleContext);
  }
  return { findings: findings.sort(compareFindings), current };
}

/** `shapes` with every workflow auto-upgrade (its runs move on to the new code). */
function movingOn(shapes: ShapeSet): ShapeSet {
  const workflows: ShapeSet['workflows'] = {};
  for (const [name, shape] of Object.entries(shapes.workflows)) workflows[name] = { ...shape, versioningBehavior: 'auto-upgrade' };
  return { ...shapes, workflows };
}

function compareFindings(a: Diagnostic, b: Diagnostic): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column;
}

export { BaselineError };
