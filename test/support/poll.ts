import { vi } from 'vitest';

/**
 * Resolves with the first truthy value `check` returns, asking again every `intervalMs`, through Vitest's own poller
 * (`vi.waitFor`): the one way the integration and system tests wait for something. A `check` that throws is asked
 * again too; at `timeoutMs` the last error is thrown, or `condition not met in time` when `check` only returned
 * falsy values. Where the awaited value is asserted at once, `expect.poll(fn, { timeout }).toMatchObject(…)` says
 * it more directly; `eventually` is for a value used afterwards.
 * @param timeoutMs give up after this long (ms), default 20 000.
 * @param intervalMs ask again after this long (ms), default 100.
 */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 20_000, intervalMs = 100): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (!value) throw new Error('condition not met in time');
      return value;
    },
    { timeout: timeoutMs, interval: intervalMs },
  );
}
