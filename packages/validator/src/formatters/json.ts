/**
 * The `json` format: a stable, documented object (docs/validate-workflow-package.md, "JSON output").
 * `schemaVersion` changes only on a breaking change of this shape.
 */
import type { ValidationReport } from '../types.js';

/** Version of the JSON output's shape (2: a finding's `specRule` became `packageRule`, numbered as in docs/package-rules.md). */
export const JSON_SCHEMA_VERSION = 2;

/**
 * Renders a report as pretty-printed JSON (ends with a newline):
 * `{ schemaVersion, root, summary: { errorCount, warningCount, workflowCount, activityCount },
 *    diagnostics: Diagnostic[], manifest: { workflows, sharedActivities, packages, activityTypes } }`.
 */
export function formatJson(report: ValidationReport): string {
  const m = report.manifest;
  const activityTypes = [...new Set(m.workflows.flatMap((w) => w.activityTypes))].sort();
  const out = {
    schemaVersion: JSON_SCHEMA_VERSION,
    root: report.root,
    summary: {
      errorCount: report.errorCount,
      warningCount: report.warningCount,
      workflowCount: m.workflows.length,
      activityCount: m.workflows.reduce((n, w) => n + w.activities.length, 0) + m.sharedActivities.length,
    },
    diagnostics: report.diagnostics.map((d) => ({
      ruleId: d.ruleId,
      severity: d.severity,
      file: d.file,
      line: d.line,
      column: d.column,
      message: d.message,
      hint: d.hint ?? null,
      packageRule: d.packageRule ?? null,
      messageId: d.messageId ?? null,
      data: d.data ?? null,
    })),
    manifest: {
      workflows: m.workflows,
      sharedActivities: m.sharedActivities,
      packages: m.packages,
      activityTypes,
    },
  };
  return JSON.stringify(out, null, 2) + '\n';
}
