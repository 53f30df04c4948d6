import v8 from 'node:v8';

/** The young generation's semi-space cap of the workflow thread (MB): its young generation is three of them. */
export const WORKFLOW_THREAD_SEMI_SPACE_MB = 8;
/** The old generation bound of the workflow thread (MB) when nothing else asks for more. */
export const WORKFLOW_THREAD_OLD_SPACE_MB = 256;
/**
 * Temporal's own sizing of its workflow cache: a 200 MiB base, then 600 cached workflows per GiB of heap (about
 * 1.7 MiB each), the SDK's default `maxCachedWorkflows` computed from the main isolate's heap limit.
 */
const CACHE_BASE_MB = 200;
const CACHED_PER_GIB = 600;

/** Resource limits of Temporal's workflow thread and the cache size that fits in them. */
export interface WorkflowThreadLimits {
  /** Old generation bound of the thread (MB); applied by `applyWorkflowThreadLimits` unless the process was given one. */
  oldSpaceMb: number;
  /** Semi-space cap (MB), or undefined when the process was given its own `--max-semi-space-size`. */
  semiSpaceMb: number | undefined;
  /** Whether `oldSpaceMb` comes from the process's own `--max-old-space-size` (then it is not applied again). */
  oldSpaceGiven: boolean;
  /** Temporal's `maxCachedWorkflows` for the worker: cached workflows live in the thread's heap. */
  maxCachedWorkflows: number;
}

/** The cached workflows an old generation of `mb` MB holds by Temporal's sizing (at least 2, Temporal's minimum for a cache). */
export function cachedWorkflowsFor(mb: number): number {
  return Math.max(Math.floor((Math.max(mb - CACHE_BASE_MB, 0) * CACHED_PER_GIB) / 1024), 2);
}

/** The old generation (MB) that holds `cached` workflows by Temporal's sizing. */
export function oldSpaceFor(cached: number): number {
  return CACHE_BASE_MB + Math.ceil((cached * 1024) / CACHED_PER_GIB);
}

/** The numeric value of V8 flag `name` (dashes or underscores) among `flags`, `--name=N` or `--name N`; undefined when absent. */
function flagValue(flags: readonly string[], name: string): number | undefined {
  const pattern = new RegExp(`^--${name.replace(/-/g, '[-_]')}(?:=(\\d+))?$`);
  for (let i = flags.length - 1; i >= 0; i--) {
    const m = pattern.exec(flags[i]!);
    if (m) return Number(m[1] ?? flags[i + 1]);
  }
  return undefined;
}

/**
 * The limits of Temporal's workflow thread, which the SDK creates without resource limits: V8 would size its
 * young generation from the machine's memory (64 MB semi-spaces on 16 GB or more) and let its old generation grow
 * lazily towards a 4 GB limit, four times the live data between collections. Bounded here:
 * - semi-spaces of `WORKFLOW_THREAD_SEMI_SPACE_MB`;
 * - an old generation of `WORKFLOW_THREAD_OLD_SPACE_MB`, or the one that holds the `maxCachedWorkflows` asked for;
 * - `maxCachedWorkflows` derived from that bound by Temporal's own sizing (`cachedWorkflowsFor`: 32 for 256 MB),
 *   where the SDK would derive it from the main isolate's 4 GB (about 2,400). The cache is what stays in the
 *   thread's heap between tasks (a waiting run's workflow state), so a full cache fits the bound with Temporal's
 *   per-workflow allowance; a run evicted from a full cache is replayed from its history at its next task.
 * The process's own flags win (`node --max-old-space-size=N`, `NODE_OPTIONS`): they apply to the thread too, and
 * the cache is sized from them. Measured on the 1,000-workflow benchmark from a build (README, "Where the memory
 * goes"): worker RSS after 300 runs 643 MB with the young generation capped alone, 375 MB with both bounds.
 * @param requestedCache `maxCachedWorkflows` asked for by the caller (`StartWorkerOptions.workerOptions`), if any.
 * @param processFlags the process's flags: `process.execArgv` and the words of `NODE_OPTIONS`.
 */
export function workflowThreadLimits(requestedCache: number | undefined, processFlags: readonly string[]): WorkflowThreadLimits {
  const givenOld = flagValue(processFlags, 'max-old-space-size');
  const semiSpaceMb = flagValue(processFlags, 'max-semi-space-size') === undefined ? WORKFLOW_THREAD_SEMI_SPACE_MB : undefined;
  if (givenOld !== undefined && givenOld > 0) {
    return { oldSpaceMb: givenOld, oldSpaceGiven: true, semiSpaceMb, maxCachedWorkflows: requestedCache ?? cachedWorkflowsFor(givenOld) };
  }
  const oldSpaceMb = requestedCache ? Math.max(WORKFLOW_THREAD_OLD_SPACE_MB, oldSpaceFor(requestedCache)) : WORKFLOW_THREAD_OLD_SPACE_MB;
  return { oldSpaceMb, oldSpaceGiven: false, semiSpaceMb, maxCachedWorkflows: requestedCache ?? cachedWorkflowsFor(oldSpaceMb) };
}

/** This process's flags as `workflowThreadLimits` reads them: `process.execArgv` and the words of `NODE_OPTIONS`. */
export function processHeapFlags(): string[] {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)];
}

/**
 * Sets V8's heap flags to `limits` for the isolates created from now on, that is Temporal's workflow thread
 * created by `Worker.create` (the main isolate, already created, keeps its own sizing).
 * @returns a function that puts the flags back to V8's defaults (call it once the thread exists); never throws.
 */
export function applyWorkflowThreadLimits(limits: WorkflowThreadLimits): () => void {
  const set: string[] = [];
  if (limits.semiSpaceMb !== undefined) set.push('max-semi-space-size');
  if (!limits.oldSpaceGiven) set.push('max-old-space-size');
  if (limits.semiSpaceMb !== undefined) v8.setFlagsFromString(`--max-semi-space-size=${limits.semiSpaceMb}`);
  if (!limits.oldSpaceGiven) v8.setFlagsFromString(`--max-old-space-size=${limits.oldSpaceMb}`);
  // 0: V8 sizes the heap itself, its default.
  return () => set.forEach((flag) => v8.setFlagsFromString(`--${flag}=0`));
}
