import { Connection } from '@temporalio/client';
import { afterEach, describe, expect, it } from 'vitest';
import { FatalError, TransparentFatalError, continueAsNew, isNonRetryableError, step, workflow, type CustomEvent } from '../src/index.js';
import { clearHooks, dispatchLifecycle, emptyAggregations, runInActivityScope, type ActivityScope } from '../src/internal.js';
import * as hooks from '../src/hooks/index.js';
import { ComponentMetadata, Objects, Path } from '../src/sdk/helpers/index.js';
import { Context, Event, Tracing } from '../src/sdk/runtime/index.js';
import { configureWorkerClient, createTemporalClient, getCurrentWorkflowHandle } from '../src/temporal/index.js';
import pkg from '../package.json' with { type: 'json' };

afterEach(() => clearHooks());

const scope = (): ActivityScope => ({
  workflowDetails: {
    attempt: 1,
    continuedFromExecutionRunId: null,
    firstExecutionRunId: 'r1',
    parent: null,
    root: null,
    runId: 'r1',
    runStartTime: 0,
    startTime: 0,
    workflowId: 'w1',
    workflowType: 'flow',
  },
  activityInfo: { activityId: '5', activityType: 'flow#act', name: 'act', attempt: 1, taskQueue: 'q', scheduledTime: 0 },
  kind: 'step',
  aggregations: emptyAggregations(),
});

describe('package exports', () => {
  it('offers the seed system subpaths, each with a source, types and an import target', () => {
    for (const sub of ['.', './hooks', './sdk/runtime', './sdk/helpers', './temporal']) {
      expect(Object.keys((pkg.exports as Record<string, object>)[sub]!)).toEqual(expect.arrayContaining(['@skein/source', 'types', 'import']));
    }
  });
});

describe('@skein/core/hooks', () => {
  it('exports the hook-file API under the seed system names; onBeforeWorkerStart is onBeforeStart', async () => {
    for (const name of [
      'onError',
      'onBeforeWorkerStart',
      'onWorkflowStart',
      'onWorkflowEnd',
      'onWorkflowError',
      'onActivityStart',
      'onActivityEnd',
      'onActivityError',
      'on',
      'emit',
    ]) {
      expect(typeof (hooks as Record<string, unknown>)[name]).toBe('function');
    }
    const seen: string[] = [];
    hooks.onBeforeWorkerStart((p) => void seen.push(p.catalog));
    await dispatchLifecycle('onBeforeStart', { eventId: 'e', eventDate: 0, catalog: 'main', workflows: [] });
    expect(seen).toEqual(['main']);
  });
});

describe('@skein/core/sdk/runtime', () => {
  it('Context.getActivityContext() is null outside an activity', () => {
    expect(Context.getActivityContext()).toBeNull();
    // A scope without Temporal's activity context (not on a worker) is not an activity either.
    expect(runInActivityScope(scope(), () => Context.getActivityContext())).toBeNull();
  });

  it('Event.emit fires on() listeners with the activity envelope and says whether anyone listened', async () => {
    const seen: CustomEvent[] = [];
    expect(Event.emit('nobody', {})).toBe(false);
    hooks.on('custom_event', (e) => void seen.push(e));
    expect(runInActivityScope(scope(), () => Event.emit('custom_event', { hi: 'mark' }))).toBe(true);
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toMatchObject({
      name: 'custom_event',
      payload: { hi: 'mark' },
      outputActivityKind: 'step',
      workflowDetails: { workflowId: 'w1' },
      activityInfo: { activityId: '5' },
    });
  });

  it('Tracing records start, attribute, end and error events in the running activity, and nothing outside', () => {
    const s = scope();
    runInActivityScope(s, () => {
      Tracing.addEventStart({ id: 'a', kind: 'db', name: 'query', details: { sql: 'select 1' } });
      const usage = new Tracing.Attribute.LLMUsage('m');
      usage.addUsage({ type: 'input', ppm: 3, amount: 1000 });
      usage.addUsage({ type: 'output', ppm: 15, amount: 200 });
      Tracing.addEventAttribute({ eventId: 'a', attribute: usage });
      Tracing.addEventEnd({ id: 'a', details: { rows: 1 } });
      Tracing.addEventStart({ id: 'b', kind: 'http', name: 'call', details: null });
      Tracing.addEventError({ id: 'b', details: new RangeError('too far') });
    });
    expect(s.traceEvents?.map((e) => `${e.action}:${e.id}`)).toEqual(['start:a', 'attribute:a', 'end:a', 'start:b', 'error:b']);
    expect(s.traceEvents?.[1]?.details).toMatchObject({ type: 'llm:usage', modelId: 'm', total: 0.006, tokensUsed: 1200 });
    expect(s.traceEvents?.[4]?.details).toEqual({ name: 'RangeError', message: 'too far' });
    expect(new Tracing.Attribute.HTTPRequestCost('u', 'r', 0.5)).toMatchObject({ type: 'http:request:cost', url: 'u', requestId: 'r', total: 0.5 });
    expect(() => Tracing.addEventStart({ id: 'c', kind: 'k', name: 'n' })).not.toThrow();
  });
});

