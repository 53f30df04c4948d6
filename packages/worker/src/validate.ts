import type { Manifest } from '@skein/discovery';
import { ValidationInputError, formatStylish, validate } from '@skein/validator';
import type { Logger } from 'pino';
import { WorkerStartupError } from './errors.js';

/**
 * Static check at startup, before the engine is contacted: runs the validator (every SPEC package rule, the
 * same as `validate-workflow-package`) and refuses the project when any finding is an error. Warnings are
 * logged one by one.
 * @returns the discovered manifest the worker serves.
 * @throws WorkerStartupError whose message is the validator's stylish report of every finding.
 */
export async function checkProject(projectDir: string, logger: Logger): Promise<Manifest> {
  let report;
  try {
    report = await validate(projectDir);
  } catch (err) {
    if (err instanceof ValidationInputError) throw new WorkerStartupError(err.message);
    throw err;
  }
  if (report.errorCount > 0) {
    throw new WorkerStartupError(
      `${report.root}: ${report.errorCount} error(s) in workflow packages; the worker will not start.\n${formatStylish(report, { color: false })}`,
    );
  }
  for (const d of report.diagnostics) {
    logger.warn({ ruleId: d.ruleId, file: d.file, line: d.line, column: d.column, hint: d.hint }, d.message);
  }
  return report.manifest;
}
