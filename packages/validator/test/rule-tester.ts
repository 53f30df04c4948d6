/**
 * A small RuleTester (typescript-eslint style) for file rules: runs one rule over a code string in the
 * engine's single traversal, with imports resolved from a table instead of the disk. A case that does not parse
 * fails the test (unless it says it expects a parse error), so a "valid" case can never pass by being unparsable.
 */
import { lintFile } from '../src/engine/lint-file.js';
import type { CodeRole, FileRole, FileRule, ResolvedImport, ValidatorDiagnostic } from '../src/types.js';

export interface LintOptions {
  role?: CodeRole;
  file?: string;
  /** specifier → role of the file it resolves to (null: a plain module); absent specifiers are unresolved. */
  imports?: Record<string, FileRole | null>;
  /** The case is about unparsable code: a `parse/syntax-error` finding is expected instead of failing the test. */
  expectParseError?: boolean;
}

/**
 * The findings `rule` reports for `code`.
 * @throws Error when the code does not parse and `expectParseError` is not set, or when it is set and the code parses
 */
export function lint(rule: FileRule, code: string, options: LintOptions = {}): ValidatorDiagnostic[] {
  const out: ValidatorDiagnostic[] = [];
  const imports = options.imports ?? {};
  const resolve = (specifier: string): ResolvedImport =>
    specifier in imports ? { kind: 'file', path: `/pkg/${specifier}`, role: imports[specifier] ?? null, inPackage: true } : { kind: 'unresolved' };
  lintFile({
    file: options.file ?? '/pkg/hello/workflow.js',
    text: code,
    role: options.role ?? 'workflow',
    packageRoot: '/pkg',
    rules: [rule],
    resolve,
    report: (d) => out.push(d),
  });
  const parseErrors = out.filter((d) => d.ruleId === 'parse/syntax-error');
  if (options.expectParseError !== true && parseErrors.length > 0) {
    throw new Error(`the case does not parse as ${options.file ?? '/pkg/hello/workflow.js'}: ${parseErrors.map((d) => `${d.line}:${d.column} ${d.message}`).join('; ')}`);
  }
  if (options.expectParseError === true && parseErrors.length === 0) throw new Error('the case was expected not to parse, but it parses');
  return out;
}

/** `messageId@line:column` of each finding of `rule`, in report order. */
export function positions(rule: FileRule, code: string, options?: LintOptions): string[] {
  return lint(rule, code, options)
    .filter((d) => d.ruleId === rule.meta.id)
    .map((d) => `${d.messageId}@${d.line}:${d.column}`);
}
