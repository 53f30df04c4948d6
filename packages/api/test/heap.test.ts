import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { holdYoungGeneration } from '../src/heap.js';

describe('holdYoungGeneration', () => {
  it('leaves the young generation alone when the process sets its own semi-space flags', () => {
    expect(holdYoungGeneration(['--max-semi-space-size=8'])).toBe(false);
    expect(holdYoungGeneration(['--semi_space_growth_factor=2'])).toBe(false);
    expect(holdYoungGeneration(['--min-semi-space-size=1'])).toBe(false);
  });

  it('otherwise holds it, shrinking what had grown, and the process keeps working', () => {
    // Short-lived objects that survive a scavenge or two grow the young generation first.
    const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;
    let batch: Array<{ i: number }> = [];
    for (let i = 0; i < 2_000_000; i++) {
      batch.push({ i });
      if (batch.length > 100_000) batch = [];
    }
    expect(newSpace()).toBeGreaterThan(16 * 1024 * 1024);
    expect(holdYoungGeneration(['--expose-gc'])).toBe(true);
    // After the memory-reducing collection the young generation is back near its starting size, and stays there.
    expect(newSpace()).toBeLessThanOrEqual(16 * 1024 * 1024);
    for (let i = 0; i < 2_000_000; i++) {
      batch.push({ i });
      if (batch.length > 100_000) batch = [];
    }
    expect(newSpace()).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});
