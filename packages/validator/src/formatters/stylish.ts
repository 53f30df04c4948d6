/**
 * The `stylish` format (ESLint's default): findings grouped by file, one line each
 * (`line:column  severity  message  rule-id`) followed by an indented hint, then a summary line.
 */
import type { ValidationReport, ValidatorDiagnostic } from '../types.js';
import { ruleHelpUri } from './help-uri.js';
import { displayPath, displayText, plural } from './paths.js';

/** Options of `formatStylish`. */
export interface StylishOptions {
  /** ANSI colours (default false). */
  color?: boolean;
  /** Errors only: warnings are neither listed nor counted (default false). */
  quiet?: boolean;
  /** Directory file paths are shown relative to (default: the report's root). */
  cwd?: string;
}

const ansi = (code: string) => (s: string) => `\u001b[${code}m${s}\u001b[0m`;
const COLORS = { red: ansi('31'), yellow: ansi('33'), dim: ansi('2'), underline: ansi('4'), green: ansi('32'), bold: ansi('1') };
const PLAIN = {
  red: (s: string) => s,
  yellow: (s: string) => s,
  dim: (s: string) => s,
  underline: (s: string) => s,
  green: (s: string) => s,
  bold: (s: string) => s,
};

/**
 * Renders a report for a terminal. Ends with a newline.
 * Summary: `✖ N errors, M warnings` when there are findings, followed by each rule that fired with its public
 * documentation URL; `✔ No problems (…)` otherwise. With `quiet`, warnings are not listed and the summary says how
 * many were hidden (`✔ No errors (…; 1 warning hidden by --quiet)`), never "no problems".
 */
export function formatStylish(report: ValidationReport, options: StylishOptions = {}): string {
  const c = options.color ? COLORS : PLAIN;
  const base = options.cwd ?? report.root;
  const shown = options.quiet ? report.diagnostics.filter((d) => d.severity === 'error') : report.diagnostics;
  const byFile = new Map<string, ValidatorDiagnostic[]>();
  for (const d of shown) {
    const list = byFile.get(d.file) ?? [];
    list.push(d);
    byFile.set(d.file, list);
  }
  const lines: string[] = [];
  for (const [file, list] of byFile) {
    lines.push(c.underline(displayPath(base, file)));
    const posWidth = Math.max(...list.map((d) => `${d.line}:${d.column}`.length));
    for (const d of list) {
      const pos = `${d.line}:${d.column}`.padEnd(posWidth);
      const sev = d.severity === 'error' ? c.red('error  ') : c.yellow('warning');
      lines.push(`  ${c.dim(pos)}  ${sev}  ${displayText(base, d.message)}  ${c.dim(d.ruleId)}`);
      if (d.hint) lines.push(`  ${' '.repeat(posWidth)}  ${c.dim(`hint: ${displayText(base, d.hint)}`)}`);
    }
    lines.push('');
  }
  const errors = report.errorCount;
  const warnings = options.quiet ? 0 : report.warningCount;
  // With --quiet the warnings are not shown, but they still count (for --max-warnings): the summary says so.
  const hidden = options.quiet && report.warningCount > 0 ? `${plural(report.warningCount, 'warning')} hidden by --quiet` : '';
  if (errors + warnings > 0) {
    const summary = hidden ? `✖ ${plural(errors, 'error')} (${hidden})` : `✖ ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
    lines.push(errors > 0 ? c.bold(c.red(summary)) : c.bold(c.yellow(summary)));
    // Footer: where each rule that fired is explained.
    lines.push('', c.dim('Rules:'));
    for (const id of [...new Set(shown.map((d) => d.ruleId))].sort()) lines.push(c.dim(`  ${id}  ${ruleHelpUri(id)}`));
  } else {
    const activities = report.manifest.workflows.reduce((n, w) => n + w.activities.length, 0) + report.manifest.sharedActivities.length;
    const checked = `${plural(report.manifest.workflows.length, 'workflow')}, ${plural(activities, 'activity').replace('activitys', 'activities')} checked`;
    lines.push(hidden ? c.yellow(`✔ No errors (${checked}; ${hidden})`) : c.green(`✔ No problems (${checked})`));
  }
  return lines.join('\n') + '\n';
}
