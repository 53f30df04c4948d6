/**
 * The validator's part in each file's single traversal (typescript-eslint style): for every file the session's
 * store parses, `visitorsFor` returns the visitors of every file rule that applies to the file's role; the store
 * merges them with discovery's own visitors (the one import-site collector among them, whose records the import graph
 * reads) and walks the AST once. Rules never parse.
 */
import type { File } from '@babel/types';
import {
  classifyFile,
  isDeclarationFile,
  isOwnFile,
  isTestFile,
  mayMatch,
  renderMessage,
  sourceStem,
  type AnalysisSession,
  type FileRecord,
  type MessageTemplate,
  type ModuleHook,
  type ModuleInfo,
  ownExport,
  type RuleVisitor,
  type SourceFacts,
} from '@skein/discovery';
import type { CodeRole, ExportKind, FileRule, FileRuleContext, ReportDescriptor, ResolvedImport, RuleMeta, ValidatorDiagnostic } from '../types.js';

/**
 * Builds a diagnostic from a rule's meta and a report descriptor: the message and hint rendered from the template of
 * `d.messageId`, the severity and package rule from the meta.
 * @throws Error when the meta has no message `d.messageId` (only reachable by bypassing the types of `createRule`)
 */
export function toDiagnostic<MessageIds extends string>(meta: RuleMeta<MessageIds>, file: string, d: ReportDescriptor<MessageIds>): ValidatorDiagnostic {
  const template = (meta.messages as Readonly<Record<string, MessageTemplate>>)[d.messageId];
  if (template === undefined) throw new Error(`rule ${meta.id} has no message "${d.messageId}"`);
  const loc = d.loc ?? (d.node?.loc ? { line: d.node.loc.start.line, column: d.node.loc.start.column + 1 } : { line: 1, column: 1 });
  const diagnostic: ValidatorDiagnostic = {
    ruleId: meta.id,
    severity: meta.severity,
    file: d.file ?? file,
    line: loc.line,
    column: loc.column,
    message: renderMessage(template.message, d.data),
    messageId: d.messageId,
  };
  if (meta.docs.packageRule !== undefined) diagnostic.packageRule = meta.docs.packageRule;
  if (template.hint !== undefined) diagnostic.hint = renderMessage(template.hint, d.data);
  if (d.data) diagnostic.data = d.data;
  return diagnostic;
}

/** What a file is linted as: a code role, `dependency` (its imports followed only), or null (not looked at). */
export type LintRole = CodeRole | 'dependency' | null;

/** What the rules of one file ask of the engine: import resolution, package roots and the findings sink. */
export interface LintHost {
  /** Resolves `specifier` as imported from `file` (the resolver remembers its answers). */
  resolve(file: string, specifier: string): ResolvedImport;
  /** The root of the package `file` belongs to. */
  packageRootOf(file: string): string;
  /** `FileRuleContext.exportKind` for a specifier written in `file`. */
  exportKind(file: string, specifier: string, name: string): ExportKind;
  report(diagnostic: ValidatorDiagnostic): void;
}

/**
 * The context one rule's `create()` gets for one file (typescript-eslint's `context`): `resolve` and `report` are
 * methods rather than closures made per file, and `packageRoot` is worked out on first use (only a misplaced-definition
 * finding reads it; on the benchmark's 4,000 files the closures and lookups were a measurable part of the cold run).
 */
class RuleContext implements FileRuleContext {
  readonly #rule: FileRule;
  readonly #host: LintHost;
  #packageRoot: string | undefined;

  constructor(
    readonly file: string,
    readonly role: CodeRole,
    rule: FileRule,
    host: LintHost,
  ) {
    this.#rule = rule;
    this.#host = host;
  }

