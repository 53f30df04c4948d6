import { describe, expect, it } from 'vitest';
import { executeInParallel } from '../src/index.js';

/** A job that resolves `value` after `ms`, recording how many jobs run at once. */
function tracked(gauge: { now: number; max: number }, value: number, ms: number) {
  return async () => {
    gauge.now++;
    gauge.max = Math.max(gauge.max, gauge.now);
    await new Promise((r) => setTimeout(r, ms));
    gauge.now--;
    return value;
  };
}

describe('executeInParallel', () => {
  it('answers one result per job in job order, whatever order they finish in', async () => {
    const results = await executeInParallel({
      jobs: [
        async () => {
          await new Promise((r) => setTimeout(r, 30));
          return 'slow';
        },
        async () => 'fast',
        () => 'sync value',
      ],
    });
    expect(results).toEqual([
      { ok: true, result: 'slow', index: 0 },
      { ok: true, result: 'fast', index: 1 },
      { ok: true, result: 'sync value', index: 2 },
    ]);
  });

  it('reports a failed job as { ok: false, error } without failing the others', async () => {
    const boom = new RangeError('boom');
    const results = await executeInParallel<number>({
      jobs: [
        async () => 1,
        async () => {
          throw boom;
        },
        async () => 3,
      ],
    });
    expect(results[0]).toEqual({ ok: true, result: 1, index: 0 });
    expect(results[1]).toEqual({ ok: false, error: boom, index: 1 });
    expect(results[2]).toEqual({ ok: true, result: 3, index: 2 });
  });

  it('gives a job that throws a non-Error value an Error named NonErrorThrownError, the value as its cause', async () => {
    const thrown = { code: 42 };
    const results = await executeInParallel({
      jobs: [
        () => {
          throw 'declined';
        },
        async () => {
          throw thrown;
        },
      ],
    });
    const errors = results.map((r) => (r.ok ? undefined : r.error));
    expect(errors.every((e) => e instanceof Error && e.name === 'NonErrorThrownError')).toBe(true);
    expect(errors.map((e) => e?.message)).toEqual([
      'jobs[0] threw a non-Error value: "declined"; throw an Error instead',
      'jobs[1] threw a non-Error value: {"code":42}; throw an Error instead',
    ]);
    expect(errors.map((e) => e?.cause)).toEqual(['declined', thrown]);
  });

  it('keeps at most `concurrency` jobs in flight', async () => {
    const gauge = { now: 0, max: 0 };
    const results = await executeInParallel({ jobs: [1, 2, 3, 4, 5, 6, 7].map((n) => tracked(gauge, n, 10)), concurrency: 3 });
    expect(gauge.max).toBe(3);
    expect(results.map((r) => (r.ok ? r.result : null))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('runs every job at once without `concurrency`', async () => {
    const gauge = { now: 0, max: 0 };
    await executeInParallel({ jobs: [1, 2, 3, 4].map((n) => tracked(gauge, n, 10)) });
    expect(gauge.max).toBe(4);
  });

  it('answers [] for no jobs', async () => {
    await expect(executeInParallel({ jobs: [] })).resolves.toEqual([]);
  });

  it('rejects a job that is not a function before starting any job, naming its index', async () => {
    let started = false;
    const run = executeInParallel({ jobs: [async () => (started = true), 'nope' as never] });
    await expect(run).rejects.toThrow(TypeError);
    await expect(run).rejects.toThrow('jobs[1] is not a function (got string)');
    expect(started).toBe(false);
  });

  it.each([0, -1, 1.5, Number.NaN, '2'])('rejects concurrency %s', async (concurrency) => {
    await expect(executeInParallel({ jobs: [async () => 1], concurrency: concurrency as number })).rejects.toThrow(/concurrency must be a positive integer/);
  });

  it('rejects jobs that are not an array', async () => {
    await expect(executeInParallel({ jobs: undefined as never })).rejects.toThrow('`jobs` must be an array');
    await expect(executeInParallel(undefined as never)).rejects.toThrow(TypeError);
  });

  it('calls onJobCompleted in completion order, and takes concurrency: Infinity', async () => {
    const order: number[] = [];
    const results = await executeInParallel({
      jobs: [() => new Promise((r) => setTimeout(() => r('slow'), 30)), () => 'fast'],
      concurrency: Infinity,
      onJobCompleted: (r) => void order.push(r.index),
    });
    expect(order).toEqual([1, 0]);
    expect(results.map((r) => r.index)).toEqual([0, 1]);
    await expect(executeInParallel({ jobs: [], onJobCompleted: 'no' as never })).rejects.toThrow(TypeError);
  });
});
