import { describe, expect, it } from 'vitest';
import { isFailedStatus } from '../src/client/common.js';
import { formatDuration } from '../src/client/output.js';
import { eventDetail, eventLine, eventTypeName } from '../src/commands/workflow/history.js';
import { parseStatus } from '../src/commands/workflow/inspect.js';
import { duration } from '../src/commands/workflow/run.js';
import { drawTree } from '../src/commands/workflow/trace.js';

// Standard output is not a TTY under vitest, so nothing is coloured.

describe('--status', () => {
  it('accepts CONTRACT statuses and the old names continued and cancelled', () => {
    expect(parseStatus('continued')).toBe('continued_as_new');
    expect(parseStatus('continued_as_new')).toBe('continued_as_new');
    expect(parseStatus('Completed')).toBe('completed');
    expect(parseStatus('cancelled')).toBe('canceled');
    expect(() => parseStatus('done')).toThrow(
      'must be one of running, completed, failed, canceled, terminated, timed_out, continued_as_new (or continued, cancelled)',
    );
  });
});

describe('--timeout', () => {
  it('reads Temporal-style durations and plain milliseconds within 250 ms to 1 h', () => {
    expect(duration('30s')).toBe(30_000);
    expect(duration('5m')).toBe(300_000);
    expect(duration('1h')).toBe(3_600_000);
    expect(duration('1500')).toBe(1500);
    expect(() => duration('soon')).toThrow('must be a duration such as 30s, 5m or 1h');
    expect(() => duration('100ms')).toThrow('must be from 250ms to 1h');
    expect(() => duration('2h')).toThrow('must be from 250ms to 1h');
  });
});

describe('exit status of a closed run', () => {
  it('is 1 for failed, canceled, terminated and timed out runs only', () => {
    expect(['failed', 'canceled', 'cancelled', 'terminated', 'timed_out'].every(isFailedStatus)).toBe(true);
    expect(['completed', 'continued_as_new', 'running'].some(isFailedStatus)).toBe(false);
  });
});

describe('formatDuration', () => {
  it('picks a unit people read at a glance', () => {
    expect([formatDuration(null), formatDuration(850), formatDuration(1234), formatDuration(185_000), formatDuration(7_260_000)]).toEqual([
      '-',
      '850 ms',
      '1.2 s',
      '3 m 05 s',
      '2 h 01 m',
    ]);
  });
});

describe('history lines', () => {
  const scheduled = {
    eventId: 6,
    eventTime: '2026-11-22T20:54:13.380Z',
    eventType: 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED',
    activityTaskScheduledEventAttributes: { activityType: { name: 'summarize#countWords' } },
  };

  it('name the event without its prefix and show the step, signal or failure', () => {
    expect(eventTypeName(scheduled)).toBe('ACTIVITY_TASK_SCHEDULED');
    expect(eventTypeName({ ...scheduled, eventTypeName: 'SERVER_NAME' } as never)).toBe('SERVER_NAME');
    expect(eventDetail(scheduled)).toBe('summarize#countWords');
    expect(eventDetail({ ...scheduled, stepName: 'countWords' } as never)).toBe('countWords');
    expect(
      eventDetail({ eventId: 9, eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED', workflowExecutionSignaledEventAttributes: { signalName: 'ping' } }),
    ).toBe('ping');
    expect(
      eventDetail({ eventId: 9, eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_FAILED', workflowExecutionFailedEventAttributes: { failure: { message: 'boom' } } }),
    ).toBe('boom');
    expect(eventDetail({ eventId: 2, eventType: 'EVENT_TYPE_WORKFLOW_TASK_SCHEDULED' })).toBe('');
  });

  it('align id, local time, type and detail in columns', () => {
    const line = eventLine(scheduled);
    expect(line).toMatch(/^ {4}6 {2}\d\d:\d\d:\d\d\.380 {2}ACTIVITY_TASK_SCHEDULED {19}summarize#countWords\n$/);
    expect(eventLine({ eventId: 12345, eventType: 'EVENT_TYPE_WORKFLOW_TASK_STARTED' })).toBe(`12345  ${' '.repeat(12)}  WORKFLOW_TASK_STARTED\n`);
  });
});

describe('drawTree', () => {
  it('draws nested children under branches with marks, kinds, durations, attempts and failures', () => {
    const tree = {
      kind: 'workflow',
      name: 'onboard',
      status: 'failed',
      durationMs: 2900,
      children: [
        { kind: 'step', name: 'normalizeEmail', status: 'completed', durationMs: 3, children: [] },
        {
          kind: 'child_workflow',
          name: 'welcome',
          status: 'completed',
          durationMs: 746,
          children: [
            { kind: 'step', name: 'titleCase', status: 'completed', durationMs: 0, children: [] },
            { kind: 'step', name: 'composeWelcome', status: 'completed', durationMs: 1, attempt: 3, children: [] },
          ],
        },
        { kind: 'evaluator', name: 'scoreLead', status: 'failed', durationMs: 12, error: { name: 'FatalError', message: 'no domain' }, children: [] },
      ],
    };
    expect(drawTree(tree)).toBe(
      [
        '✖ onboard  workflow  2.9 s',
        '├─ ✔ normalizeEmail  step  3 ms',
        '├─ ✔ welcome  child workflow  746 ms',
        '│  ├─ ✔ titleCase  step  0 ms',
        '│  └─ ✔ composeWelcome  step  1 ms  attempt 3',
        '└─ ✖ scoreLead  evaluator  12 ms  FatalError: no domain',
        '',
      ].join('\n'),
    );
  });
});
