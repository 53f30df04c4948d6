import path from 'node:path';
import { Worker, type CompiledWorkerOptions, type WorkerOptions } from '@temporalio/worker';
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

/**
 * Temporal's `Worker` without the main-thread preload of a code bundle: for `workflowBundle: { code }` the SDK
 * compiles the whole bundle in the main isolate and evaluates it in a throw-away context (for debugger
 * breakpoints), kept 10 s, before its workflow thread compiles it again. On the 1,000-workflow benchmark's build
 * (7.3 MB) that is 85 ms of CPU, 0.2-0.4 s of wall time under load, on the way to the first run, and the main
 * isolate's heap grown for nothing. With `TEMPORAL_DEBUG` (`debugMode`) the SDK's own path is kept, for debuggers.
 */
class SkeinTemporalWorker extends Worker {
  protected static override async getOrCreateBundle(
    compiledOptions: CompiledWorkerOptions,
    logger: Parameters<(typeof Worker)['getOrCreateBundle']>[1],
  ): Promise<ThreadBundle> {
    const bundle = compiledOptions.workflowBundle;
    if (compiledOptions.debugMode || !bundle || !('code' in bundle)) return super.getOrCreateBundle(compiledOptions, logger);
    return threadBundle(bundle.code);
  }
}

/**
 * Creates Temporal's worker with Skein's limits on its workflow thread (`workflowThreadLimits`: the thread's
 * young and old generation, and `maxCachedWorkflows` sized to fit), the flags in force only while the thread is
 * created. A `maxCachedWorkflows` in `options` is kept, and the thread's old generation made to hold it.
 * @returns the worker (not running yet) and the limits it got.
 * @throws what `Worker.create` throws (an unreachable engine, bad options).
 */
export async function createTemporalWorker(options: WorkerOptions): Promise<{ worker: Worker; limits: WorkflowThreadLimits }> {
  const limits = workflowThreadLimits(options.maxCachedWorkflows, processHeapFlags());
  const restore = applyWorkflowThreadLimits(limits);
  try {
    // The workflow thread's isolate exists once `create` resolves (the SDK waits for the thread's first answer).
    const worker = await SkeinTemporalWorker.create({ ...options, maxCachedWorkflows: limits.maxCachedWorkflows });
    return { worker, limits };
  } finally {
    restore();
  }
}
