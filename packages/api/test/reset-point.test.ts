import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/errors.js';
import { temporal } from '../src/temporal/proto.js';
import { resetPoint } from '../src/temporal/reset.js';

const EventType = temporal.api.enums.v1.EventType;

// A run's history as the engine gives it, reduced to what the reset point is decided by.
const scheduled = (eventId: number, type: string) => ({
  eventId,
  eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
  activityTaskScheduledEventAttributes: { activityType: { name: type } },
});
const completed = (eventId: number, scheduledEventId: number) => ({
  eventId,
  eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
  activityTaskCompletedEventAttributes: { scheduledEventId },
});
const taskCompleted = (eventId: number) => ({ eventId, eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED });

const refusal = (events: object[], step: string): ApiError => {
  try {
    resetPoint(events, 'wf', step, 'id-1');
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('no refusal');
};

describe('resetPoint', () => {
  it("is the workflow task completed right after the step's last completion", () => {
    expect(
      resetPoint(
        [taskCompleted(4), scheduled(5, 'wf#a'), completed(7, 5), taskCompleted(10), scheduled(11, 'wf#a'), completed(13, 11), taskCompleted(16)],
        'wf',
        'a',
        'id-1',
      ),
    ).toBe(16);
  });

  it('refuses a step never scheduled (404), never completed, or completed with no workflow task after it (409), each saying which', () => {
    expect(refusal([scheduled(5, 'wf#a')], 'b')).toMatchObject({ type: 'StepNotFoundError', status: 404, message: 'No step "b" was scheduled in this run' });
    expect(refusal([scheduled(5, 'wf#a'), taskCompleted(8)], 'a')).toMatchObject({
      type: 'StepNotCompletedError',
      status: 409,
      message: 'Step "a" has not completed in this run',
      workflowId: 'id-1',
    });
    const closedFirst = refusal([scheduled(5, 'wf#a'), completed(7, 5)], 'a');
    expect(closedFirst).toMatchObject({ type: 'StepNotCompletedError', status: 409 });
    expect(closedFirst.message).toMatch(/^Step "a" completed, but no workflow task completed after it in this run/);
  });
});
