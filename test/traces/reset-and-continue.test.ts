import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { traceFilePath } from '@skein/names/traces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';
import { eventually } from '../support/poll.js';

/**
 * Root runs that did not start as their workflow's first run: a reset's new run (its memo, copied from the run it
 * was reset from, names that run's file) and each run of a continue-as-new chain. Each has a trace of its own.
 */
let stack: Stack;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-reset-trace-'));
  stack = await startStack('fixtures/projects/trace-fleet', {}, { traceDir: dir });
});

afterAll(async () => {
  await stack?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The run's trace-log once it answers 200 (the file is written just after the run closes). */
async function traceLog(workflowId: string, runId: string): Promise<any> {
  return eventually(async () => {
    const res = await stack.get(`/workflow/${workflowId}/runs/${runId}/trace-log`);
    return res.status === 200 ? res.body : undefined;
  }, 15_000);
}

describe('traces of reset and continued runs', () => {
  it("a reset run's trace is its own: written under its run id and read by trace-log", async () => {
    const run = await stack.post('/workflow/run', { workflowName: 'wobble', input: `reset-${Date.now()}` });
    expect(run.body.status).toBe('completed');
    const { workflowId, runId } = run.body;
    await traceLog(workflowId, runId);
    const reset = await stack.post(`/workflow/${workflowId}/runs/${runId}/reset`, { stepName: 'wobbly' });
    expect(reset.status).toBe(200);
    const newRunId = reset.body.runId as string;
    expect(newRunId).not.toBe(runId);
    const result = await eventually(async () => {
      const res = await stack.get(`/workflow/${workflowId}/runs/${newRunId}/result`);
      return res.status === 200 ? res.body : undefined;
    });
    expect(result.status).toBe('completed');
    const log = await traceLog(workflowId, newRunId);
    expect(log).toMatchObject({ source: 'local', location: traceFilePath(dir, { workflowId, runId: newRunId }) });
    expect(log.data.root).toEqual({ workflowId, runId: newRunId });
    expect(log.data.tree).toMatchObject({ kind: 'workflow', name: 'wobble', runId: newRunId, status: 'completed', originalRunId: runId });
    expect(log.data.tree.children.map((c: { name: string }) => c.name)).toEqual(['wobbly']);
    // The run it was reset from keeps its own file.
    const before = JSON.parse(await readFile(traceFilePath(dir, { workflowId, runId }), 'utf8'));
    expect(before.root).toEqual({ workflowId, runId });
    // Its result names its own file.
    expect(result.trace.destinations).toEqual({ local: traceFilePath(dir, { workflowId, runId: newRunId }) });
  });

  it('every run of a continue-as-new chain has its own trace, with its own step', async () => {
    const run = await stack.post('/workflow/run', { workflowName: 'relay', input: { legs: 2 } });
    expect(run.body).toMatchObject({ status: 'completed', output: 'stamped:leg 0' });
    const { workflowId } = run.body;
    const runs = await stack.get(`/workflow/runs?query=${encodeURIComponent(`WorkflowId = '${workflowId}'`)}`);
    expect(runs.status).toBe(200);
    const ids = (runs.body.runs as Array<{ runId: string }>).map((r) => r.runId);
    expect(ids).toHaveLength(3);
    const legs = [];
    for (const id of ids) {
      const log = await traceLog(workflowId, id);
      expect(log.data.root).toEqual({ workflowId, runId: id });
      // A run of a chain is no reset run: its started event is its own.
      expect(log.data.tree).not.toHaveProperty('originalRunId');
      expect(log.data.tree.status).toBe('completed');
      legs.push(log.data.tree.children[0].output);
    }
    expect(legs.sort()).toEqual(['stamped:leg 0', 'stamped:leg 1', 'stamped:leg 2']);
  });
});
