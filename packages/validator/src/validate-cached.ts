/**
 * `validateWithCache(root, options)`: `validate()` with its persistent cache (`validate-workflow-package --cache`),
 * through a fast path that loads nothing of the analysis when it can answer:
 * 1. the cache file's snapshot holds the last full analysis' report and every file-system answer it read; when the
 *    key is the same (version, code, options, root) and every answer holds, that report is returned as is;
 * 2. when only the content of some source files differs (files whose content reaches the report only through their
 *    facts and findings), those files alone are parsed and checked again (`rederive`); when what they yield is what
 *    they yielded before (a changed expression inside a function body that moves no declaration), the stored report
 *    still stands, and their new records are appended to the cache file (a delta line: `CacheDelta`);
 * 3. otherwise `validate()` runs with the per-file records of the cache: only files whose content changed are parsed
 *    and walked; discovery, the import graph and the project rules run again from the facts of the others.
 * Each path returns the report a validation without the cache returns. This module imports only Node's built-ins
 * and the cache's light modules; the analysis is imported when step 2 or 3 needs it.
 */
import { realpathSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { cacheKey, CorruptedCacheError, foreignCacheWarning, intactLine, keyOptions, parseSnapshot, readCacheFile, saveDelta } from './cache/file-cache.js';
import { checkObservations, withReads, type Observation } from '@skein/discovery/observations';
import { DEFAULT_MAX_FILE_BYTES } from './defaults.js';
import { VERSION } from './package-info.js';
import type { ValidateOptions, ValidationReport } from './types.js';

/** Which path answered (for tests and benchmarks). */
export type CachePath = 'stored' | 'rederived' | 'validated';

/**
 * Validates `root` as `validate()` does, reusing and refreshing the cache file `options.cache.file`.
 * @param options as `validate()`'s, and `beforeAnalysis`: called once just before the analysis is loaded (to re-derive
 * changed files, or for a full analysis)
 * @param onPath told which path answered
 * @throws ValidationInputError as `validate()` does
 */
export async function validateWithCache(
  root: string,
  options: ValidateOptions & { cache: NonNullable<ValidateOptions['cache']>; beforeAnalysis?: () => void },
  onPath?: (path: CachePath) => void,
): Promise<ValidationReport> {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const mode = options.mode ?? 'auto';
  let analysisLoaded = false;
  let realRoot: string | undefined;
  try {
    realRoot = realpathSync.native(path.resolve(root));
  } catch {
    realRoot = undefined; // validate() reports it
  }
  // Shapes come from the analysis's trees: a validation asking for them takes the full path.
  if (realRoot !== undefined && options.fs === undefined && !options.shapes && Number.isFinite(maxFileBytes) && maxFileBytes > 0) {
    try {
      const answered = await fastPath(realRoot, options, maxFileBytes, mode, () => {
        options.beforeAnalysis?.();
        analysisLoaded = true;
      });
      if (answered) {
        options.cache.onAnswers?.(answered.answers);
        onPath?.(answered.path);
        return answered.report;
      }
    } catch (error) {
      if (!(error instanceof CorruptedCacheError)) throw error;
      // A cache file that is valid JSON but not what its writer wrote (edited by hand, damaged): one warning, and the
      // analysis writes a new one; the report never depends on the cache.
      options.cache.onWarning?.(foreignCacheWarning(options.cache.file, error.message));
      try {
        rmSync(options.cache.file, { force: true });
      } catch {
        // The full analysis replaces it, or warns that it cannot.
      }
    }
  }
  if (!analysisLoaded) options.beforeAnalysis?.();
  const { validate } = await import('./validate.js');
  onPath?.('validated');
  const { beforeAnalysis: _, ...validateOptions } = options;
  return validate(root, validateOptions);
}

/**
 * Steps 1 and 2 of `validateWithCache`: the stored report, when the file system gives every answer it stands on
 * again, or after re-deriving the changed sources (which loads the analysis: `loading` is called first).
 * @returns the report, the answers it stands on and which path answered; undefined when a full analysis is needed
 * @throws CorruptedCacheError when the snapshot line is not the one its writer wrote (by its digest); whatever the
 * re-derivation throws
 */
async function fastPath(
  realRoot: string,
  options: ValidateOptions & { cache: NonNullable<ValidateOptions['cache']> },
  maxFileBytes: number,
  mode: string,
  loading: () => void,
): Promise<{ report: ValidationReport; answers: Observation[]; path: CachePath } | undefined> {
  const file = options.cache.file;
  const read = readCacheFile(file);
  if (!('header' in read) || read.header.key !== cacheKey({ version: VERSION, options: keyOptions(options, maxFileBytes, mode), root: realRoot }))
    return undefined;
  if (!intactLine(read.snapshot, read.header.digests[0])) throw new CorruptedCacheError('its snapshot line is not the one its writer wrote');
  const snapshot = parseSnapshot(read);
  if (!snapshot) return undefined;
  const check = checkObservations(snapshot.observations, (p) => Object.hasOwn(snapshot.files, p));
  if (check.same && check.changed.length === 0) return { report: snapshot.report, answers: snapshot.observations, path: 'stored' };
  // An edit can change a workflow's command shape and keep its facts and findings (a step call added to a body):
  // against a baseline, a changed source is always analysed in full.
  if (!check.same || options.baseline !== undefined) return undefined;
  loading();
  const { rederive } = await import('./cache/cutoff.js');
  const records = rederive(
    realRoot,
    snapshot,
    check.changed.map((o) => o[1]),
    maxFileBytes,
  );
  if (!records) return undefined;
  const error = saveDelta(file, read, check.changed, records);
  if (error) options.cache.onWarning?.(`cannot write the cache file ${file} (${error.message}); the next run validates without it`);
  return { report: snapshot.report, answers: withReads(snapshot.observations, check.changed), path: 'rederived' };
}
