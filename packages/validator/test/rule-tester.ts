/**
 * A small RuleTester (typescript-eslint style) for file rules: runs one rule over a code string in the
 * engine's single traversal, with imports resolved from a table instead of the disk.
 */
import { mergeVisitors, parseSource, walk } from '@skein/discovery';
import { visitorsForRole } from '../src/engine/file-linter.js';
import type { CodeRole, FileRole, FileRule, ResolvedImport, ValidatorDiagnostic } from '../src/types.js';

export interface LintOptions {
  role?: CodeRole;
  file?: string;
  /** specifier → role of the file it resolves to (null: a plain module); absent specifiers are unresolved. */
  imports?: Record<string, FileRole | null>;
}

/** The findings `rule` reports for `code`. */
export function lint(rule: FileRule, code: string, options: LintOptions = {}): ValidatorDiagnostic[] {
  const out: ValidatorDiagnostic[] = [];
  const imports = options.imports ?? {};
  const resolve = (specifier: string): ResolvedImport =>
    specifier in imports ? { kind: 'file', path: `/pkg/${specifier}`, role: imports[specifier] ?? null, inPackage: true } : { kind: 'unresolved' };
  const file = options.file ?? '/pkg/hello/workflow.js';
  const { ast, errors } = parseSource(code, file);
  // Fails on any parse error, recovered or not: a case that does not parse would pass whatever the rule does.
  if (!ast || errors.length > 0) throw new Error(`test case does not parse as ${file}: ${errors[0]?.message}`);
  walk(ast, mergeVisitors(visitorsForRole({ file, role: options.role ?? 'workflow', packageRoot: '/pkg', rules: [rule], resolve, report: (d) => out.push(d), sites: [] })));
  return out;
}

/** `messageId@line:column` of each finding of `rule`, in report order. */
export function positions(rule: FileRule, code: string, options?: LintOptions): string[] {
  return lint(rule, code, options)
    .filter((d) => d.ruleId === rule.meta.id)
    .map((d) => `${d.messageId}@${d.line}:${d.column}`);
}
