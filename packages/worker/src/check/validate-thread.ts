import { Worker } from 'node:worker_threads';
import { VALIDATION_THREAD_LIMITS, ValidationInputError, validateWithCache, type CachePath } from '@skein/validator/cached';
import type { ValidationReport } from '@skein/validator';
import type { Observation } from '@skein/discovery/observations';
import type { Manifest } from '@skein/discovery';
import { servedManifest } from './served-manifest.js';

/** A validation report, which path of the validator's cache answered, and the file-system answers a new report stands on. */
export interface RecordedValidation {
  /** The report, its manifest as a worker serves it (`servedManifest`: no `activityTypes`, no findings of its own). */
  report: ValidationReport;
  /**
   * Which path of the validator's cache answered (`stored`: the report of an unchanged project); absent without a
   * cache file.
   */
  path?: CachePath;
  /**
   * With a cache file, when the report was not simply the stored one: the answers it stands on (`onAnswers` of the
   * validator's cache), for the worker's file digests.
   */
  observations?: Observation[];
  /** Warnings about the per-file validation cache (corrupted, not writable), for the worker's log. */
  cacheWarnings?: string[];
}

/** What the validation thread posts back: the report, or the error that stopped it. */
type ThreadResult = RecordedValidation | { error: { name: string; message: string; stack?: string } };

/** What the validation thread posts: with `ValidationRequest.manifestEarly`, the discovered manifest first; then its result. */
export type ThreadMessage = ThreadResult | { manifest: Manifest };

/** Options of a startup validation: the validator's cache file, and whether to derive command shapes too. */
export interface ValidationRequest {
  /** The validator's cache file (`validate-workflow-package --cache`'s); none when the startup caches are off. */
  cacheFile?: string;
  /** Also every workflow's command shapes (`ValidateOptions.shapes`). */
  shapes?: boolean;
}

/** Told the discovered manifest before the validation ends (`ValidateOptions.onManifest`), as a worker serves it. */
export type OnManifest = (manifest: Manifest) => void;

/**
 * Validates `projectDir` in this thread. With `cacheFile`, through the validator's cache as
 * `validate-workflow-package --cache` does (`validateWithCache`): the stored report of an unchanged project (nothing
 * of the analysis is loaded), only the edited files checked again when their facts and findings stand, or a
 * validation parsing only the files whose content changed. Without one, `validate()`.
 * @throws ValidationInputError as `validate()` does.
 */
export async function recordValidation(projectDir: string, request: ValidationRequest, onManifest?: OnManifest): Promise<RecordedValidation> {
  const shapes = request.shapes === true;
  const early = onManifest ? { onManifest: (manifest: Manifest) => onManifest(servedManifest(manifest)) } : {};
  if (request.cacheFile === undefined) {
    const { validate } = await import('@skein/validator');
    return { report: served(await validate(projectDir, { shapes, ...early })) };
  }
  const cacheWarnings: string[] = [];
  let observations: Observation[] | undefined;
  let path: CachePath | undefined;
  const report = await validateWithCache(
    projectDir,
    { cache: { file: request.cacheFile, onWarning: (m) => cacheWarnings.push(m), onAnswers: (o) => (observations = o) }, shapes, ...early },
    (p) => (path = p),
  );
  // A stored report's answers are the ones the worker's digests learnt when it was made: not sent again.
  return { report: served(report), ...(path ? { path } : {}), ...(observations && path !== 'stored' ? { observations } : {}), cacheWarnings };
}

/** The report with the manifest a worker serves (`servedManifest`): what the thread hands over is a tenth as large. */
const served = (report: ValidationReport): ValidationReport => ({ ...report, manifest: servedManifest(report.manifest) });

/**
 * `recordValidation(projectDir, request)` in a worker thread: the worker's main thread loads Temporal's SDK meanwhile,
 * and the parsers' memory (ASTs of every file, hundreds of MB on a 1,000-workflow project) is released when the thread
 * ends instead of staying in the worker's resident set; the thread is sized by the validator's
 * `VALIDATION_THREAD_LIMITS` (young generation capped, as the `validate-workflow-package` command does). Under a
 * TypeScript runner (sources, tests) it validates in this thread.
 * @throws ValidationInputError as `validate()` does; any other failure with its message.
 */
export async function validateIsolated(projectDir: string, request: ValidationRequest = {}, onManifest?: OnManifest): Promise<RecordedValidation> {
  if (import.meta.url.endsWith('.ts')) return recordValidation(projectDir, request, onManifest);
  const thread = new Worker(new URL('./validate-thread-main.js', import.meta.url), {
    workerData: { projectDir, request: { ...request, manifestEarly: onManifest !== undefined } },
    resourceLimits: VALIDATION_THREAD_LIMITS,
  });
  const result = await new Promise<ThreadResult>((resolve) => {
    thread.on('message', (message: ThreadMessage) => {
      if ('manifest' in message) onManifest?.(message.manifest);
      else resolve(message);
    });
    thread.once('error', (err: Error) => resolve({ error: { name: err.name, message: err.message, ...(err.stack ? { stack: err.stack } : {}) } }));
  });
  await thread.terminate();
  if ('report' in result) return result;
  const Err = result.error.name === 'ValidationInputError' ? ValidationInputError : Error;
  const err = new Err(result.error.message);
  if (result.error.stack) err.stack = result.error.stack;
  throw err;
}
