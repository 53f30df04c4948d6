import { describe, expect, it } from 'vitest';
import type { Client } from '@temporalio/client';
import { stepNameOf, stepNames } from '../src/temporal/step-names.js';
import { temporal } from '../src/temporal/proto.js';

const E = temporal.api.enums.v1.EventType;
const HistoryEvent = temporal.api.history.v1.HistoryEvent as any;

/** A scheduled activity `<wf>#<name>` at `id`. */
const scheduled = (id: number, type: string) =>
  HistoryEvent.fromObject({
    eventId: id,
    eventType: E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
    activityTaskScheduledEventAttributes: { activityType: { name: type } },
  });
const started = (id: number, sid: number) =>
  HistoryEvent.fromObject({ eventId: id, eventType: E.EVENT_TYPE_ACTIVITY_TASK_STARTED, activityTaskStartedEventAttributes: { scheduledEventId: sid } });
const completed = (id: number, sid: number) =>
  HistoryEvent.fromObject({
    eventId: id,
    eventType: E.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
    activityTaskCompletedEventAttributes: { scheduledEventId: sid, startedEventId: sid + 1 },
  });
const failed = (id: number, sid: number) =>
  HistoryEvent.fromObject({ eventId: id, eventType: E.EVENT_TYPE_ACTIVITY_TASK_FAILED, activityTaskFailedEventAttributes: { scheduledEventId: sid } });
const timedOut = (id: number, sid: number) =>
  HistoryEvent.fromObject({ eventId: id, eventType: E.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, activityTaskTimedOutEventAttributes: { scheduledEventId: sid } });
const cancelRequested = (id: number, sid: number) =>
  HistoryEvent.fromObject({
    eventId: id,
    eventType: E.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
    activityTaskCancelRequestedEventAttributes: { scheduledEventId: sid },
  });
const canceled = (id: number, sid: number) =>
  HistoryEvent.fromObject({ eventId: id, eventType: E.EVENT_TYPE_ACTIVITY_TASK_CANCELED, activityTaskCanceledEventAttributes: { scheduledEventId: sid } });
const other = (id: number) =>
  HistoryEvent.fromObject({ eventId: id, eventType: E.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, workflowTaskCompletedEventAttributes: { scheduledEventId: 2 } });

/** A client whose every use fails the test: these cases must be answered without the engine. */
const noEngine = new Proxy(
  {},
  {
    get: (_, k) => {
      throw new Error(`engine used (${String(k)})`);
    },
  },
) as Client;

let run = 0;
const ids = () => ({ w: `wf-${++run}`, r: `0199a6b2-6d4c-7c3e-9f5a-1b2c3d4e${String(run).padStart(4, '0')}` });

describe('stepNameOf', () => {
  it('takes the name after # of <workflow>#<name>; a type without # is its own name', () => {
    expect(stepNameOf('order#fetchOrder')).toBe('fetchOrder');
    expect(stepNameOf('order#judge_quality')).toBe('judge_quality');
    expect(stepNameOf('plain')).toBe('plain');
  });
});

describe('stepNames', () => {
  it('names every kind of activity event of a page by its scheduled event, and nothing else', async () => {
    const { w, r } = ids();
    const page = [
      scheduled(5, 'wf#first'),
      started(6, 5),
      completed(7, 5),
      other(8),
      scheduled(9, 'wf#second'),
      failed(10, 9),
      scheduled(11, 'wf#third'),
      timedOut(12, 11),
      scheduled(13, 'wf#fourth'),
      cancelRequested(14, 13),
      canceled(15, 13),
    ];
    const names = await stepNames(noEngine, w, r, page);
    expect(Object.fromEntries(names)).toEqual({
      5: 'first',
      6: 'first',
      7: 'first',
      9: 'second',
      10: 'second',
      11: 'third',
      12: 'third',
      13: 'fourth',
      14: 'fourth',
      15: 'fourth',
    });
  });

  it('remembers scheduled events of earlier pages of the same run, and keeps runs apart', async () => {
    const a = ids();
    const b = ids();
    await stepNames(noEngine, a.w, a.r, [other(1), scheduled(2, 'wf#early')]);
    await stepNames(noEngine, b.w, b.r, [other(1), scheduled(2, 'wf#otherRun')]);
    const later = await stepNames(noEngine, a.w, a.r, [started(3, 2), completed(4, 2)]);
    expect(later.get(3)).toBe('early');
    expect(later.get(4)).toBe('early');
    // The run id is matched case-insensitively (run ids are UUIDs).
    const upper = await stepNames(noEngine, b.w, b.r.toUpperCase(), [completed(3, 2)]);
    expect(upper.get(3)).toBe('otherRun');
  });

  it('reads the run from its start when a page refers to a scheduled event it has never seen', async () => {
    const { w, r } = ids();
    const calls: unknown[] = [];
    const client = {
      options: { namespace: 'default' },
      withAbortSignal: (_s: AbortSignal, fn: () => Promise<unknown>) => fn(),
      workflowService: {
        getWorkflowExecutionHistory: async (req: unknown) => {
          calls.push(req);
          return { history: { events: [other(1), scheduled(2, 'wf#backfilled'), started(3, 2)] }, nextPageToken: new Uint8Array() };
        },
      },
    } as unknown as Client;
    const names = await stepNames(client, w, r, [completed(4, 2)]);
    expect(names.get(4)).toBe('backfilled');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ execution: { workflowId: w, runId: r } });
    // Learnt once: a second page needs no engine call.
    expect((await stepNames(noEngine, w, r, [completed(5, 2)])).get(5)).toBe('backfilled');
  });
});
