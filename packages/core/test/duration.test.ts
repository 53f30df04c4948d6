import { describe, expect, it } from 'vitest';
import { durationMs, sleep } from '../src/index.js';

describe('durationMs', () => {
  it.each([
    [250, 250],
    [0, 0],
    ['3s', 3000],
    ['2m', 120_000],
    ['1 hour', 3_600_000],
  ])('reads %j as %d ms', (input, ms) => {
    expect(durationMs(input, 'sleep()')).toBe(ms);
  });

  it.each(['soon', '', -1, Number.POSITIVE_INFINITY, Number.NaN, null, {}, true])('rejects %j with a TypeError naming the caller', (input) => {
    expect(() => durationMs(input, 'sleep()')).toThrow(TypeError);
    expect(() => durationMs(input, 'sleep()')).toThrow(/^sleep\(\): .* is not a duration/);
  });
});

describe('sleep (Node entry)', () => {
  it('waits about the given time', async () => {
    const t0 = performance.now();
    await sleep('40ms');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(35);
  });

  it("rejects sleep('soon') with a TypeError", async () => {
    await expect(sleep('soon')).rejects.toThrow('sleep(): "soon" is not a duration');
  });
});
