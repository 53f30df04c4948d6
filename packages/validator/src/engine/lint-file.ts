/**
 * Runs every applicable file rule over one file in a single traversal (typescript-eslint style): the file
 * is parsed once, each rule's `create(context)` contributes visitors, and they are merged with the import
 * collector into one walk (engine/walker.ts).
 */
import type { CodeRole, FileRule, ReportDescriptor, ResolvedImport, ValidatorDiagnostic } from '../types.js';
import { collectImportsFast, importCollector, type ImportSite } from './import-collector.js';
import { renderMessage } from './messages.js';
import { parseSource } from './parse.js';
import { mergeVisitors, walk, type RuleVisitor } from './walker.js';
import { syntaxErrorRule } from '../rules/parse/syntax-error.js';

/** Input of `lintFile`. */
export interface LintFileInput {
  file: string;
  text: string;
  /** `dependency` files only get their imports collected. */
  role: CodeRole | 'dependency';
  packageRoot: string;
  rules: readonly FileRule[];
  resolve(specifier: string): ResolvedImport;
  report(diagnostic: ValidatorDiagnostic): void;
}

/** Builds a diagnostic from a rule's meta and a report descriptor. */
export function toDiagnostic(rule: { meta: FileRule['meta'] }, file: string, d: ReportDescriptor): ValidatorDiagnostic {
  const template = rule.meta.messages[d.messageId];
  if (template === undefined) throw new Error(`rule ${rule.meta.id} has no message "${d.messageId}"`);
  const loc = d.loc ?? (d.node?.loc ? { line: d.node.loc.start.line, column: d.node.loc.start.column + 1 } : { line: 1, column: 1 });
  const hint = rule.meta.hints[d.messageId];
  const diagnostic: ValidatorDiagnostic = {
    ruleId: rule.meta.id,
    severity: rule.meta.severity,
    file: d.file ?? file,
    line: loc.line,
    column: loc.column,
    message: renderMessage(template, d.data),
    messageId: d.messageId,
  };
  if (rule.meta.specRule !== undefined) diagnostic.specRule = rule.meta.specRule;
  if (hint !== undefined) diagnostic.hint = renderMessage(hint, d.data);
  if (d.data) diagnostic.data = d.data;
  return diagnostic;
}

/**
 * Parses `text` and runs the rules whose `appliesTo` includes the file's role. Returns the file's static
 * import sites, or null when it does not parse (an own file then gets a `file/syntax-error` finding).
 */
export function lintFile(input: LintFileInput): ImportSite[] | null {
  const parsed = parseSource(input.text, input.file);
  if (!parsed.ok) {
    if (input.role !== 'dependency') {
      input.report(toDiagnostic(syntaxErrorRule, input.file, { messageId: 'syntax', data: { message: parsed.message }, loc: parsed }));
    }
    return null;
  }
  if (input.role === 'dependency') return collectImportsFast(parsed.ast);
  const sites: ImportSite[] = [];
  const all: RuleVisitor[] = [importCollector(sites)];
  const role = input.role;
  for (const rule of input.rules) {
    if (!rule.appliesTo.includes(role)) continue;
    all.push(
      rule.create({
        file: input.file,
        role,
        packageRoot: input.packageRoot,
        resolve: input.resolve,
        report: (d) => input.report(toDiagnostic(rule, input.file, d)),
      }),
    );
  }
  try {
    walk(parsed.ast, mergeVisitors(all));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    input.report(toDiagnostic(syntaxErrorRule, input.file, { messageId: 'syntax', data: { message } }));
    return null;
  }
  return sites;
}
