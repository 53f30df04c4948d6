import path from 'node:path';
import { LoggerWithComposedMetadata, SdkComponent } from '@temporalio/common';
import { Runtime, Worker, type CompiledWorkerOptions, type WorkerOptions } from '@temporalio/worker';
import { ThreadedVMWorkflowCreator } from '@temporalio/worker/lib/workflow/threaded-vm.js';
import { applyWorkflowThreadLimits, processHeapFlags, workflowThreadLimits, type WorkflowThreadLimits } from './workflow-thread.js';

/** What Temporal's workflow thread is given: the bundle's code, its parsed source map, the script's file name. */
type ThreadBundle = Awaited<ReturnType<(typeof Worker)['getOrCreateBundle']>>;

const INLINE_MAP = '//# sourceMappingURL=data:';

/**
 * The bundle as Temporal's workflow thread takes it, without evaluating it: the code before its inline source map
 * and the map parsed (the thread maps workflow stack traces through it), named after the map's `file` under the
 * working directory, as the SDK names it.
 * @throws Error when the bundle has no inline source map (every bundle `bundleWorkflows` or `skein build` makes has one).
 */
export function threadBundle(code: string): NonNullable<ThreadBundle> {
  const at = code.lastIndexOf(INLINE_MAP);
  const base64 = at > 0 ? code.indexOf('base64,', at) : -1;
  if (base64 < 0) throw new Error('the workflow bundle has no inline source map');
  const sourceMap = JSON.parse(Buffer.from(code.slice(base64 + 'base64,'.length).trimEnd(), 'base64').toString()) as NonNullable<ThreadBundle>['sourceMap'];
  const filename = path.resolve(process.cwd(), sourceMap.file ?? 'workflow-bundle.js');
  return { code: code.slice(0, at), sourceMap: { ...sourceMap, file: filename }, filename };
}

/** How Temporal's worker creates its workflow thread: the settings a thread begun early must share with it. */
interface ThreadSettings {
  threadPoolSize: number;
  isolateExecutionTimeoutMs: number;
  reuseV8Context: boolean;
  registeredActivityNames: Set<string>;
}

/**
 * Temporal's workflow thread begun before its worker is created (`beginWorkflowThreads`), for `createTemporalWorker`
 * to take: the thread compiles and evaluates the bundle while the main thread goes on with the start.
 */
export interface EarlyWorkflowThreads {
  /** The bundle's code as the worker is given it (`workflowBundle.code`). */
  readonly code: string;
  /** The bundle as the thread was given it (`threadBundle(code)`). */
  readonly bundle: NonNullable<ThreadBundle>;
  readonly settings: ThreadSettings;
  /** The limits the thread was created under (and `maxCachedWorkflows` sized to fit). */
  readonly limits: WorkflowThreadLimits;
  /** The thread once it answered its initialization; rejects with the thread's error. */
  readonly creator: Promise<ThreadedVMWorkflowCreator>;
  /** Stops the thread unless a worker took it; never throws. */
  discard(): Promise<void>;
}

/**
 * Begins Temporal's workflow thread on the bundle `code` now, as `Worker.create` would begin it (its default thread
 * settings, Skein's limits of `createTemporalWorker`), so that the thread compiles and evaluates the bundle (on a
 * 1,000-workflow project about 0.4 s of a start, on another core) while the main thread computes the build ID and
 * joins the deployment. Returns undefined where the worker's own thread settings are asked for (`reuseV8Context`,
 * `workflowThreadPoolSize`, `debugMode` or `TEMPORAL_DEBUG`): then `Worker.create` makes its thread itself. The V8
 * flags of the limits stay set until the thread answered.
 * @param activityNames the activities the worker will register (the thread is told their names).
 * @param options the options the worker will be created with (`maxCachedWorkflows` and the thread settings are read).
 * @returns undefined as well for code without an inline source map, which the worker's creation then refuses.
 */
export function beginWorkflowThreads(
  code: string,
  activityNames: Iterable<string>,
  options: Partial<WorkerOptions> & { taskQueue: string },
): EarlyWorkflowThreads | undefined {
  const own = ['reuseV8Context', 'workflowThreadPoolSize', 'debugMode'] as const;
  if (own.some((k) => options[k] !== undefined) || process.env.TEMPORAL_DEBUG) return undefined;
  let bundle: NonNullable<ThreadBundle>;
  try {
    bundle = threadBundle(code);
  } catch {
    return undefined; // the worker's own start reports it
  }
  // Worker.create's defaults with the V8 context reused (Temporal's `compileWorkerOptions`).
  const settings: ThreadSettings = {
    threadPoolSize: 1,
    isolateExecutionTimeoutMs: 5_000,
    reuseV8Context: true,
    registeredActivityNames: new Set(activityNames),
  };
  const limits = workflowThreadLimits(options.maxCachedWorkflows, processHeapFlags());
  const restore = applyWorkflowThreadLimits(limits);
  const logger = LoggerWithComposedMetadata.compose(Runtime.instance().logger, { sdkComponent: SdkComponent.worker, taskQueue: options.taskQueue });
  const creator = ThreadedVMWorkflowCreator.create({ ...settings, workflowBundle: bundle, logger });
  let taken = false;
  creator.then(restore, restore);
  // Awaited by the worker that takes it; a thread nobody takes is discarded, its failure reported by nobody.
  creator.catch(() => {});
  return {
    code,
    bundle,
    settings,
    limits,
    get creator() {
      taken = true;
      return creator;
    },
    async discard() {
      if (taken) return;
      taken = true;
      await creator.then((c) => c.destroy()).catch(() => {});
    },
  };
}

