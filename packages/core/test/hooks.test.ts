import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emit, on, onBeforeStart, onWorkflowStart, reportLlmUsage, type CustomEvent } from '../src/index.js';
import {
  clearHooks,
  dispatchLifecycle,
  drainHooks,
  emptyAggregations,
  runInActivityScope,
  serializeError,
  setHookErrorReporter,
  type ActivityScope,
} from '../src/internal.js';

// The registry is process-wide: each test starts from an empty one, whatever an earlier test or file left in it.
beforeEach(() => clearHooks());
afterEach(() => clearHooks());

const scope = (): ActivityScope => ({
  kind: 'step',
  aggregations: emptyAggregations(),
  activityInfo: { activityId: '1', activityType: 'wf#s', name: 's', attempt: 1, taskQueue: 'main', scheduledTime: 0 },
  workflowDetails: {
    attempt: 1,
    continuedFromExecutionRunId: null,
    firstExecutionRunId: 'r',
    parent: null,
    root: null,
    runId: 'r',
    runStartTime: 0,
    startTime: 0,
    workflowId: 'w',
    workflowType: 'wf',
  },
});

describe('emit and on', () => {
  it('wraps the payload in the SPEC envelope, with activity members only inside an activity', async () => {
    const seen: CustomEvent[] = [];
    on('custom', (e) => void seen.push(e));
    emit('custom', { a: 1 });
    runInActivityScope(scope(), () => emit('custom', { a: 2 }));
    await drainHooks(1000);
    expect(seen[0]).toEqual({ eventId: expect.any(String), eventDate: expect.any(Number), name: 'custom', payload: { a: 1 } });
    expect(seen[1]).toMatchObject({
      payload: { a: 2 },
      outputActivityKind: 'step',
      activityInfo: { activityType: 'wf#s' },
      workflowDetails: { workflowId: 'w' },
    });
  });

  it('sums cost, http calls and tokens into the running activity’s aggregations', () => {
    const s = scope();
    runInActivityScope(s, () => {
      emit('http:request', { method: 'GET', url: 'x', status: 200, durationMs: 1 });
      emit('cost:http:request', { cost: 0.5, currency: 'USD' });
      reportLlmUsage({ model: 'm', inputTokens: 10, outputTokens: 5, cost: 0.25 });
    });
    expect(s.aggregations).toEqual({ totalCost: 0.75, httpCalls: 1, tokens: { input: 10, output: 5, total: 15 } });
  });
});

describe('lifecycle dispatch', () => {
  it('reports a throwing hook and still runs the others', async () => {
    const errors: string[] = [];
    setHookErrorReporter((err, hook) => errors.push(`${hook}: ${(err as Error).message}`));
    let ran = false;
    onWorkflowStart(() => {
      throw new Error('boom');
    });
    onWorkflowStart(async () => {
      ran = true;
    });
    await dispatchLifecycle('onWorkflowStart', { eventId: 'e', eventDate: 0, workflowDetails: scope().workflowDetails });
    expect(await drainHooks(1000)).toBe(0);
    expect(ran).toBe(true);
    expect(errors).toEqual(['onWorkflowStart: boom']);
  });

  it('awaits onBeforeStart hooks in order', async () => {
    const order: number[] = [];
    onBeforeStart(async () => {
      await new Promise((r) => setTimeout(r, 20));
      order.push(1);
    });
    onBeforeStart(() => void order.push(2));
    await dispatchLifecycle('onBeforeStart', { eventId: 'e', eventDate: 0, catalog: 'main', workflows: [] });
    expect(order).toEqual([1, 2]);
  });

  it('drainHooks gives up after its timeout and says how many are still pending', async () => {
    onWorkflowStart(() => new Promise(() => {}));
    await dispatchLifecycle('onWorkflowStart', { eventId: 'e', eventDate: 0, workflowDetails: scope().workflowDetails });
    const t0 = Date.now();
    expect(await drainHooks(100)).toBe(1);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe('serializeError', () => {
  it('keeps name, message and Temporal failure type, and cuts the cause chain at 10 levels', () => {
    let err: Error = new Error('l0');
    for (let i = 1; i < 12; i++) err = new Error(`l${i}`, { cause: err });
    let s = serializeError(err);
    let depth = 1;
    while (s.cause) {
      s = s.cause;
      depth++;
    }
    expect(depth).toBe(10);
    expect(s).toMatchObject({ message: 'l2', truncated: true });
    expect(serializeError(Object.assign(new Error('x'), { type: 'KidError' }))).toEqual({ name: 'Error', message: 'x', type: 'KidError' });
  });
});
