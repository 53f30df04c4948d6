import { ActivityFailure, ApplicationFailure, RetryState, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_ERRORS_KEY, withoutAttemptErrors } from '../src/shared/attempt-errors.js';

const carrier = { [ATTEMPT_ERRORS_KEY]: { errors: [], dropped: 0 } };

describe('withoutAttemptErrors', () => {
  it('removes the carrier from every level’s details and a timeout’s heartbeat details, keeping the rest', () => {
    const app = ApplicationFailure.create({ message: 'boom', type: 'Error', details: ['mine', carrier, 2] });
    // As the SDK decodes a timeout caused by the last failed attempt (its cause is set after construction).
    const timeout = Object.assign(new TimeoutFailure('timed out', carrier, TimeoutType.SCHEDULE_TO_CLOSE), { cause: app });
    const err = new ActivityFailure('activity failed', 'a', '1', RetryState.TIMEOUT, 'w', timeout);
    expect(withoutAttemptErrors(err)).toBe(err);
    expect(timeout.lastHeartbeatDetails).toBeUndefined();
    expect(app.details).toEqual(['mine', 2]);
  });

  it('leaves a failure without the carrier as it was', () => {
    const app = ApplicationFailure.create({ message: 'boom', details: [{ progress: 1 }] });
    const timeout = Object.assign(new TimeoutFailure('timed out', { progress: 2 }, TimeoutType.HEARTBEAT), { cause: app });
    withoutAttemptErrors(timeout);
    expect(app.details).toEqual([{ progress: 1 }]);
    expect(timeout.lastHeartbeatDetails).toEqual({ progress: 2 });
    expect(withoutAttemptErrors('not an error')).toBe('not an error');
  });
});