/** Whether a worker compiled into `compiled` would have made the thread `early` made (else it makes its own). */
function sameThread(early: EarlyWorkflowThreads, bundle: NonNullable<ThreadBundle>, compiled: CompiledWorkerOptions): boolean {
  const names = new Set(compiled.activities.keys());
  const s = early.settings;
  return (
    !compiled.debugMode &&
    compiled.patchActivationCallback === undefined &&
    (compiled.reuseV8Context ?? true) === s.reuseV8Context &&
    compiled.workflowThreadPoolSize === s.threadPoolSize &&
    compiled.isolateExecutionTimeoutMs === s.isolateExecutionTimeoutMs &&
    bundle === early.bundle &&
    names.size === s.registeredActivityNames.size &&
    [...names].every((n) => s.registeredActivityNames.has(n))
  );
}

/**
 * Whether two sets of workflow thread limits are the same, field by field (a thread begun under `a` serves a worker
 * asking for `b`; a field added to the limits takes part without a change here).
 */
const sameLimits = (a: WorkflowThreadLimits, b: WorkflowThreadLimits): boolean =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].every((key) => a[key as keyof WorkflowThreadLimits] === b[key as keyof WorkflowThreadLimits]);

/** When each worker was first asked to stop (`performance.now()`, ms), whoever asked. */
const stopRequests = new WeakMap<Worker, number>();

/** When `worker` was first asked to stop (`performance.now()`, ms), or undefined while it was not. */
export function stopRequestedAt(worker: Worker): number | undefined {
  return stopRequests.get(worker);
}

/**
 * Temporal's `Worker` without the main-thread preload of a code bundle: for `workflowBundle: { code }` the SDK
 * compiles the whole bundle in the main isolate and evaluates it in a throw-away context (for debugger
 * breakpoints), kept 10 s, before its workflow thread compiles it again. On the 1,000-workflow benchmark's build
 * (7.3 MB) that is 85 ms of CPU, 0.2-0.4 s of wall time under load, on the way to the first run, and the main
 * isolate's heap grown for nothing. With `TEMPORAL_DEBUG` (`debugMode`) the SDK's own path is kept, for debuggers.
 * Given a thread begun early (`beginWorkflowThreads`) on the same bundle and settings, the worker takes it instead of
 * making its own; one that does not match is stopped and the worker makes its own, under `limits` (the V8 flags in
 * force only while it is created). Its `shutdown()` records when it was first asked to stop (`stopRequestedAt`).
 */
function skeinWorkerClass(early: EarlyWorkflowThreads | undefined, limits: WorkflowThreadLimits) {
  return class SkeinTemporalWorker extends Worker {
    override shutdown(): void {
      if (!stopRequests.has(this)) stopRequests.set(this, performance.now());
      super.shutdown();
    }

    protected static override async getOrCreateBundle(
      compiledOptions: CompiledWorkerOptions,
      logger: Parameters<(typeof Worker)['getOrCreateBundle']>[1],
    ): Promise<ThreadBundle> {
      const bundle = compiledOptions.workflowBundle;
      if (compiledOptions.debugMode || !bundle || !('code' in bundle)) return super.getOrCreateBundle(compiledOptions, logger);
      return early && bundle.code === early.code ? early.bundle : threadBundle(bundle.code);
    }

    protected static override async createWorkflowCreator(
      bundle: NonNullable<ThreadBundle>,
      compiledOptions: CompiledWorkerOptions,
      logger: Parameters<(typeof Worker)['createWorkflowCreator']>[2],
    ): ReturnType<(typeof Worker)['createWorkflowCreator']> {
      if (early && sameThread(early, bundle, compiledOptions)) return early.creator;
      await early?.discard();
      const restore = applyWorkflowThreadLimits(limits);
      try {
        // The workflow thread's isolate exists once this resolves (the SDK waits for the thread's first answer).
        return await super.createWorkflowCreator(bundle, compiledOptions, logger);
      } finally {
        restore();
      }
    }
  };
}

/**
 * Creates Temporal's worker with Skein's limits on its workflow thread (`workflowThreadLimits`: the thread's
 * young and old generation, and `maxCachedWorkflows` sized to fit), the flags in force only while the thread is
 * created. A `maxCachedWorkflows` in `options` is kept, and the thread's old generation made to hold it. With
 * `early` (`beginWorkflowThreads` on the same code, activities and options, so under the same limits), the worker
 * takes that thread; otherwise it is stopped.
 * @returns the worker (not running yet) and the limits it got.
 * @throws what `Worker.create` throws (an unreachable engine, bad options), and the early thread's error.
 */
export async function createTemporalWorker(options: WorkerOptions, early?: EarlyWorkflowThreads): Promise<{ worker: Worker; limits: WorkflowThreadLimits }> {
  const limits = workflowThreadLimits(options.maxCachedWorkflows, processHeapFlags());
  const usable = early && sameLimits(early.limits, limits) ? early : undefined;
  if (early !== usable) await early?.discard();
  try {
    const worker = await skeinWorkerClass(usable, limits).create({ ...options, maxCachedWorkflows: limits.maxCachedWorkflows });
    return { worker, limits };
  } catch (err) {
    await usable?.discard();
    throw err;
  }
}
