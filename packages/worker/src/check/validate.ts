import path from 'node:path';
import type { Manifest, ShapeSet } from '@skein/discovery';
import type { ValidationReport } from '@skein/validator';
import type { Logger } from 'pino';
import { rememberReads } from '../cache/answers.js';
import type { StartupCaches } from '../cache/startup-caches.js';
import { WorkerStartupError } from './errors.js';
import type { OnManifest, RecordedValidation } from './validate-thread.js';

/** The validated manifest, and whether the validation outcome came from the cache. */
export interface CheckedProject {
  manifest: Manifest;
  /** `hit`: the stored report of an unchanged project; `miss`: (re)validated now; `off`: no cache. */
  cache: 'hit' | 'miss' | 'off';
  /** Every workflow's command shapes, when the check was begun with `shapes` (always validated in full). */
  shapes?: ShapeSet;
}

/**
 * A startup check under way (`beginProjectCheck`): the validation running in its thread, through the validator's
 * cache when the startup caches are on. `finishProjectCheck` settles it.
 */
export interface ProjectCheck {
  /** The project directory, resolved. */
  readonly projectDir: string;
  readonly caches: StartupCaches | undefined;
  /** The validation's outcome. Rejects as `validate()` does. */
  readonly outcome: Promise<RecordedValidation>;
}

/**
 * The validator's cache file of a worker's startup check: the one `validate-workflow-package --cache` uses by default
 * (`<project>/.skein/cache/validate.json`, `defaultCacheFile` of @skein/validator, spelled out so that this module does
 * not load the validator) when the startup caches are in their default place, else `validate.json` beside them.
 */
export function startupValidationCacheFile(projectDir: string, caches: StartupCaches): string {
  const dir = path.resolve(projectDir);
  return caches.dir === path.join(dir, '.skein', 'startup') ? path.join(dir, '.skein', 'cache', 'validate.json') : path.join(caches.dir, 'validate.json');
}

/**
 * Starts the static check of `projectDir` (see `checkProject`) and returns at once: the validator runs in its thread
 * (`validateIsolated`), so the caller can load the rest of the worker while it runs. With `caches`, through the
 * validator's cache (`validateWithCache`): an unchanged project's stored report is read and its answers checked (every
 * file's stat, each listing the validation made), and nothing of the analysis is loaded; after an edit only the edited
 * files are checked again. With `options.shapes`, a validation also derives every workflow's command shapes from its
 * parse (`CheckedProject.shapes`). With `options.onManifest`, a validation that analyses the project tells it the
 * discovered manifest before the rules have run (not validated yet: for work that executes nothing of the project).
 * The outcome's rejection is handled until `finishProjectCheck` takes it over.
 */
export function beginProjectCheck(projectDir: string, caches?: StartupCaches, options: { shapes?: boolean; onManifest?: OnManifest } = {}): ProjectCheck {
  const dir = path.resolve(projectDir);
  const cacheFile = caches ? startupValidationCacheFile(dir, caches) : undefined;
  const outcome = import('./validate-thread.js').then((thread) =>
    thread.validateIsolated(dir, { ...(cacheFile ? { cacheFile } : {}), shapes: options.shapes === true }, options.onManifest),
  );
  outcome.catch(() => {});
  return { projectDir: dir, caches, outcome };
}

/**
 * Static check at startup, before the engine is contacted: runs the validator (every package rule, the
 * same as `validate-workflow-package`, in a thread of its own: `validateIsolated`) and refuses the project when any
 * finding is an error. Warnings are for authors: one summary line at info, each at debug.
 * With `caches`, through the validator's cache (`validate-workflow-package --cache`'s file): an unchanged project
 * reuses the last report, a refused one included; any change is checked again.
 * @returns the discovered manifest the worker serves.
 * @throws WorkerStartupError whose message is the validator's stylish report of every finding.
 */
export async function checkProject(projectDir: string, logger: Logger, caches?: StartupCaches): Promise<CheckedProject> {
  return finishProjectCheck(beginProjectCheck(projectDir, caches), logger);
}

/**
 * Settles a check begun by `beginProjectCheck` (see `checkProject`).
 * @throws WorkerStartupError whose message is the validator's stylish report of every finding.
 */
export async function finishProjectCheck(check: ProjectCheck, logger: Logger): Promise<CheckedProject> {
  const { caches } = check;
  let report: ValidationReport;
  let shapes: ShapeSet | undefined;
  let cache: CheckedProject['cache'];
  try {
    const outcome = await check.outcome;
    ({ shapes, ...report } = outcome.report);
    cache = !caches ? 'off' : outcome.path === 'stored' ? 'hit' : 'miss';
    for (const warning of outcome.cacheWarnings ?? []) logger.warn(`validation cache: ${warning}`);
    // What the validation read: the bundle and facts caches then only stat those files.
    if (caches && outcome.observations) rememberReads(outcome.observations, caches.digests);
  } catch (err) {
    if ((err as Error).name === 'ValidationInputError') throw new WorkerStartupError((err as Error).message);
    throw err;
  }
  if (report.errorCount > 0) {
    const { formatStylish } = await import('@skein/validator');
    throw new WorkerStartupError(
      `${report.root}: ${report.errorCount} error(s) in workflow packages; this code is not served, built or replayed until they are fixed.\n${formatStylish(report, { color: false })}`,
    );
  }
  // Warnings are for the package's author (validate-workflow-package shows them): one line for operators,
  // the details at debug level.
  for (const d of report.diagnostics) {
    logger.debug({ ruleId: d.ruleId, file: d.file, line: d.line, column: d.column, hint: d.hint }, d.message);
  }
  if (report.diagnostics.length > 0) {
    logger.info(
      { warnings: report.diagnostics.length },
      `${report.diagnostics.length} packaging warning(s) for authors; run "npx validate-workflow-package ${report.root}" to list them`,
    );
  }
  return { manifest: report.manifest, cache, ...(shapes ? { shapes } : {}) };
}
