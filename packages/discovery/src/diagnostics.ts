/**
 * Collecting findings as data (STYLE "diagnostics are data"): rules report a rule id, a position and a message;
 * severity and SPEC rule come from the one registry, `RULES`. One sink serves a whole analysis session.
 */
import { RULES, type RuleId } from './rules.js';
import type { Diagnostic } from './types.js';

/** A 1-based position. */
export interface Position {
  line: number;
  column: number;
}

/** The position of the start of a Babel node (`loc.start`, column 0-based), as 1-based line and column. */
export function positionOf(node: { loc?: { start: { line: number; column: number } } | null } | null | undefined): Position {
  const start = node?.loc?.start;
  return start ? { line: start.line, column: start.column + 1 } : { line: 1, column: 1 };
}

/** Accumulates diagnostics; never throws. */
export class Diagnostics {
  readonly #items: Diagnostic[] = [];
  readonly #seen = new Set<string>();

  /** Records one finding (duplicates of the same rule, file, position and message are dropped). */
  report(ruleId: RuleId, file: string, position: Position | undefined, message: string, hint?: string): void {
    const meta: { severity: Diagnostic['severity']; specRule?: number } = RULES[ruleId];
    const { line, column } = position ?? { line: 1, column: 1 };
    const key = `${ruleId}\0${file}\0${line}\0${column}\0${message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    const d: Diagnostic = { ruleId, severity: meta.severity, file, line, column, message };
    if (hint !== undefined) d.hint = hint;
    if (meta.specRule !== undefined) d.specRule = meta.specRule;
    this.#items.push(d);
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
