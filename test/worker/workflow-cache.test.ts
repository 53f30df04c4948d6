import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';

/**
 * The workflow cache is sized to the workflow thread's bounded heap: more runs waiting at once than the cache holds
 * means evictions, and an evicted run is replayed from its history at its next task. Every run still completes.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('fixtures/projects/runtime', {}, { workerOptions: { maxCachedWorkflows: 2, maxConcurrentWorkflowTaskExecutions: 2 } });
});

afterAll(async () => {
  await stack?.close();
});

describe('a workflow cache smaller than the runs waiting at once', () => {
  it('reports the limits the workflow thread got', () => {
    expect(stack.worker.workflowThread.maxCachedWorkflows).toBe(2);
    // The default bound holds two cached workflows with room to spare.
    expect(stack.worker.workflowThread.oldSpaceMb).toBe(256);
  });

  it('completes every run: evicted runs are replayed when their timer fires', async () => {
    const runs = await Promise.all(Array.from({ length: 12 }, () => stack.post('/workflow/run', { workflowName: 'sleeper', input: { ms: 2_000 } })));
    expect(runs.map((r) => [r.status, r.body.status, r.body.output])).toEqual(Array.from({ length: 12 }, () => [200, 'completed', 'awake']));
  });
});
