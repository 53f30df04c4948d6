import { parseWorkflowCode } from '@temporalio/worker/lib/worker.js';
import { ThreadedVMWorkflowCreator } from '@temporalio/worker/lib/workflow/threaded-vm.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { beginWorkflowThreads, threadBundle } from '../src/host/temporal-worker.js';

const map = { version: 3, file: 'workflow-bundle-abc.js', sources: ['a.ts'], names: [], mappings: 'AAAA' };
const code = `globalThis.__webpack_module_cache__ = {};\nvar x = 1;\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
/** The least a workflow thread initializes on and stops: Temporal's module cache and its `__TEMPORAL__` global. */
const threadCode = code.replace('var x = 1;', 'var __TEMPORAL__ = { api: { destroy() {} } };');

describe('threadBundle', () => {
  it("hands the workflow thread the SDK's source map and file name, without the inline map in the code", () => {
    const sdk = parseWorkflowCode(code);
    const ours = threadBundle(code);
    expect(ours.filename).toBe(sdk.filename);
    expect(ours.sourceMap).toEqual(sdk.sourceMap);
    expect(ours.code).toBe('globalThis.__webpack_module_cache__ = {};\nvar x = 1;\n');
  });

  it('refuses a bundle without an inline source map', () => {
    expect(() => threadBundle('var x = 1;\n')).toThrow('the workflow bundle has no inline source map');
  });
});

describe('beginWorkflowThreads', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it("begins the thread Temporal's worker makes by default, told the activities' names", async () => {
    const create = vi.spyOn(ThreadedVMWorkflowCreator, 'create');
    const early = beginWorkflowThreads(threadCode, ['greet', 'judge'], { taskQueue: 'q', maxCachedWorkflows: 5 })!;
    expect(early.bundle).toEqual(threadBundle(threadCode));
    expect(early.limits.maxCachedWorkflows).toBe(5);
    const creator = await early.creator;
    expect(creator).toBeInstanceOf(ThreadedVMWorkflowCreator);
    // Under Skein's limits (the old generation's bound and the young generation), not V8's default of about 4 GB.
    const [client] = (creator as unknown as { workerThreadClients: Array<{ workerThread: { getHeapStatistics(): Promise<{ heap_size_limit: number }> } }> })
      .workerThreadClients;
    expect((await client!.workerThread.getHeapStatistics()).heap_size_limit / 2 ** 20).toBeLessThan(early.limits.oldSpaceMb + 64);
    expect(create).toHaveBeenCalledOnce();
    expect(create.mock.calls[0]![0]).toMatchObject({
      threadPoolSize: 1,
      isolateExecutionTimeoutMs: 5_000,
      reuseV8Context: true,
      registeredActivityNames: new Set(['greet', 'judge']),
    });
    // Taken: discarding it no longer stops it.
    const destroy = vi.spyOn(creator, 'destroy');
    await early.discard();
    expect(destroy).not.toHaveBeenCalled();
    await creator.destroy();
  });

  it('stops a thread nobody took, once, and reports nothing of a thread that failed', async () => {
    const destroy = vi.spyOn(ThreadedVMWorkflowCreator.prototype, 'destroy');
    const early = beginWorkflowThreads(threadCode, [], { taskQueue: 'q' })!;
    await early.discard();
    await early.discard();
    expect(destroy).toHaveBeenCalledOnce();
    // A bundle the thread cannot initialize on (no `__TEMPORAL__`): the failure is the taker's to see.
    const failing = beginWorkflowThreads(code, [], { taskQueue: 'q' })!;
    await expect(failing.discard()).resolves.toBeUndefined();
  });

  it('leaves the thread to the worker where its own thread settings are asked for, or the code has no source map', () => {
    const create = vi.spyOn(ThreadedVMWorkflowCreator, 'create');
    expect(beginWorkflowThreads(threadCode, [], { taskQueue: 'q', reuseV8Context: false })).toBeUndefined();
    expect(beginWorkflowThreads(threadCode, [], { taskQueue: 'q', workflowThreadPoolSize: 2 })).toBeUndefined();
    expect(beginWorkflowThreads(threadCode, [], { taskQueue: 'q', debugMode: true })).toBeUndefined();
    expect(beginWorkflowThreads('var x = 1;\n', [], { taskQueue: 'q' })).toBeUndefined();
    vi.stubEnv('TEMPORAL_DEBUG', '1');
    expect(beginWorkflowThreads(threadCode, [], { taskQueue: 'q' })).toBeUndefined();
    expect(create).not.toHaveBeenCalled();
  });
});
