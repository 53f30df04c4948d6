import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { capWorkflowThreadYoungGeneration, WORKFLOW_THREAD_SEMI_SPACE_MB } from '../src/thread-heap.js';

/** The heap size limit (bytes) of a new worker thread, as the workflow thread Temporal creates would get it. */
async function threadHeapLimit(): Promise<number> {
  const thread = new Worker('setTimeout(() => {}, 10_000)', { eval: true });
  try {
    await new Promise((resolve) => thread.once('online', resolve));
    return (await thread.getHeapStatistics()).heap_size_limit;
  } finally {
    await thread.terminate();
  }
}

describe('capWorkflowThreadYoungGeneration', () => {
  it('caps the young generation (three semi-spaces) of threads created afterwards, and nothing else', async () => {
    // A known starting point whatever the machine's memory: 32 MB semi-spaces.
    v8.setFlagsFromString('--max-semi-space-size=32');
    const before = await threadHeapLimit();
    capWorkflowThreadYoungGeneration();
    const after = await threadHeapLimit();
    expect((before - after) / 2 ** 20).toBe(3 * (32 - WORKFLOW_THREAD_SEMI_SPACE_MB));
  });
});
