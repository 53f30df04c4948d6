/**
 * The validator's part in each file's single traversal (typescript-eslint style): for every file the session's
 * store parses, `visitorsFor` returns the import collector plus the visitors of every file rule that applies to
 * the file's role; the store merges them with discovery's own visitor and walks the AST once. Rules never parse.
 */
import type { File } from '@babel/types';
import { classifyFile, isDeclarationFile, isOwnFile, isTestFile, renderMessage, sourceStem, type AnalysisSession, type ModuleHook, type RuleVisitor } from '@skein/discovery';
import type { CodeRole, FileRule, ReportDescriptor, ResolvedImport, RuleMeta, ValidatorDiagnostic } from '../types.js';
import { importCollector, type ImportSite } from './import-collector.js';

/** Builds a diagnostic from a rule's meta and a report descriptor. */
export function toDiagnostic(rule: { meta: RuleMeta }, file: string, d: ReportDescriptor): ValidatorDiagnostic {
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

/** What a file is linted as: a code role, `dependency` (imports collected only), or null (not looked at). */
export type LintRole = CodeRole | 'dependency' | null;

/** The visitors of `rules` for one file of `role`, plus the import collector filling `sites`. */
export function visitorsForRole(input: {
  file: string;
  role: CodeRole | 'dependency';
  packageRoot: string;
  rules: readonly FileRule[];
  resolve(specifier: string): ResolvedImport;
  report(d: ValidatorDiagnostic): void;
  sites: ImportSite[];
}): RuleVisitor[] {
  const visitors: RuleVisitor[] = [importCollector(input.sites)];
  if (input.role === 'dependency') return visitors;
  const role = input.role;
  for (const rule of input.rules) {
    if (!rule.appliesTo.includes(role)) continue;
    visitors.push(rule.create({ file: input.file, role, packageRoot: input.packageRoot, resolve: input.resolve, report: (d) => input.report(toDiagnostic(rule, input.file, d)) }));
  }
  return visitors;
}

/** True for an own file the misplaced-definition check reads: a source (`.ts`, `.mts`, `.js`, `.mjs`), not a test or declaration. */
export function isOwnSource(file: string): boolean {
  return !isTestFile(file) && !isDeclarationFile(file) && sourceStem(file.split(/[\\/]/).pop() ?? '') !== undefined;
}

/** The hook the validator installs in the session's store. */
export class FileLinter implements ModuleHook {
  /** Roles decided by the validator's breadth-first walk (workflow code, dependencies), before the file is loaded. */
  readonly pending = new Map<string, CodeRole | 'dependency'>();
  /** Static import sites of each linted file. */
  readonly sites = new Map<string, ImportSite[]>();
  /** Files whose rules ran, with the role they ran under. */
  readonly linted = new Map<string, CodeRole | 'dependency'>();

  constructor(
    readonly session: AnalysisSession,
    readonly rules: readonly FileRule[],
    readonly resolveFrom: (file: string, specifier: string) => ResolvedImport,
    readonly packageRootOf: (file: string) => string,
  ) {}

  /** True when `file` belongs to a validated package (inside an own root, not in its `node_modules`). */
  isOwn(file: string): boolean {
    return isOwnFile(this.session.ownRoots, file);
  }

  /** The role `file` is linted as, when it is parsed now. */
  roleOf(file: string): LintRole {
    const pending = this.pending.get(file);
    if (pending) return pending;
    if (!this.isOwn(file)) return null;
    return classifyFile(file) ?? (isOwnSource(file) ? 'other' : null);
  }

  visitorsFor(file: string, _ast: File): RuleVisitor[] {
    const role = this.roleOf(file);
    if (role === null) return [];
    this.linted.set(file, role);
    const sites: ImportSite[] = [];
    this.sites.set(file, sites);
    const resolve = (specifier: string): ResolvedImport => this.resolveFrom(file, specifier); // the resolver remembers answers
    return visitorsForRole({ file, role, packageRoot: this.packageRootOf(file), rules: this.rules, resolve, report: (d) => this.session.diagnostics.add(d), sites });
  }
}
