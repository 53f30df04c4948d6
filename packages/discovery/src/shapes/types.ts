/**
 * Command shapes: what a workflow's code can ask Temporal to record, in order, derived statically. Plain data
 * (JSON-serialisable), so a build can record it and a later version can be compared with it. Lines and columns are
 * 1-based; files are relative to the project root (POSIX separators), so shapes of two checkouts compare.
 */

/** Version of the `ShapeSet` format; a reader refuses another. */
export const SHAPES_FORMAT = 1;

/** Where a construct is in the source: `file` relative to the project root. */
export interface ShapeLocation {
  file: string;
  line: number;
  column: number;
}

/**
 * A command Temporal's replayer matches against history:
 * - `activity`: a step, evaluator or built-in activity, `type` is the activity type as the worker registers it
 *   (`<workflow>#<activity>`, `__internal#sendHttpRequest`);
 * - `child`: a child workflow, `type` is its workflow type;
 * - `timer`: `sleep()` or `condition(fn, timeout)`, `type` is empty (durations do not matter to replay);
 * - `continue-as-new`: `type` is empty;
 * - `marker`: the marker of `patched(id)`, `type` is the patch id;
 * - `upsert`: `upsertSearchAttributes` (`type` `search-attributes`) or `upsertMemo` (`memo`).
 */
export type CommandKind = 'activity' | 'child' | 'timer' | 'continue-as-new' | 'marker' | 'upsert';

/** One node of a shape tree. */
export type ShapeNode =
  /** Items one after another. */
  | { kind: 'seq'; items: ShapeNode[] }
  /**
   * A command issued at `at`. `activityId` (activities only): the id the step's or the workflow's options set, which
   * Temporal's replayer matches as it matches the type; absent for Temporal's default (a sequence number).
   */
  | { kind: 'command'; command: CommandKind; type: string; at: ShapeLocation; activityId?: string }
  /**
   * A point where the run can stop between workflow tasks (an `await` of a command's result, a `condition`, a
   * child's result): a new build may pick the run up here. `condition` marks the wait of a `condition()`: a wait
   * a signal or update can end (not only the result of a command the workflow issued).
   */
  | { kind: 'wait'; at: ShapeLocation; condition?: true }
  /**
   * Alternatives (`if`, `switch`, `?:`, `&&`, `||`, `??`, `try`/`catch`): exactly one branch runs. `key` is the
   * deciding expression's source text, so the same decision in two versions is recognised as the same.
   */
  | { kind: 'alt'; key: string; branches: { label: string; body: ShapeNode }[]; at: ShapeLocation }
  /** Repetition: the body runs zero or more times (`for`, `while`, `.map`/`.forEach` callbacks). */
  | { kind: 'loop'; body: ShapeNode; at: ShapeLocation }
  /** Branches started together (`Promise.all`/`allSettled`/`race`/`any`, `executeInParallel`). */
  | { kind: 'parallel'; branches: ShapeNode[]; at: ShapeLocation }
  /**
   * `if (patched(id))`: `then` runs for new runs (after its marker), `else` for runs recorded without the patch.
   * `deprecated` marks `deprecatePatch(id)`: its marker is optional on replay, and it declares that runs which took
   * the `else` branch of `patched(id)` are over.
   */
  | { kind: 'patched'; id: string; then: ShapeNode; else: ShapeNode; at: ShapeLocation; deprecated?: true }
  /** A followed helper function's body: a `return` inside ends the helper, not the workflow. */
  | { kind: 'call'; body: ShapeNode; at: ShapeLocation }
  /** Leaves the enclosing function (`return`, `throw`) or loop iteration (`break`, `continue`). */
  | { kind: 'exit'; how: 'return' | 'throw' | 'break' | 'continue'; at: ShapeLocation }
  /** What the analysis could not follow: the shape is unknown from here (see `construct`). */
  | { kind: 'partial'; construct: string; at: ShapeLocation };

/** A construct the analysis stopped at. */
export interface PartialPoint {
  construct: string;
  at: ShapeLocation;
}

/** The derived shape of one workflow. */
export interface WorkflowShape {
  /** `pinned` (the default when the definition says nothing) or `auto-upgrade`; `unknown` when not a literal. */
  versioningBehavior: 'pinned' | 'auto-upgrade' | 'unknown';
  /** The file defining it, relative to the project root. */
  file: string;
  /** The commands of its `fn`. */
  shape: ShapeNode;
  /** Signal and update handlers that issue commands, by handler name (the defined signal's or update's name). */
  handlers: Record<string, ShapeNode>;
  /** Every partial node of `shape` and `handlers`, in source order. */
  partial: PartialPoint[];
  /**
   * The files the derivation read (relative to the project root) with the SHA-1 (base64url) of their text: while they
   * are unchanged, the shape is too, so a later derivation may take it as is.
   */
  sources: Record<string, string>;
}

/** The file of a build (written by `skein build`) that records its `ShapeSet`. */
export const SHAPES_FILE = 'command-shapes.json';

/** The shapes of every workflow a project serves. */
export interface ShapeSet {
  format: typeof SHAPES_FORMAT;
  /** The project's package.json `name` (null when it has none): a baseline of another project is refused. */
  project: string | null;
  /** By workflow name, in the manifest's order. */
  workflows: Record<string, WorkflowShape>;
}
