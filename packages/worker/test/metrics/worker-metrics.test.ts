/** `WorkerMetrics.startup`: what one start records, through a meter that keeps what it is given. */
import { describe, expect, it } from 'vitest';
import type { MetricMeter } from '@temporalio/common';
import { WorkerMetrics } from '../../src/metrics/worker-metrics.js';

/** A meter whose instruments log `name value labels`. */
function recordingMeter(log: string[]): MetricMeter {
  const instrument = (name: string) => ({
    name,
    record: (value: number, labels: Record<string, unknown> = {}) => void log.push(`${name} ${value} ${JSON.stringify(labels)}`),
    add: (value: number, labels: Record<string, unknown> = {}) => void log.push(`${name} ${value} ${JSON.stringify(labels)}`),
    withTags: () => instrument(name),
  });
  return {
    createCounter: (name: string) => instrument(name),
    createHistogram: (name: string) => instrument(name),
    createGauge: (name: string) => instrument(name),
    withTags: () => recordingMeter(log),
  } as unknown as MetricMeter;
}

describe('WorkerMetrics.startup', () => {
  it("records the validation's duration and the bundle cache's answer of a start from a project", () => {
    const log: string[] = [];
    new WorkerMetrics(recordingMeter(log)).startup({ validateMs: 1500, validationCache: 'miss', bundleCache: 'hit' });
    expect(log).toEqual(['skein_worker_validation_duration_seconds 1.5 {"cache":"miss"}', 'skein_worker_bundle_cache_total 1 {"result":"hit"}']);
  });

  it('records no validation for a start from a build, which validates nothing', () => {
    const log: string[] = [];
    new WorkerMetrics(recordingMeter(log)).startup({ validateMs: 3, validationCache: 'off', bundleCache: 'build' });
    expect(log).toEqual([]);
  });
});
