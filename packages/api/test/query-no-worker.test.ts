/**
 * The query route's answer when the engine refuses a query at once because no worker has polled the run's task queue
 * lately (FAILED_PRECONDITION): 504 `WorkflowTaskTimeoutError`, as for a query no worker answers in time, not a 500.
 * The engine's answer is reproduced by a stand-in client (a real engine gives it only some time after the last worker
 * of a queue stopped).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRoutes } from '../src/routes/query.js';
import { serveApp, testDeps } from './test-deps.js';

let app: Awaited<ReturnType<typeof serveApp>>;

/** A running run's description as the Temporal client gives it (only what the API reads). */
const description = {
  workflowId: 'w1',
  runId: 'r1',
  type: 'waiter',
  taskQueue: 'main',
  status: { name: 'RUNNING' },
  startTime: new Date(),
  closeTime: undefined,
  executionTime: new Date(),
  historyLength: 3,
  memo: {},
  rootExecution: undefined,
  typedSearchAttributes: { get: () => undefined },
  raw: { workflowExecutionInfo: {} },
};

/** A FAILED_PRECONDITION as @grpc/grpc-js gives it, wrapped by the Temporal client as its query does. */
const precondition = (details: string) =>
  new Error('Failed to query workflow', { cause: Object.assign(new Error(`9 FAILED_PRECONDITION: ${details}`), { code: 9, details, metadata: {} }) });
/** What the stand-in engine answers the next query with. */
let answer = precondition('no poller seen for task queue recently, worker may be down');

beforeAll(async () => {
  const client = {
    workflow: { getHandle: () => ({ describe: async () => description, query: async () => Promise.reject(answer) }) },
    withAbortSignal: <R>(_signal: AbortSignal, fn: () => Promise<R>) => fn(),
    withDeadline: <R>(_deadline: number, fn: () => Promise<R>) => fn(),
  };
  app = await serveApp(testDeps({ client: client as never }), queryRoutes);
});

afterAll(async () => {
  await app.close();
});

describe('a query no worker can answer', () => {
  it('is a 504 WorkflowTaskTimeoutError at once when the engine says no worker polls the queue', async () => {
    const res = await fetch(`${app.base}/workflow/w1/query/state`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({
      error: 'WorkflowTaskTimeoutError',
      workflowId: 'w1',
      message: "No worker can answer the query: none has polled the workflow's catalog lately",
    });
  });

  it("leaves the engine's other refusals alone (a generic 500, its reason in the log)", async () => {
    answer = precondition('Workflow task in failed state');
    const res = await fetch(`${app.base}/workflow/w1/query/state`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: 'InternalError', message: 'Internal server error' });
  });
});
