import { describe, expect, it, vi } from 'vitest';
import { monitorEngine, type HealthCheckedEngine } from '../src/index.js';

/** An engine whose health checks answer as `outcomes` says, in order (then like the last one). */
function engineAnswering(outcomes: boolean[]): HealthCheckedEngine & { calls: number } {
  const engine = {
    calls: 0,
    withDeadline: <R>(_deadline: number | Date, fn: () => Promise<R>) => fn(),
    workflowService: {
      getSystemInfo: async () => {
        const ok = outcomes[Math.min(engine.calls, outcomes.length - 1)];
        engine.calls += 1;
        if (!ok) throw new Error('14 UNAVAILABLE: connection refused\n  at detail');
        return {};
      },
      describeNamespace: async ({ namespace }: { namespace: string }) => {
        engine.calls += 1;
        if (namespace !== 'default') throw new Error(`5 NOT_FOUND: Namespace ${namespace} is not found.`);
        return {};
      },
    },
  };
  return engine;
}

describe('monitorEngine', () => {
  it('asks for the namespace the process uses where one is given: an engine without it fails the check', async () => {
    const engine = engineAnswering([true]);
    const health = { healthy: true };
    const onLost = vi.fn();
    const monitor = monitorEngine(engine, { intervalMs: 10, failures: 2, address: 'h:1', namespace: 'nope', health, onLost });
    await vi.waitFor(() =>
      expect(onLost).toHaveBeenCalledWith('Temporal server at h:1 failed 2 consecutive health checks: 5 NOT_FOUND: Namespace nope is not found.'),
    );
    expect(health.healthy).toBe(false);
    monitor.stop();
  });

  it('gives the engine up once after the configured failures in a row, with a one-line reason', async () => {
    const engine = engineAnswering([false]);
    const health = { healthy: true };
    const onLost = vi.fn();
    monitorEngine(engine, { intervalMs: 10, failures: 3, address: 'h:1', health, onLost });
    await vi.waitFor(() => expect(onLost).toHaveBeenCalled(), { timeout: 2_000 });
    await new Promise((r) => setTimeout(r, 50));
    expect(onLost).toHaveBeenCalledTimes(1);
    expect(onLost).toHaveBeenCalledWith('Temporal server at h:1 failed 3 consecutive health checks: 14 UNAVAILABLE: connection refused');
    expect(engine.calls).toBe(3);
    expect(health.healthy).toBe(false);
  });

  it('marks the engine unhealthy from the first failure and healthy again when a check passes, without giving up', async () => {
    const engine = engineAnswering([false, false, true]);
    const history: boolean[] = [];
    const health = {
      get healthy() {
        return history.at(-1) ?? true;
      },
      set healthy(value: boolean) {
        history.push(value);
      },
    };
    const onLost = vi.fn();
    const monitor = monitorEngine(engine, { intervalMs: 10, failures: 3, address: 'h:1', health, onLost });
    await vi.waitFor(() => expect(history.length).toBeGreaterThanOrEqual(4), { timeout: 2_000 });
    monitor.stop();
    expect(history.slice(0, 4)).toEqual([false, false, true, true]);
    expect(onLost).not.toHaveBeenCalled();
  });

  it('checks nothing after stop()', async () => {
    const engine = engineAnswering([true]);
    const monitor = monitorEngine(engine, { intervalMs: 10, failures: 1, address: 'h:1', onLost: () => {} });
    monitor.stop();
    await new Promise((r) => setTimeout(r, 50));
    expect(engine.calls).toBe(0);
  });
});
