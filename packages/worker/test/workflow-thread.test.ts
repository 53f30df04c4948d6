import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  applyWorkflowThreadLimits,
  cachedWorkflowsFor,
  oldSpaceFor,
  WORKFLOW_THREAD_OLD_SPACE_MB,
  WORKFLOW_THREAD_SEMI_SPACE_MB,
  workflowThreadLimits,
} from '../src/host/workflow-thread.js';

/** The heap statistics of a new worker thread, as the workflow thread Temporal creates would get them. */
async function threadHeap(): Promise<v8.HeapInfo> {
  const thread = new Worker('setTimeout(() => {}, 10_000)', { eval: true });
  try {
    await new Promise((resolve) => thread.once('online', resolve));
    return await thread.getHeapStatistics();
  } finally {
    await thread.terminate();
  }
}

describe('workflowThreadLimits', () => {
  it('bounds the thread and sizes the cache from the bound by Temporal\u2019s own ratio', () => {
    const limits = workflowThreadLimits(undefined, []);
    expect(limits).toEqual({
      oldSpaceMb: WORKFLOW_THREAD_OLD_SPACE_MB,
      oldSpaceGiven: false,
      semiSpaceMb: WORKFLOW_THREAD_SEMI_SPACE_MB,
      maxCachedWorkflows: 32,
    });
    // Temporal's default for a 4 GB heap (what the SDK would derive from the main isolate), for comparison.
    expect(cachedWorkflowsFor(4096)).toBe(Math.floor(((4096 - 200) * 600) / 1024));
  });

  it('makes the old generation hold a larger cache asked for, and keeps a smaller one with the default bound', () => {
    const big = workflowThreadLimits(500, []);
    expect(big.maxCachedWorkflows).toBe(500);
    expect(big.oldSpaceMb).toBe(oldSpaceFor(500));
    expect(cachedWorkflowsFor(big.oldSpaceMb)).toBeGreaterThanOrEqual(500);
    expect(workflowThreadLimits(10, [])).toMatchObject({ oldSpaceMb: WORKFLOW_THREAD_OLD_SPACE_MB, maxCachedWorkflows: 10 });
    expect(workflowThreadLimits(0, [])).toMatchObject({ oldSpaceMb: WORKFLOW_THREAD_OLD_SPACE_MB, maxCachedWorkflows: 0 });
  });

  it("lets the process's own heap flags win, in either spelling, and sizes the cache from them", () => {
    expect(workflowThreadLimits(undefined, ['--max-old-space-size=1024'])).toEqual({
      oldSpaceMb: 1024,
      oldSpaceGiven: true,
      semiSpaceMb: WORKFLOW_THREAD_SEMI_SPACE_MB,
      maxCachedWorkflows: cachedWorkflowsFor(1024),
    });
    expect(workflowThreadLimits(7, ['--max_old_space_size', '600', '--max-semi-space-size=16'])).toMatchObject({
      oldSpaceMb: 600,
      oldSpaceGiven: true,
      semiSpaceMb: undefined,
      maxCachedWorkflows: 7,
    });
  });
});

describe('applyWorkflowThreadLimits', () => {
  it('limits threads created while in force, and only those', async () => {
    const before = await threadHeap();
    const restore = applyWorkflowThreadLimits(workflowThreadLimits(undefined, []));
    let limited: v8.HeapInfo;
    try {
      limited = await threadHeap();
    } finally {
      restore();
    }
    const after = await threadHeap();
    // The limit is the old generation plus the young one (three semi-spaces).
    expect(limited.heap_size_limit / 2 ** 20).toBe(WORKFLOW_THREAD_OLD_SPACE_MB + 3 * WORKFLOW_THREAD_SEMI_SPACE_MB);
    expect(after.heap_size_limit).toBe(before.heap_size_limit);
    expect(v8.getHeapStatistics().heap_size_limit).toBe(before.heap_size_limit);
  });
});
