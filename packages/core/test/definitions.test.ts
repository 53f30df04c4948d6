import { describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { DefinitionError, SKEIN, definitionOf, evaluator, step, workflow, z } from '../src/index.js';

describe('workflow()', () => {
  it('normalizes the definition and exposes it under SKEIN', () => {
    const wf = workflow({ name: 'greet', fn: async (i: { n: string }) => `hi ${i.n}` });
    expect(definitionOf(wf)).toMatchObject({ kind: 'workflow', name: 'greet', aliases: [] });
    expect(wf[SKEIN].name).toBe('greet');
  });

  it.each([
    [{ name: 'bad-name', fn: async () => 1 }, /name: must match/],
    [{ name: 'ok', fn: 'nope' }, /fn: must be a function/],
    [{ name: 'ok', aliases: ['fine', '9bad'], fn: async () => 1 }, /aliases\.1: must match/],
    [{ name: 'ok', fn: async () => 1, options: { activityOptions: { startToCloseTimout: '1s' } } }, /Unrecognized key/],
    [{ name: 'ok', fn: async () => 1, options: { activityOptions: { cancellationType: 'LATER' } } }, /cancellationType/],
    [{ name: 'ok', fn: async () => 1, options: { activityOptions: { priority: { priorityKey: 0 } } } }, /priority\.priorityKey/],
    [{ name: 'ok', fn: async () => 1, options: { activityOptions: { priority: { urgency: 1 } } } }, /Unrecognized key/],
    [{ name: 'ok', fn: async () => 1, options: { activityOptions: { heartbeatTimeout: -1 } } }, /heartbeatTimeout/],
    [{ name: 'ok', fn: async () => 1, options: { activityOptions: { startToCloseTimeout: 0 } } }, /startToCloseTimeout/],
    [{ name: 'ok', fn: async () => 1, outputschema: {} }, /Unrecognized key: "outputschema"/],
  ])('rejects a malformed config %#', (config, message) => {
    expect(() => workflow(config as never)).toThrow(DefinitionError);
    expect(() => workflow(config as never)).toThrow(message);
  });

  it('accepts every Temporal activity option a definition may set, an activity id on a step only', () => {
    const activityOptions = {
      startToCloseTimeout: '20m',
      scheduleToCloseTimeout: 3_600_000,
      scheduleToStartTimeout: 0,
      heartbeatTimeout: 0,
      retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '2m', maximumAttempts: 3, nonRetryableErrorTypes: [] },
      cancellationType: 'ABANDON' as const,
      priority: { priorityKey: 1, fairnessKey: 'tenant-a', fairnessWeight: 0.5 },
      summary: 'fetches the page',
    };
    expect(definitionOf(workflow({ name: 'ok', fn: async () => 1, options: { activityOptions } })).options).toEqual({ activityOptions });
    const own = { ...activityOptions, activityId: 'fetch-once' };
    expect(definitionOf(step({ name: 'ok', fn: async () => 1, options: { activityOptions: own } })).options).toEqual({ activityOptions: own });
    expect(() => workflow({ name: 'ok', fn: async () => 1, options: { activityOptions: { activityId: 'all' } as never } })).toThrow(
      /options\.activityOptions\.activityId: belongs on a step's or evaluator's own options/,
    );
  });

  it('runs locally in Node with schema checks', async () => {
    const wf = workflow({ name: 'double', inputSchema: z.number(), outputSchema: z.number(), fn: async (n: number) => n * 2 });
    await expect(wf(21)).resolves.toBe(42);
    await expect(wf('x' as never)).rejects.toThrow('Invalid input of workflow "double"');
  });
});

describe('step() and evaluator() in Node', () => {
  const add = step({
    name: 'add',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.number(),
    fn: async ({ a, b }) => a + b,
  });

  it('runs fn with validated input', async () => {
    await expect(add({ a: 1, b: 2 })).resolves.toBe(3);
  });

  it('refuses an unknown key, naming it', () => {
    expect(() => step({ name: 'typo', fn: async () => 1, inputschema: z.number() } as never)).toThrow(
      /Invalid step "typo": \(root\): Unrecognized key: "inputschema"/,
    );
    expect(() => evaluator({ name: 'typo', fn: async () => ({ value: 1 }), option: {} } as never)).toThrow(/Unrecognized key: "option"/);
  });

  it('fails non-retryably with a message naming the step and the field on bad input', async () => {
    const err = await add({ a: 1, b: 'x' } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    expect((err as ApplicationFailure).type).toBe('SkeinValidationError');
    expect((err as Error).message).toContain('Invalid input of step "add": b:');
  });

  it('checks the output schema', async () => {
    const lying = step({ name: 'lying', outputSchema: z.string(), fn: async () => 42 as never });
    await expect(lying(undefined)).rejects.toThrow('Invalid output of step "lying"');
  });

  it('requires evaluators to return { value, confidence?, reasoning? }', async () => {
    const good = evaluator({ name: 'good', fn: async () => ({ value: 'yes', confidence: 0.5 }) });
    const bad = evaluator({ name: 'bad', fn: async () => ({ confidence: 2 }) as never });
    await expect(good(null)).resolves.toEqual({ value: 'yes', confidence: 0.5 });
    await expect(bad(null)).rejects.toThrow('expected { value, confidence?, reasoning? }');
  });
});
