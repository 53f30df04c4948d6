/**
 * The manifest `discover()` returns: which workflows, steps, evaluators and shared activities a project
 * serves, from which files, and every finding along the way. Plain data (JSON-serializable).
 * All paths are absolute; lines and columns are 1-based.
 */
import type { FileSystem } from './fs.js';
import type { AnalysisSession } from './session.js';

/** Severity of a finding. Errors make the validator and the worker refuse the project. */
export type Severity = 'error' | 'warning';

/**
 * One finding, as data (STYLE "diagnostics are data"). Formatters render it; rules never format text
 * beyond `message`.
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
  /** SPEC rule number(s) this finding enforces, e.g. `2`. */
  specRule?: number;
  /** For findings rendered from a message template (the validator's rules): its id and the values filled in. */
  messageId?: string;
  data?: Record<string, string>;
}

/** An installed package that exposes workflows (SPEC rule 4). */
export interface PackageRef {
  name: string;
  version: string;
  /** Real path of the package root (symlinks resolved). */
  root: string;
}

/** What an activity file is, by file convention (SPEC rule 1). */
export type ActivityKind = 'step' | 'evaluator';

/** A step or evaluator definition found statically in a steps/evaluators file. */
export interface ActivityEntry {
  /** The `name` given to `step({ name })` / `evaluator({ name })`. */
  name: string;
  /** The export binding it is reached through (`export const <exportName> = step(...)`). */
  exportName: string;
  kind: ActivityKind;
  /** True for `shared/steps/*.js` and `shared/evaluators/*.js` (SPEC rule 6). */
  shared: boolean;
  file: string;
  line: number;
  column: number;
}

/** A shared activity with the package that provides it (null = the project itself). */
export interface SharedActivityEntry extends ActivityEntry {
  shared: true;
  package: PackageRef | null;
}

/** A workflow the project serves. */
export interface WorkflowEntry {
  /** The `name` given to `workflow({ name })`, read statically (string literal or top-level const). */
  name: string;
  aliases: string[];
  /** The `workflow.js` file that defines it. */
  file: string;
  line: number;
  column: number;
  /** The exposing package, or null for the project's own workflows. */
  package: PackageRef | null;
  /**
   * The export name it was reached through from the package entry (`default` for local workflows). `*` when the
   * package reaches its `workflow.js` only through `export * from` and the workflow is that file's default export
   * (registered by file; importers cannot import it by name).
   */
  exportName: string;
  /** The export of `file` that holds the definition (`default`, or the name of `export const x = workflow(...)`). */
  localExport: string;
  /** Workflow-scoped activities (its `steps.js`, `steps/*.js`, `evaluators.js`, `evaluators/*.js`). */
  activities: ActivityEntry[];
  /**
   * Activity types this workflow may schedule: `<name>#<activity>` for its own activities and for every
   * shared activity in the catalog (SPEC rule 10).
   */
  activityTypes: string[];
}

/** The result of `discover()`. */
export interface Manifest {
  /** Real path of the project root. */
  root: string;
  /** How the root was judged: as a project, or as a workflow package (`DiscoverOptions.mode`). */
  mode: 'project' | 'package';
  /**
   * Registration order: the project's own workflows by file path, then each exposed package's (packages by name,
   * workflows by file path). Equal names or aliases are reported (`names/duplicate-workflow`, SPEC rule 7) and
   * both entries are kept.
   */
  workflows: WorkflowEntry[];
  /**
   * Shared activities after namespace resolution (SPEC rule 7): one entry per name, the winning registration.
   * Order: the project's own first, then packages in discovery order; the project's own always win.
   */
  sharedActivities: SharedActivityEntry[];
  /** Every exposed package found (SPEC rule 4), in discovery order: by package name. */
  packages: PackageRef[];
  /** Every finding, sorted by file, line, column. */
  diagnostics: Diagnostic[];
  /** Files read, for benchmarks. */
  filesRead: number;
}

/** Options of `discover()`. */
export interface DiscoverOptions {
  /** Maximum size of one source file in bytes; larger files get a diagnostic and are not parsed. Default 1 MiB. */
  maxFileBytes?: number;
  /** Skip `node_modules` packages (only the project's own workflows). Default false. */
  localOnly?: boolean;
  /**
   * The highest directory whose `node_modules` is searched (hoisted installs, SPEC rule 4). Default: the file-system
   * root. Tests set it to keep an enclosing repository's `node_modules` out.
   */
  ceiling?: string;
  /** The file system to read through. Default: `nodeFileSystem`. Ignored when `session` is given. */
  fs?: FileSystem;
  /**
   * `project` (default): the root is a project; `package`: the root is a workflow package judged as a worker would
   * see it once installed (strict expose flag, workflows from its entry); `auto`: package mode when the root's
   * package.json sets or misspells the expose flag.
   */
  mode?: 'project' | 'package' | 'auto';
  /** A session to share with a caller that keeps analysing afterwards (the validator). Default: a new one. */
  session?: AnalysisSession;
}

/** The role a file plays by convention (SPEC rule 1), or null for any other file. Decided only by discovery. */
export type FileRole = 'workflow' | 'steps' | 'evaluators' | 'shared-steps' | 'shared-evaluators';