describe('@skein/core/sdk/helpers', () => {
  it('ComponentMetadata names what workflow() and step() returned', () => {
    const s = step({ name: 'my_step', fn: async () => 1 });
    const w = workflow({ name: 'my_flow', fn: async () => 1 });
    expect([ComponentMetadata.getName(s), ComponentMetadata.getName(w), ComponentMetadata.getName(() => 1)]).toEqual(['my_step', 'my_flow', undefined]);
    expect([ComponentMetadata.has(s), ComponentMetadata.has({})]).toEqual([true, false]);
  });

  it('Objects clones, tests plain objects and merges deeply (with a resolver)', () => {
    const src = {
      a: { b: [1, 2] },
      get c() {
        return 3;
      },
    };
    const copy = Objects.clone(src);
    expect(copy).toEqual({ a: { b: [1, 2] }, c: 3 });
    expect(copy.a.b).not.toBe(src.a.b);
    expect([Objects.isPlainObject({}), Objects.isPlainObject(Object.create(null)), Objects.isPlainObject([]), Objects.isPlainObject(new Date())]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(Objects.deepMerge({ a: { x: 1, y: 1 }, k: [1] }, { a: { y: 2 } }, null, { k: [2] })).toEqual({ a: { x: 1, y: 2 }, k: [2] });
    expect(Objects.deepMergeWithResolver({ n: 1, o: { m: 2 } }, { n: 10, o: { m: 3 }, z: 1 }, (a, b) => (a as number) + (b as number))).toEqual({
      n: 11,
      o: { m: 5 },
      z: 1,
    });
    expect(() => Objects.deepMerge([] as never)).toThrow(TypeError);
  });

  it("Path.resolveInvocationDir names the calling file's directory", () => {
    expect(Path.resolveInvocationDir()).toBe(import.meta.dirname);
    expect(() => Path.resolveInvocationDir(['/'])).toThrow(/no caller/);
  });
});

describe('@skein/core/temporal', () => {
  it('both functions are a clear FatalError outside a worker', () => {
    expect(() => createTemporalClient()).toThrow(new FatalError('createTemporalClient() works only inside a Skein worker, once it has connected to Temporal'));
    expect(() => getCurrentWorkflowHandle()).toThrow(FatalError);
  });

  it("createTemporalClient() uses the worker's connection and namespace, and cannot close it", async () => {
    const connection = Connection.lazy({ address: '127.0.0.1:1' });
    const release = configureWorkerClient({ connection, namespace: 'ns-a' });
    try {
      const client = createTemporalClient();
      expect(client.options.namespace).toBe('ns-a');
      await expect(client.connection.close()).rejects.toThrow(/owned by the worker/);
      // Outside an activity there is no current run, even on a worker.
      expect(() => getCurrentWorkflowHandle()).toThrow(/only in a step or evaluator/);
    } finally {
      release();
      await connection.close();
    }
    expect(() => createTemporalClient()).toThrow(FatalError);
  });
});

describe('root helpers in Node', () => {
  it("TransparentFatalError takes its cause's name and message and stays non-retryable", () => {
    const err = new TransparentFatalError(new RangeError('out of range'));
    expect([err.name, err.message, err.cause instanceof RangeError, isNonRetryableError(err)]).toEqual(['RangeError', 'out of range', true, true]);
    expect(() => new TransparentFatalError('x' as never)).toThrow(FatalError);
  });

  it('continueAsNew() is workflow code only; options.disableTrace is accepted on workflows and steps', async () => {
    await expect(continueAsNew({})).rejects.toThrow(/only in workflow code/);
    expect(() => workflow({ name: 'quiet', fn: async () => 1, options: { disableTrace: true } })).not.toThrow();
    expect(() =>
      step({ name: 'quiet_step', fn: async () => 1, options: { disableTrace: true, activityOptions: { retry: { maximumAttempts: 1 } } } }),
    ).not.toThrow();
    expect(() => workflow({ name: 'bad', fn: async () => 1, options: { disableTrace: 'yes' as never } })).toThrow(/disableTrace/);
  });
});
