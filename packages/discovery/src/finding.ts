/**
 * The bottom of the analysis core: the plain data of one finding (severity, position, the finding itself). Nothing
 * here imports another file of the package, so every layer above (parser, walk, store, rules, session) may use it.
 */

/** Severity of a finding. Errors make the validator and the worker refuse the project. */
export type Severity = 'error' | 'warning';

/** A 1-based position. */
export interface Position {
  line: number;
  column: number;
}

/**
 * One finding, as data: formatters render it; rules never format text beyond `message`.
 */
export interface Diagnostic {
  /** Stable rule id, e.g. `reexport/commonjs`; each has a docs page under `docs/rules/`. */
  ruleId: string;
  severity: Severity;
  /** Absolute path of the file the finding is about. */
  file: string;
  /** 1-based line; 1 when the finding has no position (a missing file). */
  line: number;
  /** 1-based column; 1 when the finding has no position. */
  column: number;
  /** One sentence saying what is wrong, naming the things involved. */
  message: string;
  /** How to fix it, ideally showing the supported form. */
  hint?: string;
  /** The number of the package rule it enforces, as numbered in `docs/package-rules.md`; absent for robustness findings. */
  packageRule?: number;
  /** For findings rendered from a message template: its id and the values filled in. */
  messageId?: string;
  data?: Record<string, string>;
}

/** The position of the start of a Babel node (`loc.start`, column 0-based), as 1-based line and column. */
export function positionOf(node: { loc?: { start: { line: number; column: number } } | null } | null | undefined): Position {
  const start = node?.loc?.start;
  return start ? { line: start.line, column: start.column + 1 } : { line: 1, column: 1 };
}
