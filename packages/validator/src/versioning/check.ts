/**
 * The comparison behind the `versioning/*` rules: each workflow of the baseline that the new code still serves,
 * judged by `compareShapes` of @skein/discovery. Only workflows `auto-upgrade` in the baseline (or whose behaviour
 * there is not a literal) are judged, whatever the new code says: a run takes the behaviour of the build that ran its
 * last workflow task, so the runs open on the baseline build move to the new build and replay there even when the new
 * code makes the workflow pinned. A workflow pinned in the baseline keeps its runs on that build: never a finding.
 */
import * as path from 'node:path';
import { compareShapes, sameShape, type ShapeSet, type ShapeVerdict } from '@skein/discovery';

/** What the versioning rules compare: the baseline's shapes and the new code's, and the new project's root. */
export interface VersioningInput {
  baseline: ShapeSet;
  current: ShapeSet;
  /** Real path of the validated root (shape files are relative to it). */
  root: string;
}

/** One judged workflow. */
export interface WorkflowVerdict {
  workflow: string;
  verdict: ShapeVerdict;
  /** The absolute path of a file of the new code named in a verdict. */
  absolute(file: string): string;
}

const cache = new WeakMap<VersioningInput, WorkflowVerdict[]>();

/**
 * The verdicts of every auto-upgrade workflow present in both versions, in the new code's order; computed once per
 * input. Empty when the context carries no baseline.
 */
export function versioningVerdicts(context: { versioning?: VersioningInput | undefined }): WorkflowVerdict[] {
  const input = context.versioning;
  if (!input) return [];
  let verdicts = cache.get(input);
  if (!verdicts) {
    verdicts = judge(input);
    cache.set(input, verdicts);
  }
  return verdicts;
}

/**
 * The workflows pinned in the baseline whose commands changed: information, never a finding (their runs finish on
 * the build they started on), in the new code's order.
 */
export function pinnedChanges(input: VersioningInput): string[] {
  const out: string[] = [];
  for (const [workflow, next] of Object.entries(input.current.workflows)) {
    const old = input.baseline.workflows[workflow];
    if (old?.versioningBehavior !== 'pinned') continue;
    if (!sameShape(old.shape, next.shape) || !sameShape(old.handlers, next.handlers)) out.push(workflow);
  }
  return out;
}

/** Judges every workflow (see `versioningVerdicts`). */
export function judge(input: VersioningInput): WorkflowVerdict[] {
  const out: WorkflowVerdict[] = [];
  const absolute = (file: string) => path.resolve(input.root, file);
  for (const [workflow, next] of Object.entries(input.current.workflows)) {
    const old = input.baseline.workflows[workflow];
    if (!old) continue; // new workflow: no recorded runs
    if (old.versioningBehavior === 'pinned') continue; // old runs were pinned to the baseline build
    out.push({ workflow, verdict: compareShapes(old, next), absolute });
  }
  return out;
}
