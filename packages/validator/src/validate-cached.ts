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
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import {
  appendCacheDelta,
  cacheKey,
  DELTA_LIMIT_BYTES,
  keyOptions,
  parseSnapshot,
  readCacheFile,
  writeCacheFile,
  type CacheDelta,
} from './cache/file-cache.js';
import { checkObservations, withReads } from '@skein/discovery/observations';
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
    const read = readCacheFile(options.cache.file);
    const snapshot =
      'header' in read && read.header.key === cacheKey({ version: VERSION, options: keyOptions(options, maxFileBytes, mode), root: realRoot })
        ? parseSnapshot(read)
        : undefined;
    if ('header' in read && snapshot) {
      const check = checkObservations(snapshot.observations, (file) => Object.hasOwn(snapshot.files, file));
      if (check.same && check.changed.length === 0) {
        options.cache.onAnswers?.(snapshot.observations);
        onPath?.('stored');
        return snapshot.report;
      }
      // An edit can change a workflow's command shape and keep its facts and findings (a step call added to a body):
      // against a baseline, a changed source is always analysed in full.
      if (check.same && options.baseline === undefined) {
        options.beforeAnalysis?.();
        analysisLoaded = true;
        const { rederive } = await import('./cache/cutoff.js');
        const records = rederive(
          realRoot,
          snapshot,
          check.changed.map((o) => o[1]),
          maxFileBytes,
        );
        if (records) {
          let error: Error | undefined;
          if (read.deltaBytes < DELTA_LIMIT_BYTES) {
            error = appendCacheDelta(options.cache.file, { base: read.header.base, overrides: check.changed, extra: records });
          } else {
            // The file whole again, its deltas and this one merged into one.
            const overrides = new Map(read.overrides.map((o) => [o[1], o]));
            for (const o of check.changed) overrides.set(o[1], o);
            const merged: CacheDelta = { base: read.header.base, overrides: [...overrides.values()], extra: { ...read.extra, ...records } };
            error = writeCacheFile(options.cache.file, read.header, read.snapshot, read.records, merged);
          }
          if (error) options.cache.onWarning?.(`cannot write the cache file ${options.cache.file} (${error.message}); the next run validates without it`);
          options.cache.onAnswers?.(withReads(snapshot.observations, check.changed));
          onPath?.('rederived');
          return snapshot.report;
        }
      }
    }
  }
  if (!analysisLoaded) options.beforeAnalysis?.();
  const { validate } = await import('./validate.js');
  onPath?.('validated');
  const { beforeAnalysis: _, ...validateOptions } = options;
  return validate(root, validateOptions);
}
