import path from 'node:path';
import type { Manifest } from '@skein/discovery';
import { ValidationInputError, formatStylish, type ValidationReport } from '@skein/validator';
import type { Logger } from 'pino';
import { sha1 } from './cache/file-digests.js';
import { rememberReads } from './cache/recording-fs.js';
import type { StartupCaches } from './cache/startup-caches.js';
import { toolFingerprint } from './cache/tool-fingerprint.js';
import { WorkerStartupError } from './errors.js';
import { validateIsolated } from './validate-thread.js';

/** The validated manifest, and whether the validation outcome came from the startup cache. */
export interface CheckedProject {
  manifest: Manifest;
  /** `hit`: the stored outcome of an unchanged project; `miss`: validated now; `off`: no cache. */
  cache: 'hit' | 'miss' | 'off';
}

/**
 * Static check at startup, before the engine is contacted: runs the validator (every SPEC package rule, the
 * same as `validate-workflow-package`, in a thread of its own: `validateIsolated`) and refuses the project when any finding is an error. Warnings are
 * for authors: one summary line at info, each at debug.
 * With `caches`, an unchanged project reuses the last outcome (`ValidationCache`: same validator code, same
 * answers from every file, listing and stat the validation read); any change validates again.
 * @returns the discovered manifest the worker serves.
 * @throws WorkerStartupError whose message is the validator's stylish report of every finding.
 */
export async function checkProject(projectDir: string, logger: Logger, caches?: StartupCaches): Promise<CheckedProject> {
  let report: ValidationReport | null = null;
  let key = '';
  if (caches) {
    key = sha1(`${toolFingerprint(['@skein/validator', '@skein/discovery'], ['@babel/parser', 'ts-morph'], caches.digests)}\n${path.resolve(projectDir)}`);
    report = caches.validation.lookup(key, caches.digests);
  }
  const cache = !caches ? 'off' : report ? 'hit' : 'miss';
  if (!report) {
    try {
      const recorded = await validateIsolated(projectDir);
      report = recorded.report;
      if (caches) {
        rememberReads(recorded.observations, caches.digests);
        const storeError = await caches.validation.store(key, recorded.observations, report);
        if (storeError) logger.warn({ err: storeError }, `validation outcome not cached (${storeError.message}); the next start validates again`);
      }
    } catch (err) {
      if (err instanceof ValidationInputError) throw new WorkerStartupError(err.message);
      throw err;
    }
  }
  if (report.errorCount > 0) {
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
    logger.info({ warnings: report.diagnostics.length }, `${report.diagnostics.length} packaging warning(s) for authors; run "npx validate-workflow-package ${report.root}" to list them`);
  }
  return { manifest: report.manifest, cache };
}
