import type { Manifest } from '@skein/discovery';
import { ValidationInputError, formatStylish } from '@skein/validator';
import type { Logger } from 'pino';
import { WorkerStartupError } from './errors.js';
import { validateIsolated } from './validate-thread.js';

/**
 * Static check at startup, before the engine is contacted: runs the validator (every SPEC package rule, the
 * same as `validate-workflow-package`, in a thread of its own: `validateIsolated`) and refuses the project when any finding is an error. Warnings are
 * for authors: one summary line at info, each at debug.
 * @returns the discovered manifest the worker serves.
 * @throws WorkerStartupError whose message is the validator's stylish report of every finding.
 */
export async function checkProject(projectDir: string, logger: Logger): Promise<Manifest> {
  let report;
  try {
    report = await validateIsolated(projectDir);
  } catch (err) {
    if (err instanceof ValidationInputError) throw new WorkerStartupError(err.message);
    throw err;
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
  return report.manifest;
}
