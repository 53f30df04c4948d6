import { existsSync } from 'node:fs';
import path from 'node:path';

/** The file that describes a build (`BuildRecord`); written last, so a build without it is incomplete. */
export const BUILD_RECORD = 'skein-build.json';

/** The files of a build besides its record. */
export const BUILD_FILES = {
  /** The workflow bundle (`Worker.create({ workflowBundle: { code } })`). */
  bundle: 'workflow-bundle.js',
  /** The discovered manifest (`@skein/discovery`'s `Manifest`), without what a worker does not read (`activityTypes`, findings). */
  manifest: 'manifest.json',
  /** The definitions' facts (`ProjectFacts`): names, schemas, activity options, in the manifest's order. */
  facts: 'definitions.json',
  /** The catalog document a worker of this build publishes (for reading and comparing; the worker derives it again). */
  catalog: 'catalog.json',
  /**
   * Each workflow's command shape and versioning behaviour (`ShapeSet` of @skein/discovery), the baseline of
   * `skein build --baseline` / `validate-workflow-package --baseline`. A worker never reads it; a build made before
   * it existed lacks it (the check then warns once and is skipped).
   */
  shapes: 'command-shapes.json',
} as const;

/** Build files a worker needs to serve the build (every one must be there, unchanged). */
export const SERVED_BUILD_FILES = [BUILD_FILES.bundle, BUILD_FILES.manifest, BUILD_FILES.facts, BUILD_FILES.catalog] as const;

/**
 * Whether `dir` holds a build made by `skein build`, complete or not, so that `skein worker <dir>` serves it as a
 * build (and refuses an incomplete one) rather than as a project: its record is there, or it has no
 * `package.json` (every project has one, no build does) and one of a build's files. Synchronous.
 */
export function looksLikeBuild(dir: string): boolean {
  if (existsSync(path.join(dir, BUILD_RECORD))) return true;
  return !existsSync(path.join(dir, 'package.json')) && Object.values(BUILD_FILES).some((name) => existsSync(path.join(dir, name)));
}