  get packageRoot(): string {
    return (this.#packageRoot ??= this.#host.packageRootOf(this.file));
  }

  resolve(specifier: string): ResolvedImport {
    return this.#host.resolve(this.file, specifier);
  }

  exportKind(specifier: string, name: string): ExportKind {
    return this.#host.exportKind(this.file, specifier, name);
  }

  report(descriptor: ReportDescriptor): void {
    this.#host.report(toDiagnostic(this.#rule.meta, this.file, descriptor));
  }
}

/** The file rules of each role, in registry order (worked out once per rule set, not per file). */
export type RulesByRole = ReadonlyMap<CodeRole, readonly FileRule[]>;

/** Groups `rules` by the roles they apply to. */
export function rulesByRole(rules: readonly FileRule[]): RulesByRole {
  const byRole = new Map<CodeRole, FileRule[]>();
  for (const rule of rules) {
    for (const role of rule.appliesTo) {
      const list = byRole.get(role);
      if (list) list.push(rule);
      else byRole.set(role, [rule]);
    }
  }
  return byRole;
}

/**
 * The visitors of the rules of `role` for one file (none for `dependency`). With `source` (a cleanly parsed file), a
 * rule whose `words` the text lacks is not created.
 */
export function visitorsForRole(
  file: string,
  role: CodeRole | 'dependency',
  rules: RulesByRole,
  host: LintHost,
  source: SourceFacts | undefined,
): RuleVisitor[] {
  const visitors: RuleVisitor[] = [];
  if (role === 'dependency') return visitors;
  const list = rules.get(role);
  if (list === undefined) return visitors;
  for (let i = 0; i < list.length; i++) {
    const rule = list[i] as FileRule;
    if (rule.words !== undefined && !mayMatch(source, rule.words)) continue;
    visitors.push(rule.create(new RuleContext(file, role, rule, host)));
  }
  return visitors;
}

/** True for an own file the misplaced-definition check reads: a source (`.ts`, `.mts`, `.js`, `.mjs`), not a test or declaration. */
export function isOwnSource(file: string): boolean {
  return !isTestFile(file) && !isDeclarationFile(file) && sourceStem(file.split(/[\\/]/).pop() ?? '') !== undefined;
}

/**
 * What the rules of one role did in one file, kept in the file's cache record (`FileRecord.lint[role]`): the
 * findings they reported and every answer from outside the file they read (import resolutions as JSON, the package
 * root), so a later run replays the findings only when each answer is still the same.
 */
export interface LintRecord {
  findings: ValidatorDiagnostic[];
  /** `[specifier, JSON of its ResolvedImport]`, each specifier once, in the order the rules first asked. */
  resolved: [string, string][];
  /** The package root, when a rule read it. */
  packageRoot?: string;
  /** `[specifier \0 name, answer]` of each `exportKind` question, in the order the rules first asked. */
  exportKinds?: [string, ExportKind][];
}

/** A `LintHost` that also writes what one file's rules report and read into a `LintRecord`. */
function recordingHost(host: LintHost, record: LintRecord): LintHost {
  const asked = new Set<string>();
  return {
    resolve(file, specifier) {
      const answer = host.resolve(file, specifier);
      // Each specifier once: the resolver gives one answer per file and specifier within an analysis.
      if (!asked.has(specifier)) {
        asked.add(specifier);
        record.resolved.push([specifier, JSON.stringify(answer)]);
      }
      return answer;
    },
    packageRootOf(file) {
      return (record.packageRoot = host.packageRootOf(file));
    },
    exportKind(file, specifier, name) {
      const answer = host.exportKind(file, specifier, name);
      const key = `${specifier}\0${name}`;
      if (!record.exportKinds?.some(([k]) => k === key)) (record.exportKinds ??= []).push([key, answer]);
      return answer;
    },
    report(diagnostic) {
      record.findings.push(diagnostic);
      host.report(diagnostic);
    },
  };
}

/** The hook the validator installs in the session's store. */
export class FileLinter implements ModuleHook {
  /** Roles decided by the validator's breadth-first walk (workflow code, dependencies), before the file is loaded. */
  readonly pending = new Map<string, CodeRole | 'dependency'>();
  /** Files whose rules ran, with the role they ran under. */
  readonly linted = new Map<string, CodeRole | 'dependency'>();
  readonly #rules: RulesByRole;
  readonly #host: LintHost;
  /** Set when the session has a facts cache: each file's rules record what they did (`walked` stores it). */
  recording = false;
  readonly #records = new Map<string, LintRecord>();
  /** With `recording`: the roles each file's rules ran (or were replayed) under, in order. */
  readonly roles = new Map<string, string[]>();

