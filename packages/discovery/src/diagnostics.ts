/**
 * Collecting findings as data (STYLE "diagnostics are data"): rules report a rule id, a position and a message;
 * severity and SPEC rule come from the one registry, `RULES`. One sink serves a whole analysis session.
 */
import { MESSAGES, renderMessage, type CoreRuleId, type MessageId, type Template } from './messages.js';
import { RULES } from './rules.js';
import type { Diagnostic, Position } from './finding.js';

/** Accumulates diagnostics; never throws. */
export class Diagnostics {
  readonly #items: Diagnostic[] = [];
  readonly #seen = new Set<string>();

  /**
   * Records one finding of a core rule, rendered from its template (`MESSAGES[ruleId][messageId]`) with `data`;
   * severity and SPEC rule come from `RULES`. Duplicates (same rule, file, position and message) are dropped.
   */
  report<R extends CoreRuleId>(ruleId: R, messageId: MessageId<R>, file: string, position: Position | undefined, data: Record<string, string> = {}): void {
    const meta: { severity: Diagnostic['severity']; specRule?: number } = RULES[ruleId];
    const template = (MESSAGES[ruleId] as Record<string, Template>)[messageId] as Template;
    const { line, column } = position ?? { line: 1, column: 1 };
    const d: Diagnostic = { ruleId, severity: meta.severity, file, line, column, message: renderMessage(template.message, data), hint: renderMessage(template.hint, data), messageId, data };
    if (meta.specRule !== undefined) d.specRule = meta.specRule;
    this.add(d);
  }

  /** Records a finding built elsewhere (a validator rule's, with its message id and data); duplicates are dropped. */
  add(d: Diagnostic): void {
    const key = `${d.ruleId}\0${d.file}\0${d.line}\0${d.column}\0${d.message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#items.push(d);
  }

  /** Every finding, sorted by file, line, column, rule id, message. */
  sorted(): Diagnostic[] {
    return [...this.#items].sort(compareDiagnostics);
  }
}

/** Total order of diagnostics: file, line, column, rule id, message. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return cmp(a.file, b.file) || a.line - b.line || a.column - b.column || cmp(a.ruleId, b.ruleId) || cmp(a.message, b.message);
}

/** Plain code-unit string comparison (locale independent, so order is the same on every machine). */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
