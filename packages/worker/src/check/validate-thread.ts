import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { VALIDATION_THREAD_LIMITS, ValidationInputError, validate, type ValidationReport } from '@skein/validator';
import { recordingFileSystem, type Observation } from '../cache/recording-fs.js';

/** A validation report with every file-system answer the validation read (for `ValidationCache`). */
export interface RecordedValidation {
  report: ValidationReport;
  observations: Observation[];
  /** Warnings about the per-file validation cache (corrupted, not writable), for the worker's log. */
  cacheWarnings?: string[];
}

/** What the validation thread posts back: the report, or the error that stopped it. */
type ThreadResult = RecordedValidation | { error: { name: string; message: string; stack?: string } };

/**
 * `validate(projectDir)` in a worker thread, so the parsers' memory (ASTs of every file, hundreds of MB on a
 * 1,000-workflow project) is released when the thread ends instead of staying in the worker's resident set; the thread
 * is sized by the validator's `VALIDATION_THREAD_LIMITS` (young generation capped, as the `validate-workflow-package`
 * command does). Reads through a recording file system (`recordingFileSystem`). With `cacheFile`, the validator's
 * per-file cache (`validate-workflow-package --cache`'s file): only files whose content changed since it was
 * written are parsed and checked again. With `options.shapes`, the report also carries every workflow's command
 * shapes (`ValidateOptions.shapes`).
 * Under a TypeScript runner (sources, tests) it validates in this thread.
 * @throws ValidationInputError as `validate()` does; any other failure with its message.
 */
export async function validateIsolated(projectDir: string, cacheFile?: string, options: { shapes?: boolean } = {}): Promise<RecordedValidation> {
  if (import.meta.url.endsWith('.ts')) {
    const recorder = recordingFileSystem();
    const cacheWarnings: string[] = [];
    const report = await validate(projectDir, {
      fs: recorder.fs,
      cache: cacheFile ? { file: cacheFile, onWarning: (m) => cacheWarnings.push(m) } : undefined,
      shapes: options.shapes === true,
    });
    return { report, observations: recorder.observations(), cacheWarnings };
  }
  const thread = new Worker(new URL('./validate-thread-main.js', import.meta.url), {
    workerData: { projectDir, cacheFile, shapes: options.shapes === true },
    resourceLimits: VALIDATION_THREAD_LIMITS,
  });
  const [result] = (await Promise.race([once(thread, 'message'), once(thread, 'error').then(([err]) => [{ error: err as Error }])])) as [ThreadResult];
  await thread.terminate();
  if ('report' in result) return result;
  const Err = result.error.name === 'ValidationInputError' ? ValidationInputError : Error;
  const err = new Err(result.error.message);
  if (result.error.stack) err.stack = result.error.stack;
  throw err;
}
