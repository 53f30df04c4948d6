import { describe, expect, it } from 'vitest';
import { deepMerge } from '../src/shared/merge.js';

describe('deepMerge (SPEC rule 11 layering)', () => {
  it('merges objects deeply, later layers winning', () => {
    const merged = deepMerge<Record<string, unknown>>(
      { startToCloseTimeout: '5m', retry: { maximumAttempts: 3, initialInterval: '1s' } },
      { retry: { maximumAttempts: 1 } },
    );
    expect(merged).toEqual({ startToCloseTimeout: '5m', retry: { maximumAttempts: 1, initialInterval: '1s' } });
  });

  it('replaces arrays instead of concatenating them', () => {
    const merged = deepMerge<{ retry: { nonRetryableErrorTypes: string[] } }>(
      { retry: { nonRetryableErrorTypes: ['A', 'B'] } },
      { retry: { nonRetryableErrorTypes: ['C'] } },
    );
    expect(merged.retry.nonRetryableErrorTypes).toEqual(['C']);
  });

  it('ignores undefined values and missing layers, and never mutates its inputs', () => {
    const base = { retry: { maximumAttempts: 3 } };
    const merged = deepMerge<Record<string, unknown>>(base, undefined, { retry: { maximumAttempts: undefined } }, null);
    expect(merged).toEqual({ retry: { maximumAttempts: 3 } });
    (merged.retry as { maximumAttempts: number }).maximumAttempts = 9;
    expect(base.retry.maximumAttempts).toBe(3);
  });
});
