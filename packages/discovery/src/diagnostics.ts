/**
 * Collecting findings as data (a finding is a plain object; reporters render it later): the core's rules report a
 * rule id, a message id, a position and the message's data; severity and package rule come from the rule's entry in
 * `RULES`. One sink serves a whole analysis session, the validator's rules included.
 */
import { renderMessage, type MessageTemplate, type RuleDocs } from './rule-meta.js';
import { RULES, type CoreRuleId, type MessageId } from './rules.js';
import type { Diagnostic, Position } from './finding.js';

/** Accumulates diagnostics; never throws. */
export class Diagnostics {
  readonly #items: Diagnostic[] = [];
  readonly #seen = new Set<string>();

  /**
   * Records one finding of a core rule, rendered from its template (`RULES[ruleId].messages[messageId]`) with `data`;
   * severity and package rule come from `RULES[ruleId]`. Duplicates (same rule, file, position and message) are dropped.
   */
  report<R extends CoreRuleId>(ruleId: R, messageId: MessageId<R>, file: string, position: Position | undefined, data: Record<string, string> = {}): void {
    const meta: { severity: Diagnostic['severity']; docs: RuleDocs; messages: Readonly<Record<string, MessageTemplate>> } = RULES[ruleId];
    const template = meta.messages[messageId] as MessageTemplate;
    const { line, column } = position ?? { line: 1, column: 1 };
    const d: Diagnostic = {
      ruleId,
      severity: meta.severity,
      file,
      line,
      column,
      message: renderMessage(template.message, data),
      hint: renderMessage(template.hint ?? '', data),
      messageId,
      data,
    };
    if (meta.docs.packageRule !== undefined) d.packageRule = meta.docs.packageRule;
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
