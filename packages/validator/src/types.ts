/**
 * Public shapes of `@skein/validator`: the report `validate()` returns and the two kinds of rule modules.
 * Findings are plain data (`Diagnostic` from `@skein/discovery`); formatters render them separately.
 */
import type { Node } from '@babel/types';
import type { Diagnostic, FileRole, FileSystem, Manifest, RuleMeta, Severity } from '@skein/discovery';
import type { Definition, RuleVisitor, ShapeSet } from '@skein/discovery';
import type { Observation } from '@skein/discovery/observations';
import type { VersioningInput } from './versioning/check.js';
import type { ModuleGraph } from './graph/module-graph.js';
import type { CodeRole, ResolvedImport } from './graph/code-facts.js';

export type { CodeRole, ResolvedImport };

export type { Diagnostic, FileRole, Manifest, RuleMeta, Severity };

/** What `validate()` returns. JSON-serializable. */
export interface ValidationReport {
  /** Real path of the validated directory. */
  root: string;
  /** The manifest `discover()` returned for `root`. */
  manifest: Manifest;
  /** Discovery's findings and the validator's, sorted by file, line, column, rule id; duplicates removed. */
  diagnostics: ValidatorDiagnostic[];
  errorCount: number;
  warningCount: number;
  /** Files the rules looked at (own code and the dependencies workflow code imports); each was read and parsed once. */
  filesChecked: number;
  /**
   * With a baseline: the workflows pinned in either version whose commands changed. Information only: their runs
   * finish on the build they started on, so these are never findings.
   */
  pinnedChanges?: string[];
  /**
   * With `ValidateOptions.shapes`: every workflow's command shapes, derived from the same parse as the findings
   * (what `deriveCommandShapes` of @skein/discovery gives for the root). Never stored in the per-file cache.
   */
  shapes?: ShapeSet;
}

/** Options of `validate()`. */
export interface ValidateOptions {
  /** Largest source file read, in bytes; larger files get a `fs/file-too-large` error and are not parsed. Default 1 MiB. */
  maxFileBytes?: number;
  /**
   * `auto` (default): a root whose package.json sets or misspells the expose flag is judged as a workflow package,
   * anything else as a project; `package` / `project` force one (see `DiscoverOptions.mode`).
   */
  mode?: 'auto' | 'package' | 'project';
  /** The file system to read through (default `nodeFileSystem`); confined to the root either way. Tests pass counting or in-memory ones. */
  fs?: FileSystem;
  /**
   * Command shapes of a baseline build (see `loadBaseline`): the `versioning/*` rules compare each workflow's new
   * shape with it. Absent: those rules report nothing and no shape is derived.
   */
  baseline?: ShapeSet;
  /**
   * Also derive every workflow's command shapes (`report.shapes`) from the trees this validation parses, instead
   * of a second discovery and parse (`skein build` records them). Costs the memory of every file's tree until the
   * validation ends. Changes no finding.
   */
  shapes?: boolean;
  /**
   * Told the manifest as soon as discovery has read the project, before the package rules and the shapes: the manifest
   * the report will hold, not validated yet (for work that executes nothing of the project and can begin early, such as
   * `skein build`'s bundling). Not called when the report comes from the cache without an analysis.
   */
  onManifest?: (manifest: Manifest) => void;
  /**
   * A persistent per-file cache (`validate-workflow-package --cache`): unchanged files are neither parsed nor walked
   * again, and the report is the same as without it. `file`: the cache file (read at the start, written at the end
   * through a temporary file and a rename); `onWarning`: told once when the file is corrupted or not such a cache
   * (it is then ignored and rewritten) or cannot be written (default: ignored).
   */
  cache?: {
    file: string;
    onWarning?: (message: string) => void;
    /**
     * Told at the end of a full analysis: whether the stored per-file records could be used (`loaded`), how many
     * files had a record (`files`) and how many of them were parsed because theirs was missing or stale (`parsed`).
     */
    onStats?: (stats: { loaded: boolean; files: number; parsed: number }) => void;
    /**
     * Told every file-system answer the returned report stands on (`Observation`s of
     * `@skein/discovery/observations`), when Node's file system was read (no `fs` option): the stored answers when
     * the report came from the cache file, updated with the edited files' new content when they alone changed, or
     * what a full analysis read. A caller keeping its own record of the outcome (the worker's startup cache) checks
     * them again later.
     */
    onAnswers?: (observations: Observation[]) => void;
  };
}

/**
 * A validator finding: a discovery `Diagnostic` plus, for the validator's own rules, the message id and the
 * placeholder values the message was rendered from (a finding is data; reporters render it).
 */
export interface ValidatorDiagnostic extends Diagnostic {
  messageId?: string;
  data?: Record<string, string>;
}

