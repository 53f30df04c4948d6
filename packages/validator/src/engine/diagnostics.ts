/**
 * Ordering, de-duplication and counting of findings, shared by `validate()` and the formatters.
 */
import type { ValidatorDiagnostic } from '../types.js';

/** Compares by file, line, column, rule id, message. */
export function compareDiagnostics(a: ValidatorDiagnostic, b: ValidatorDiagnostic): number {
  return (
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

/** Returns the findings sorted, with exact duplicates (same rule, file, position, message) removed. */
export function sortAndDedupe(diagnostics: ValidatorDiagnostic[]): ValidatorDiagnostic[] {
  const seen = new Set<string>();
  const out: ValidatorDiagnostic[] = [];
  for (const d of [...diagnostics].sort(compareDiagnostics)) {
    const key = `${d.ruleId}\0${d.file}\0${d.line}\0${d.column}\0${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

/** Number of errors and warnings. */
export function countBySeverity(diagnostics: readonly ValidatorDiagnostic[]): { errorCount: number; warningCount: number } {
  let errorCount = 0;
  let warningCount = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errorCount++;
    else warningCount++;
  }
  return { errorCount, warningCount };
}
