import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { startStack, type Stack } from '../support/stack.js';

/**
 * Steps, an evaluator and a workflow made by factory functions named by their arguments
 * (fixtures/projects/step-factories: `lookupStep('fetchUser', '/users')` from shared/steps, `scoreBy('judgeName', 2)`
 * from a lib file, `export default echoWorkflow('mirror')`), served from the TypeScript sources on the shared engine:
 * discovery registers each under the name its call gives, and the workflow's calls schedule those activity types.
 */
let stack: Stack;
let connection: Connection;

beforeAll(async () => {
  stack = await startStack('fixtures/projects/step-factories');
  connection = await Connection.connect({ address: stack.address });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await connection?.close();
});

describe('definitions made by factories', () => {
  it('registers each step and evaluator under the name its factory call gives, and runs them', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'profile', input: { id: 'u1' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', output: { user: 'Ada', orders: '3 orders', health: 'ok', score: 6 } });
    const history = await new Client({ connection }).workflow.getHandle(res.body.workflowId, res.body.runId).fetchHistory();
    const types = (history.events ?? []).flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(types.sort()).toEqual(['profile#fetchHealth', 'profile#fetchOrders', 'profile#fetchUser', 'profile#judgeName']);
  });

  it('registers a workflow a factory call makes under the name it gives', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'mirror', input: { text: 'hi' } });
    expect(res.body).toMatchObject({ status: 'completed', output: { workflow: 'mirror', text: 'hi' } });
  });
});