/**
 * What a rule passes to `report()`: one of its own message ids (`MessageIds`; any other does not compile) and the
 * values of the message's placeholders. Position comes from `node` or `loc`; `file` defaults to the current file.
 */
export interface ReportDescriptor<MessageIds extends string = string> {
  messageId: MessageIds;
  data?: Record<string, string>;
  node?: Node | null;
  loc?: { line: number; column: number };
  file?: string;
}

/**
 * What a module exports under a name, as far as its facts tell:
 * - `activity`: a step or evaluator it defines (`export const a = step({...})`);
 * - `function`: a function it declares (a function declaration, or a top-level `const` holding a function or arrow
 *   function): a helper or a factory of steps, never a step itself;
 * - `value`: a value written without a name in it (`export const LIMIT = 5`, an object of literals): never a step;
 * - `missing`: nothing, and every export of the module is known (an ES module that parsed, without CommonJS forms,
 *   `export =`, destructured exports or `export *`);
 * - `unknown`: anything else (a re-export, a value computed from other names, a TypeScript type, a module that does
 *   not resolve to a file or cannot be read).
 */
export type ExportKind = 'activity' | 'function' | 'value' | 'missing' | 'unknown';

/** The context a file rule's `create()` receives, one per file; `report` accepts only the rule's own message ids. */
export interface FileRuleContext<MessageIds extends string = string> {
  /** Absolute path of the file being checked. */
  file: string;
  role: CodeRole;
  /** Root of the package the file belongs to. */
  packageRoot: string;
  /** Resolves an import specifier written in this file (never reads outside the package and its dependencies). */
  resolve(specifier: string): ResolvedImport;
  /**
   * What the module `specifier` resolves to (a file of the package or a dependency) exports as `name`, read from its
   * facts (loading it: see {@link ExportKind}).
   */
  exportKind(specifier: string, name: string): ExportKind;
  report(descriptor: ReportDescriptor<MessageIds>): void;
}

/** A rule that checks one file's AST; its visitors run in the single shared traversal of that file (`walk` of @skein/discovery). */
export interface FileRule<MessageIds extends string = string> {
  kind: 'file';
  meta: RuleMeta<MessageIds>;
  /** Roles of the files this rule looks at. */
  appliesTo: readonly CodeRole[];
  /**
   * A `VisitScope` pattern (`wordPattern`) every file the rule can report on matches: for a cleanly parsed file whose
   * text lacks it, `create()` is not called (as if every visitor were scoped by it). Absent: every file of its roles.
   */
  words?: RegExp;
  create: (context: FileRuleContext<MessageIds>) => RuleVisitor;
}

/** A package checked by package-level rules. */
export interface PackageInfo {
  /** Real path of the package root. */
  root: string;
  /** Absolute path of its package.json. */
  packageJsonPath: string;
  /** Raw text of package.json (for positions). */
  packageJsonText: string;
  packageJson: Record<string, unknown>;
  /** Every file of the package, real paths, `node_modules` and dot-directories excluded, sorted. */
  files: string[];
  /** The files a publish would include: `files` filtered by package.json's `"files"` field when it has one. */
  publishedFiles: string[];
  /** True for packages that are published workflow packages (the expose flag is set): package rule 5 applies. */
  published: boolean;
}

/** Context of project rules: the manifest, the packages, the module graph; `report` accepts only the rule's own message ids. */
export interface ProjectRuleContext<MessageIds extends string = string> {
  manifest: Manifest;
  /** The validated root and every exposed package found, in discovery order. */
  packages: PackageInfo[];
  /** Workflow-code import graph facts (package rule 12). */
  graph: ModuleGraph;
  /** Role of a file by discovery's conventions. */
  classify(path: string): FileRole | null;
  /** Reads a file inside the allowed roots; null when it cannot be read. */
  readText(path: string): string | null;
  /**
   * The definitions that top-level calls of factories make in `file`, a file of no convention role (a helper's
   * `export const toEuro = pricedStep('toEuro', 0.5)`), linked through its relative imports (`ModuleStore.factoryMadeDefinitions`).
   */
  factoryMadeDefinitions(path: string): Definition[];
  report(descriptor: ReportDescriptor<MessageIds> & { file: string }): void;
  /** The baseline's and the new code's command shapes, when the validation has a baseline. */
  versioning?: VersioningInput;
}

/** A rule over the whole project (package.json checks, manifest checks, import chains). */
export interface ProjectRule<MessageIds extends string = string> {
  kind: 'project';
  meta: RuleMeta<MessageIds>;
  check: (context: ProjectRuleContext<MessageIds>) => void | Promise<void>;
}

/** Either kind of rule. */
export type Rule = FileRule | ProjectRule;
