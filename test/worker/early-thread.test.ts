import { NativeConnection, Worker } from '@temporalio/worker';
import { ThreadedVMWorkflowCreator } from '@temporalio/worker/lib/workflow/threaded-vm.js';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { beginWorkflowThreads, createTemporalWorker } from '../../packages/worker/dist/host/temporal-worker.js';
import { startStack, type Stack } from '../support/stack.js';

/** The heap limit of a workflow creator's (first) thread, MB. */
async function heapLimitMb(creator: ThreadedVMWorkflowCreator): Promise<number> {
  const [client] = (creator as unknown as { workerThreadClients: Array<{ workerThread: { getHeapStatistics(): Promise<{ heap_size_limit: number }> } }> })
    .workerThreadClients;
  return (await client!.workerThread.getHeapStatistics()).heap_size_limit / 2 ** 20;
}

/**
 * Temporal's workflow thread begins on the bundle before the worker computes its build ID and is created; the worker
 * takes that thread when it would have made the same one, and otherwise stops it and makes its own.
 */
let stack: Stack;
const create = vi.spyOn(ThreadedVMWorkflowCreator, 'create');
const createWorker = vi.spyOn(Worker, 'create');

beforeAll(async () => {
  stack = await startStack('fixtures/projects/runtime');
});

afterAll(async () => {
  vi.restoreAllMocks();
  await stack?.close();
});

describe('the workflow thread begun early', () => {
  it('is begun before the worker is created, and is the one it serves on: one thread made, and runs complete on it', async () => {
    expect(create).toHaveBeenCalledOnce();
    expect(createWorker).toHaveBeenCalledOnce();
    // Begun before the worker was created (while its build ID was computed), not by `Worker.create`.
    expect(create.mock.invocationCallOrder[0]).toBeLessThan(createWorker.mock.invocationCallOrder[0]!);
    const run = await stack.post('/workflow/run', { workflowName: 'sleeper', input: { ms: 10 } });
    expect([run.status, run.body.status, run.body.output]).toEqual([200, 'completed', 'awake']);
  });

  it('is stopped when the worker registers other activities than it was told, and the worker makes its own', async () => {
    create.mockClear();
    const destroy = vi.spyOn(ThreadedVMWorkflowCreator.prototype, 'destroy');
    const code = stack.worker.workflowBundle.code;
    const taskQueue = `${stack.catalog}-early`;
    const early = beginWorkflowThreads(code, ['told'], { taskQueue })!;
    const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
    try {
      const { worker } = await createTemporalWorker({ connection, taskQueue, workflowBundle: { code }, activities: { registered: async () => 1 } }, early);
      expect(create).toHaveBeenCalledTimes(2);
      expect(destroy).toHaveBeenCalledOnce();
      // The thread it made instead was created under Skein's limits too (V8's default would be about 4 GB here).
      expect(await heapLimitMb(await create.mock.results[1]!.value)).toBeLessThan(1024);
      const running = worker.run();
      worker.shutdown();
      await running;
    } finally {
      await connection.close();
    }
  });
});
