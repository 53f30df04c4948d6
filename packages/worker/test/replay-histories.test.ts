import { describe, expect, it } from 'vitest';
import { HistoryFileError, historyFromText, replayHistoryOf } from '../src/deploy/replay/history-files.js';
import { explanation, mismatchedEvent } from '../src/deploy/replay/replay.js';

const payload = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('{"request":"a"}').toString('base64') };

/** Three events in the JSON form the API (and so `skein workflow history --json`) writes them. */
const events = [
  {
    eventId: 1,
    eventTime: '2026-01-01T00:00:00.250Z',
    eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED',
    eventTypeName: 'WORKFLOW_EXECUTION_STARTED',
    taskId: 1048576,
    workflowExecutionStartedEventAttributes: {
      workflowType: { name: 'approval' },
      taskQueue: { name: 'main', kind: 'TASK_QUEUE_KIND_NORMAL' },
      input: { payloads: [payload] },
      workflowTaskTimeout: '10s',
      originalExecutionRunId: 'run-1',
    },
  },
  {
    eventId: 2,
    eventTime: '2026-01-01T00:00:00.300Z',
    eventType: 'EVENT_TYPE_WORKFLOW_TASK_SCHEDULED',
    workflowTaskScheduledEventAttributes: { startToCloseTimeout: '10s', attempt: 1 },
  },
  {
    eventId: 3,
    eventType: 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED',
    stepName: 'record',
    activityTaskScheduledEventAttributes: { activityId: '1', activityType: { name: 'approval#record' } },
  },
];

describe('historyFromText', () => {
  it('reads what "skein workflow history --json" prints, with its workflow id, run id and type', () => {
    const h = historyFromText('a.json', JSON.stringify({ workflow: { workflowId: 'wf-1', runId: 'run-1', workflowType: 'approval' }, runId: 'run-1', events }));
    expect({ workflowId: h.workflowId, runId: h.runId, workflowType: h.workflowType, source: h.source }).toEqual({
      workflowId: 'wf-1',
      runId: 'run-1',
      workflowType: 'approval',
      source: 'a.json',
    });
    expect(h.history.events).toHaveLength(3);
    const started = h.history.events![0]!;
    expect(Number(started.eventId)).toBe(1);
    // Timestamps and durations become protobuf values (the replayer takes workflow time from them).
    expect(started.eventTime).toMatchObject({ seconds: 1767225600, nanos: 250_000_000 });
    expect(Buffer.from(started.workflowExecutionStartedEventAttributes!.input!.payloads![0]!.data!).toString()).toBe('{"request":"a"}');
  });

  it("reads Temporal's own history JSON, naming the run after the file and its first event", () => {
    const temporalCli = events.map((e) => ({ ...e, eventId: String(e.eventId) }));
    const h = historyFromText('/tmp/wf-2.json', JSON.stringify({ events: temporalCli }));
    expect([h.workflowId, h.runId, h.workflowType]).toEqual(['wf-2', 'run-1', 'approval']);
  });

  it.each([
    ['not json', 'not JSON'],
    ['{"hello":"world"}', 'not a workflow history'],
    ['{"events":[]}', 'not a workflow history'],
    [JSON.stringify({ events: events.slice(1) }), 'not a whole workflow history: its first event is EVENT_TYPE_WORKFLOW_TASK_SCHEDULED'],
    [
      JSON.stringify({ events: [{ ...events[0], workflowExecutionStartedEventAttributes: { input: { payloads: [{ request: 'a' }] } } }] }),
      'holds decoded payloads',
    ],
    [JSON.stringify({ events: [{ ...events[0], eventTime: 'yesterday' }] }), 'not a Temporal history'],
  ])('refuses %s, naming the file', (text, reason) => {
    const err = (() => {
      try {
        historyFromText('bad.json', text);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(HistoryFileError);
    expect((err as Error).message).toMatch(new RegExp(`^bad\\.json: ${reason}`));
  });
});

describe('replayHistoryOf', () => {
  it('names a protobuf history by its first event', () => {
    const { history } = historyFromText('a.json', JSON.stringify({ events }));
    expect(replayHistoryOf('wf-3', history)).toMatchObject({ workflowId: 'wf-3', runId: 'run-1', workflowType: 'approval', source: 'memory' });
    expect(replayHistoryOf('wf-4', { events: [] }, 'test')).toMatchObject({ runId: '', workflowType: '', source: 'test' });
  });
});

describe('mismatchedEvent', () => {
  const { history } = historyFromText('a.json', JSON.stringify({ events }));

  it('finds the event by the id, the activity id or the activity type the explanation names', () => {
    expect(mismatchedEvent('Nondeterminism error: X does not handle HistoryEvent(id: 2, WorkflowTaskScheduled)', history)).toEqual({
      eventId: 2,
      eventType: 'WORKFLOW_TASK_SCHEDULED',
    });
    expect(mismatchedEvent("Activity id of scheduled event '1' does not match activity id of activity command '2'", history)).toEqual({
      eventId: 3,
      eventType: 'ACTIVITY_TASK_SCHEDULED',
    });
    expect(
      mismatchedEvent("Activity type of scheduled event 'approval#record' does not match activity type of activity command 'approval#notify'", history),
    ).toEqual({
      eventId: 3,
      eventType: 'ACTIVITY_TASK_SCHEDULED',
    });
    expect(mismatchedEvent('something else went wrong', history)).toBeNull();
  });

  it('finds the marker of the patched() id a replay no longer asks for', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const marker = (eventId: number, id: string) => ({
      eventId,
      eventType: 'EVENT_TYPE_MARKER_RECORDED',
      markerRecordedEventAttributes: {
        markerName: 'core_patch',
        details: { patch_data: { payloads: [{ metadata: { encoding: b64('json/plain') }, data: b64(JSON.stringify({ id, deprecated: false })) }] } },
      },
    });
    const patched = historyFromText('p.json', JSON.stringify({ events: [...events, marker(4, 'other-change'), marker(5, 'extra-bill')] })).history;
    const message =
      '[TMPRL1100] Nondeterminism error: Non-deprecated patch marker encountered for change extra-bill, but there is no corresponding change command!';
    expect(mismatchedEvent(message, patched)).toEqual({ eventId: 5, eventType: 'MARKER_RECORDED' });
  });

  it("keeps the inner message of Temporal's replay error, on one line", () => {
    const text =
      'Replay failed with a nondeterminism error. Details: Workflow activation completion failed: Failure { failure: Some(Failure { message: "[TMPRL1100] Nondeterminism error: Activity type of scheduled event \'a\' does not match \\"b\\"", source: "" }) }';
    expect(explanation(text)).toBe('[TMPRL1100] Nondeterminism error: Activity type of scheduled event \'a\' does not match "b"');
    expect(explanation('plain\n  text')).toBe('plain text');
  });
});