  #ran(file: string, role: string): void {
    if (!this.recording) return;
    const list = this.roles.get(file);
    if (list === undefined) this.roles.set(file, [role]);
    else if (!list.includes(role)) list.push(role);
  }

  constructor(
    readonly session: AnalysisSession,
    readonly rules: readonly FileRule[],
    readonly resolveFrom: (file: string, specifier: string) => ResolvedImport,
    readonly packageRootOf: (file: string) => string,
  ) {
    this.#rules = rulesByRole(rules);
    this.#host = {
      resolve: resolveFrom,
      packageRootOf,
      exportKind: (file, specifier, name) => this.#exportKind(file, specifier, name),
      report: (d) => session.diagnostics.add(d),
    };
  }

  /** Reads the export from the facts of the module `specifier` names (loading it: its own rules run then). */
  #exportKind(file: string, specifier: string, name: string): ExportKind {
    const target = this.resolveFrom(file, specifier);
    if (target.kind !== 'file') return 'unknown';
    return exportKindOf(this.session.store.load(target.path).info, name);
  }

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

  visitorsFor(file: string, _ast: File, source: SourceFacts | undefined): RuleVisitor[] {
    const role = this.roleOf(file);
    if (role === null) return [];
    this.linted.set(file, role);
    this.#ran(file, role);
    let host = this.#host;
    if (this.recording) {
      const record: LintRecord = { findings: [], resolved: [] };
      this.#records.set(file, record);
      host = recordingHost(host, record);
    }
    return visitorsForRole(file, role, this.#rules, host, source);
  }

  /** Replays the findings recorded for `file`'s current role when every answer they read is unchanged. */
  restore(file: string, record: FileRecord): boolean {
    const role = this.roleOf(file);
    if (role === null) return true;
    const lint = (record.lint as Partial<Record<string, LintRecord>> | undefined)?.[role];
    if (lint === undefined) return false;
    for (const [specifier, answer] of lint.resolved) if (JSON.stringify(this.#host.resolve(file, specifier)) !== answer) return false;
    if (lint.packageRoot !== undefined && this.#host.packageRootOf(file) !== lint.packageRoot) return false;
    for (const [key, answer] of lint.exportKinds ?? []) {
      const [specifier, name] = key.split('\0') as [string, string];
      if (this.#host.exportKind(file, specifier, name) !== answer) return false;
    }
    this.linted.set(file, role);
    this.#ran(file, role);
    for (const d of lint.findings) this.#host.report(d);
    return true;
  }

  /** Stores what `file`'s rules did in its walk under the role they ran for. */
  walked(file: string, record: FileRecord): void {
    const lint = this.#records.get(file);
    const role = this.linted.get(file);
    if (lint === undefined || role === undefined) return;
    this.#records.delete(file);
    ((record.lint ??= {}) as Record<string, LintRecord>)[role] = lint;
  }
}

/** `ExportKind` of export `name` in a module's facts (`info`; undefined: a module that could not be read). */
export function exportKindOf(info: ModuleInfo | undefined, name: string): ExportKind {
  if (!info) return 'unknown';
  const binding = info.exports.get(name);
  if (binding) {
    // A workflow in an activity file is `conventions/misplaced-definition`'s finding.
    if (binding.kind === 'definition') return binding.definition.callee === 'workflow' ? 'unknown' : 'activity';
    if (binding.kind !== 'value') return 'unknown';
    if (binding.function === true) return 'function';
    return binding.call === undefined && binding.alias === undefined && binding.references.length === 0 ? 'value' : 'unknown';
  }
  // Missing only where every export of the module is listed and none is `name` (an `export *` may provide it).
  return info.stars.length === 0 && ownExport(info, name) === false ? 'missing' : 'unknown';
}
