import { describe, expect, it } from 'vitest';
import { DEFAULT_ACTIVITY_OPTIONS, effectiveActivityOptions, workflowLevelOptions } from '../src/index.js';

/** SPEC rule 11, one layer at a time: defaults < inherited < definition < invocation < the activity's own. */
describe('effectiveActivityOptions', () => {
  it('is the documented defaults when no layer sets anything', () => {
    expect(effectiveActivityOptions({})).toEqual(DEFAULT_ACTIVITY_OPTIONS);
    expect(DEFAULT_ACTIVITY_OPTIONS).toEqual({
      startToCloseTimeout: '5 minutes',
      retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 3 },
    });
  });

  it('inherited options override the defaults', () => {
    expect(effectiveActivityOptions({ inherited: { startToCloseTimeout: '1m' } }).startToCloseTimeout).toBe('1m');
  });

  it('definition options override inherited ones', () => {
    const o = effectiveActivityOptions({ inherited: { startToCloseTimeout: '1m' }, definition: { startToCloseTimeout: '2m' } });
    expect(o.startToCloseTimeout).toBe('2m');
  });

  it('invocation options override definition and inherited ones', () => {
    const o = effectiveActivityOptions({
      inherited: { startToCloseTimeout: '1m' },
      definition: { startToCloseTimeout: '2m' },
      invocation: { startToCloseTimeout: '3m' },
    });
    expect(o.startToCloseTimeout).toBe('3m');
  });

  it("takes an activity id from the activity's own options only", () => {
    const layers = { inherited: { activityId: 'a' }, definition: { activityId: 'b' }, invocation: { activityId: 'c' } };
    expect(effectiveActivityOptions(layers)).not.toHaveProperty('activityId');
    expect(effectiveActivityOptions({ ...layers, activity: { activityId: 'own' } }).activityId).toBe('own');
  });

  it("the activity's own options are the most specific", () => {
    const o = effectiveActivityOptions({
      inherited: { startToCloseTimeout: '1m' },
      definition: { startToCloseTimeout: '2m' },
      invocation: { startToCloseTimeout: '3m' },
      activity: { startToCloseTimeout: '4m' },
    });
    expect(o.startToCloseTimeout).toBe('4m');
  });

  it('merges retry policies field by field and replaces arrays', () => {
    const o = effectiveActivityOptions({
      definition: { retry: { maximumAttempts: 7, nonRetryableErrorTypes: ['A', 'B'] } },
      activity: { retry: { initialInterval: '5s', nonRetryableErrorTypes: ['C'] } },
    });
    expect(o.retry).toEqual({ initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 7, nonRetryableErrorTypes: ['C'] });
  });
});

describe('workflowLevelOptions (what a workflow passes to its children)', () => {
  it('is inherited < definition < invocation, without defaults or activity options', () => {
    expect(
      workflowLevelOptions({
        inherited: { heartbeatTimeout: '1s', startToCloseTimeout: '1m' },
        definition: { startToCloseTimeout: '2m' },
        invocation: { retry: { maximumAttempts: 2 } },
      }),
    ).toEqual({ heartbeatTimeout: '1s', startToCloseTimeout: '2m', retry: { maximumAttempts: 2 } });
  });
});
