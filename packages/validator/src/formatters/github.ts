/**
 * The `github` format: GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`)
 * that annotate the pull request diff, plus a final summary line.
 */
import type { ValidationReport } from '../types.js';
import { displayPath, displayText, plural } from './paths.js';

/** Options of `formatGithub`. */
export interface GithubOptions {
  /** Directory file paths are made relative to (default `process.cwd()`, the repository root in Actions). */
  cwd?: string;
  /** `--quiet`: the report holds errors only; the summary says its warnings were hidden. */
  quiet?: boolean;
}

/** Escapes a workflow-command message (`%`, CR, LF). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow-command property value (also `:` and `,`). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Renders one annotation per finding (ends with a newline). */
export function formatGithub(report: ValidationReport, options: GithubOptions = {}): string {
  const cwd = options.cwd ?? process.cwd();
  const lines = report.diagnostics.map((d) => {
    const props = [`file=${escapeProperty(displayPath(cwd, d.file))}`, `line=${d.line}`, `col=${d.column}`, `title=${escapeProperty(d.ruleId)}`].join(',');
    const text = displayText(cwd, d.hint ? `${d.message}\n${d.hint}` : d.message);
    return `::${d.severity === 'warning' ? 'warning' : 'error'} ${props}::${escapeData(text)}`;
  });
  const hidden = options.quiet && report.warningCount > 0 ? ' (hidden by --quiet)' : '';
  lines.push(`${plural(report.errorCount, 'error')}, ${plural(report.warningCount, 'warning')}${hidden}`);
  return lines.join('\n') + '\n';
}
