import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { VALIDATION_THREAD_LIMITS, ValidationInputError, validate, type ValidationReport } from '@skein/validator';
import { recordingFileSystem, type Observation } from '../cache/recording-fs.js';

/** A validation report with every file-system answer the validation read (for `ValidationCache`). */
export interface RecordedValidation {
  report: ValidationReport;
  observations: Observation[];
}

/** What the validation thread posts back: the report, or the error that stopped it. */
type ThreadResult = RecordedValidation | { error: { name: string; message: string; stack?: string } };

/**
 * `validate(projectDir)` in a worker thread, so the parsers' memory (ASTs of every file, hundreds of MB on a
 * 1,000-workflow project) is released when the thread ends instead of staying in the worker's resident set; the thread
 * is sized by the validator's `VALIDATION_THREAD_LIMITS` (young generation capped, as the `validate-workflow-package`
 * command does). Reads through a recording file system (`recordingFileSystem`).
 * Under a TypeScript runner (sources, tests) it validates in this thread.
 * @throws ValidationInputError as `validate()` does; any other failure with its message.
 */
export async function validateIsolated(projectDir: string): Promise<RecordedValidation> {
  if (import.meta.url.endsWith('.ts')) {
    const recorder = recordingFileSystem();
    const report = await validate(projectDir, { fs: recorder.fs });
    return { report, observations: recorder.observations() };
  }
  const thread = new Worker(new URL('./validate-thread-main.js', import.meta.url), { workerData: { projectDir }, resourceLimits: VALIDATION_THREAD_LIMITS });
  const [result] = (await Promise.race([once(thread, 'message'), once(thread, 'error').then(([err]) => [{ error: err as Error }])])) as [ThreadResult];
  await thread.terminate();
  if ('report' in result) return result;
  const Err = result.error.name === 'ValidationInputError' ? ValidationInputError : Error;
  const err = new Err(result.error.message);
  if (result.error.stack) err.stack = result.error.stack;
  throw err;
}
