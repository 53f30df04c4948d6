import path from 'node:path';
import type { Manifest, ShapeSet } from '@skein/discovery';
import type { ValidationReport } from '@skein/validator';
import type { Logger } from 'pino';
import { sha1 } from '../cache/file-digests.js';
import { rememberReads, type Observation } from '../cache/answers.js';
import type { StartupCaches } from '../cache/startup-caches.js';
import { toolFingerprint } from '../cache/tool-fingerprint.js';
import { WorkerStartupError } from './errors.js';

/**
 * The form of a stored validation outcome (`ValidationCache`), part of its key: a record in another form is a miss.
 * 2: observations in the form of `@skein/discovery/observations`.
 */
const OUTCOME_FORMAT = 'validation-outcome 2';

/** The validated manifest, and whether the validation outcome came from the startup cache. */
export interface CheckedProject {
  manifest: Manifest;
  /** `hit`: the stored outcome of an unchanged project; `miss`: validated now; `off`: no cache. */
  cache: 'hit' | 'miss' | 'off';
  /** Every workflow's command shapes, when the check was begun with `shapes` and validated now (not on a hit). */
  shapes?: ShapeSet;
  /**
   * With `deferStore` after a validation: writes its outcome to the startup cache (once; later calls return the
   * same promise). A failed write is logged as a warning (the next start validates again); never rejects.
   */
  store?: () => Promise<void>;
}

/**
 * A startup check under way (`beginProjectCheck`): the cached outcome of an unchanged project, or the
 * validation running in its thread. `finishProjectCheck` settles it.
 */
export interface ProjectCheck {
  /** The project directory, resolved. */
  readonly projectDir: string;
  readonly caches: StartupCaches | undefined;
  /** `hit`: the stored outcome of an unchanged project; `miss`: a validation runs; `off`: no cache. */
  readonly cache: 'hit' | 'miss' | 'off';
  /** The report, and on a miss every file-system answer the validation read. Rejects as `validate()` does. */
  readonly outcome: Promise<{ report: ValidationReport; observations?: Observation[]; cacheWarnings?: string[] }>;
  /** The validation cache key (validator code and project root); empty without caches. */
  readonly key: string;
}

/**
 * Starts the static check of `projectDir` (see `checkProject`) and returns at once: with `caches`, an unchanged
 * project's stored outcome (`ValidationCache`: same validator code, same answers from every file, listing and
 * stat the validation read); otherwise the validator starts in its thread now (`validateIsolated`), so the
 * caller can load the rest of the worker while it runs. With `options.shapes`, a validation also derives every
 * workflow's command shapes from its parse (`CheckedProject.shapes`). The outcome's rejection is handled until
 * `finishProjectCheck` takes it over.
 */
export function beginProjectCheck(projectDir: string, caches?: StartupCaches, options: { shapes?: boolean } = {}): ProjectCheck {
  const dir = path.resolve(projectDir);
  let report: ValidationReport | null = null;
  let key = '';
  if (caches) {
    key = sha1(
      `${OUTCOME_FORMAT}\n${toolFingerprint(['@skein/validator', '@skein/discovery', '@skein/names'], ['@babel/parser', 'ts-morph'], caches.digests)}\n${dir}`,
    );
    report = caches.validation.lookup(key, caches.digests);
  }
  const cache = !caches ? 'off' : report ? 'hit' : 'miss';
  // The validator loads only when a validation runs (a worker started from a build never loads it).
  // The validator's per-file cache, shared with `validate-workflow-package --cache` (its default file,
  // `defaultCacheFile` of @skein/validator, spelled out so that this module does not load the validator) when the
  // startup caches are in their default place, else beside them; none when they are off.
  const cacheFile = !caches
    ? undefined
    : caches.dir === path.join(dir, '.skein', 'startup')
      ? path.join(dir, '.skein', 'cache', 'validate.json')
      : path.join(caches.dir, 'validate.json');
  const outcome = report
    ? Promise.resolve({ report })
    : import('./validate-thread.js').then((thread) => thread.validateIsolated(dir, { ...(cacheFile ? { cacheFile } : {}), shapes: options.shapes === true }));
  outcome.catch(() => {});
  return { projectDir: dir, caches, cache, outcome, key };
}

/**
 * Static check at startup, before the engine is contacted: runs the validator (every package rule, the
 * same as `validate-workflow-package`, in a thread of its own: `validateIsolated`) and refuses the project when any finding is an error. Warnings are
 * for authors: one summary line at info, each at debug.
 * With `caches`, an unchanged project reuses the last outcome (`ValidationCache`: same validator code, same
 * answers from every file, listing and stat the validation read); any change validates again, and the new
 * outcome is stored before this returns.
 * @returns the discovered manifest the worker serves.
 * @throws WorkerStartupError whose message is the validator's stylish report of every finding.
 */
export async function checkProject(projectDir: string, logger: Logger, caches?: StartupCaches): Promise<CheckedProject> {
  return finishProjectCheck(beginProjectCheck(projectDir, caches), logger);
}

/**
 * Settles a check begun by `beginProjectCheck` (see `checkProject`). With `deferStore`, a new outcome is not
 * written yet: `store` writes it when called (the worker does once it serves, so that the write does not
 * delay the start).
 * @throws WorkerStartupError whose message is the validator's stylish report of every finding.
 */
export async function finishProjectCheck(check: ProjectCheck, logger: Logger, options: { deferStore?: boolean } = {}): Promise<CheckedProject> {
  const { caches, cache, key } = check;
  let report: ValidationReport;
  let shapes: ShapeSet | undefined;
  let store: CheckedProject['store'];
  try {
    const outcome = await check.outcome;
    // The shapes are the build's, never part of the stored outcome.
    ({ shapes, ...report } = outcome.report);
    for (const warning of outcome.cacheWarnings ?? []) logger.warn(`validation cache: ${warning}`);
    const observations = outcome.observations;
    if (caches && observations) {
      rememberReads(observations, caches.digests);
      let stored: Promise<void> | undefined;
      store = () =>
        (stored ??= caches.validation.store(key, observations, report).then((storeError) => {
          if (storeError) logger.warn({ err: storeError }, `validation outcome not cached (${storeError.message}); the next start validates again`);
        }));
    }
  } catch (err) {
    if ((err as Error).name === 'ValidationInputError') throw new WorkerStartupError((err as Error).message);
    throw err;
  }
  if (store && !options.deferStore) {
    await store();
    store = undefined;
  }
  if (report.errorCount > 0) {
    // A refused project's outcome is stored too: the next start refuses it without validating again.
    await store?.();
    const { formatStylish } = await import('@skein/validator');
    throw new WorkerStartupError(
      `${report.root}: ${report.errorCount} error(s) in workflow packages; the worker will not start.\n${formatStylish(report, { color: false })}`,
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
  return { manifest: report.manifest, cache, ...(store ? { store } : {}), ...(shapes ? { shapes } : {}) };
}
