import { describe, expect, it } from 'vitest';
import { failureView, MAX_CAUSE_DEPTH, resultError, runFailureFields } from '../src/temporal/failure.js';
import { resultStatus, runStatus } from '../src/temporal/status.js';

const stepFailure = {
  message: 'Activity task failed',
  stackTrace: 'at secret.js:1',
  activityFailureInfo: { activityType: { name: 'greet#format' }, activityId: '3' },
  cause: { message: 'kaput', stackTrace: 'at step.js:9', applicationFailureInfo: { type: 'RangeError', nonRetryable: true } },
};

describe('failure mapping (sanitized)', () => {
  it('run response fields: error is the step error, errorDetails names it, failure keeps the chain', () => {
    const out = runFailureFields(stepFailure);
    expect(out.error).toBe('kaput');
    expect(out.errorDetails).toEqual({ message: 'kaput', name: 'RangeError', retryable: false, activityId: '3', cause: null });
    expect(out.failure).toEqual({
      message: 'Activity task failed',
      type: 'ActivityFailure',
      retryable: false,
      cause: { message: 'kaput', type: 'RangeError', retryable: false, cause: null },
    });
    expect(JSON.stringify(out)).not.toContain('.js:');
  });

  it('result error carries the activity type', () => {
    expect(resultError(stepFailure)).toEqual({ activityType: 'greet#format', name: 'RangeError', message: 'kaput' });
    expect(resultError({ message: 'plain', applicationFailureInfo: { type: 'Error' } })).toEqual({ name: 'Error', message: 'plain' });
  });

  it('cuts the cause chain at 10 levels', () => {
    let f: Record<string, unknown> = { message: 'root', applicationFailureInfo: {} };
    for (let i = 0; i < 25; i++) f = { message: `level ${i}`, applicationFailureInfo: { type: 'Wrap' }, cause: f };
    let depth = 0;
    for (let v = failureView(f); v; v = v.cause) depth += 1;
    expect(depth).toBe(MAX_CAUSE_DEPTH);
  });

  it('maps engine statuses and the result spelling', () => {
    expect(runStatus('RUNNING')).toBe('running');
    expect(runStatus('CANCELLED')).toBe('canceled');
    expect(runStatus(6)).toBe('continued_as_new');
    expect(runStatus('TIMED_OUT')).toBe('timed_out');
    expect(resultStatus('canceled')).toBe('cancelled');
    expect(resultStatus('completed')).toBe('completed');
  });
});
