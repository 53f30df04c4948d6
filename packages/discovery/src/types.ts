/**
 * The manifest `discover()` returns: which workflows, steps, evaluators and shared activities a project
 * serves, from which files, and every finding along the way. Plain data (JSON-serializable).
 * All paths are absolute; lines and columns are 1-based.
 */

export type { Diagnostic, Position, Severity } from './finding.js';
import type { Diagnostic } from './finding.js';

/** An installed package that exposes workflows (package rule 4). */
export interface PackageRef {
  name: string;
  version: string;
  /** Real path of the package root (symlinks resolved). */
  root: string;
}

/** What an activity file is, by file convention (package rule 1). */
export type ActivityKind = 'step' | 'evaluator';

/** A step or evaluator definition found statically in a steps/evaluators file. */
export interface ActivityEntry {
  /** The `name` given to `step({ name })` / `evaluator({ name })`. */
  name: string;
  /** The export binding it is reached through (`export const <exportName> = step(...)`). */
  exportName: string;
  kind: ActivityKind;
  /** True for `shared/steps/*.js` and `shared/evaluators/*.js` (package rule 6). */
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
   * shared activity in the catalog (package rule 10).
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
   * workflows by file path). Equal names or aliases are reported (`names/duplicate-workflow`, package rule 7) and
   * both entries are kept.
   */
  workflows: WorkflowEntry[];
  /**
   * Shared activities after namespace resolution (package rule 7): one entry per name, the winning registration.
   * Order: the project's own first, then packages in discovery order; the project's own always win.
   */
  sharedActivities: SharedActivityEntry[];
  /** Every exposed package found (package rule 4), in discovery order: by package name. */
  packages: PackageRef[];
  /** Every finding, sorted by file, line, column. */
  diagnostics: Diagnostic[];
  /** Files read, for benchmarks. */
  filesRead: number;
}

/** The role a file plays by convention (package rule 1), or null for any other file. Decided only by discovery. */
export type FileRole = 'workflow' | 'steps' | 'evaluators' | 'shared-steps' | 'shared-evaluators';
