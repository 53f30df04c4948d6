import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';

/**
 * The TypeScript examples (examples/approval, pager, fanout) served from source, driven through every
 * route a workflow with signals, a query and an update offers (docs/api.md "Start, signal, query, update").
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('examples');
});

afterAll(async () => {
  await stack?.close();
});

describe('examples/approval: signals, a query and an update over HTTP', () => {
  it('waits for a decision, answers status and extend, and completes when decided', async () => {
    const workflowId = `approval-${Date.now()}`;
    const started = await stack.post('/workflow/start', {
      workflowName: 'approval',
      workflowId,
      input: { request: 'laptop', approver: 'ada', deadlineMinutes: 5 },
    });
    expect(started.status).toBe(200);
    expect((await stack.post(`/workflow/${workflowId}/signal/comment`, { payload: { text: 'within budget' } })).status).toBe(202);
    await expect
      .poll(async () => (await stack.post(`/workflow/${workflowId}/query/status`, {})).body, { timeout: 10_000, interval: 200 })
      .toEqual({ state: 'waiting', comments: ['within budget'], deadlineMinutes: 5 });
    const extended = await stack.post(`/workflow/${workflowId}/update/extend`, { payload: 10 });
    expect(extended).toMatchObject({ status: 200, body: 15 });
    expect((await stack.post(`/workflow/${workflowId}/signal/decide`, { payload: { approved: true, by: 'ada' } })).status).toBe(202);
    await expect.poll(async () => (await stack.get(`/workflow/${workflowId}/result`)).body.status, { timeout: 10_000, interval: 200 }).toBe('completed');
    const result = await stack.get(`/workflow/${workflowId}/result`);
    expect(result.body.output).toEqual({ request: 'laptop', state: 'approved', decidedBy: 'ada', comments: ['within budget'] });
  });
});

describe('examples/pager: continue-as-new', () => {
  it('processes 7 ids in 3 runs: run answers the last run’s output, the first run is continued_as_new', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'pager', input: { ids: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] } });
    expect(res.body).toMatchObject({ status: 'completed', output: { processed: 7, runs: 3 } });
    const { workflowId, runId } = res.body;
    const result = await stack.get(`/workflow/${workflowId}/result`);
    expect(result.body.output).toEqual(res.body.output);
    expect(result.body.runId).not.toBe(runId);
    expect(result.body.output.lastRunId).toBe(result.body.runId);
    const first = await stack.get(`/workflow/${workflowId}/runs/${runId}/result`);
    expect(first.body).toMatchObject({ status: 'continued_as_new', output: null });
  });
});

describe('examples/fanout: executeInParallel', () => {
  it('reports every text in order, a FatalError one as failed', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'fanout', input: { texts: ['one two', ' ', 'three'] } });
    expect(res.body.status).toBe('completed');
    expect(res.body.output).toEqual([
      { text: 'one two', words: 2 },
      { text: ' ', error: 'FatalError' },
      { text: 'three', words: 1 },
    ]);
  });
});
