import { HTTP_REQUEST_ACTIVITY_TYPE, WEBHOOK_REQUEST_SUMMARY } from '@skein/core';
import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { assembleTrace, eventNodes, type AssemblySources } from '../src/traces/assemble.js';

const payloads = (v: unknown) => ({ payloads: [defaultPayloadConverter.toPayload(v)] });
const at = (ms: number) => ({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });

/**
 * A run that sends a plain request, posts a webhook request and waits for `resume`, calls a step whose definition
 * sets `disableTrace`, and a step that added `Tracing` events.
 */
const history = [
  { eventId: 1, eventTime: at(1000), workflowExecutionStartedEventAttributes: { workflowType: { name: 'hook' }, input: payloads(null) } },
  {
    eventId: 5,
    eventTime: at(1010),
    activityTaskScheduledEventAttributes: { activityId: '1', activityType: { name: HTTP_REQUEST_ACTIVITY_TYPE }, input: payloads({ url: 'u' }) },
  },
  { eventId: 6, eventTime: at(1020), activityTaskStartedEventAttributes: { scheduledEventId: 5, attempt: 1 } },
  { eventId: 7, eventTime: at(1030), activityTaskCompletedEventAttributes: { scheduledEventId: 5, result: payloads({ status: 200 }) } },
  {
    eventId: 11,
    eventTime: at(1100),
    userMetadata: { summary: defaultPayloadConverter.toPayload(WEBHOOK_REQUEST_SUMMARY) },
    activityTaskScheduledEventAttributes: {
      activityId: '2',
      activityType: { name: HTTP_REQUEST_ACTIVITY_TYPE },
      input: payloads({ url: 'u', method: 'POST', payload: { workflowId: 'w', payload: { q: 1 } } }),
    },
  },
  { eventId: 12, eventTime: at(1110), activityTaskStartedEventAttributes: { scheduledEventId: 11, attempt: 1 } },
  { eventId: 13, eventTime: at(1200), activityTaskCompletedEventAttributes: { scheduledEventId: 11, result: payloads({ status: 202 }) } },
  // A signal of another name does not end the wait.
  { eventId: 16, eventTime: at(1300), workflowExecutionSignaledEventAttributes: { signalName: 'other', input: payloads({ no: 1 }) } },
  { eventId: 17, eventTime: at(1500), workflowExecutionSignaledEventAttributes: { signalName: 'resume', input: payloads({ value: 42, apiKey: 'k' }) } },
  { eventId: 21, eventTime: at(1600), activityTaskScheduledEventAttributes: { activityId: '3', activityType: { name: 'hook#quiet' }, input: payloads(1) } },
  { eventId: 22, eventTime: at(1610), activityTaskStartedEventAttributes: { scheduledEventId: 21, attempt: 1 } },
  { eventId: 23, eventTime: at(1620), activityTaskCompletedEventAttributes: { scheduledEventId: 21, result: payloads(2) } },
  { eventId: 25, eventTime: at(1700), activityTaskScheduledEventAttributes: { activityId: '4', activityType: { name: 'hook#traced' }, input: payloads(1) } },
  { eventId: 26, eventTime: at(1710), activityTaskStartedEventAttributes: { scheduledEventId: 25, attempt: 1 } },
  { eventId: 27, eventTime: at(1790), activityTaskCompletedEventAttributes: { scheduledEventId: 25, result: payloads(2) } },
  { eventId: 30, eventTime: at(1800), workflowExecutionCompletedEventAttributes: { result: payloads({ value: 42 }) } },
];

const sources: AssemblySources = {
  history: async () => ({ events: history }) as never,
  activity: (type) =>
    type === HTTP_REQUEST_ACTIVITY_TYPE
      ? { kind: 'internal_step', name: 'sendHttpRequest' }
      : type === 'hook#quiet'
        ? { kind: 'step', name: 'quiet', untraced: true }
        : { kind: 'step', name: type.split('#')[1]! },
  retries: () => undefined,
  events: (key) =>
    key === 'w:r:4'
      ? [
          { action: 'start', id: 'e1', at: 1720, kind: 'db', name: 'query', details: { sql: 'select 1', password: 'p' } },
          { action: 'attribute', id: 'e1', at: 1730, details: { type: 'llm:usage', total: 0.1 } },
          { action: 'end', id: 'e1', at: 1740, details: { rows: 1 } },
          { action: 'start', id: 'e2', at: 1750, kind: 'http', name: 'call' },
          { action: 'error', id: 'e2', at: 1760, details: { name: 'RangeError', message: 'far' } },
          { action: 'end', id: 'never-started', at: 1770 },
        ]
      : undefined,
};

describe('trace assembly of the authoring surface', () => {
  it('a webhook request opens a webhook node that the resume signal ends with its payload; a disableTrace step is left out; Tracing events are children of their step', async () => {
    const tree = await assembleTrace({ workflowId: 'w', runId: 'r' }, sources);
    expect(tree.children.map((n) => `${n.kind}:${n.name}:${n.status}`)).toEqual([
      'internal_step:sendHttpRequest:completed',
      'internal_step:sendHttpRequest:completed',
      'webhook:resume:completed',
      'step:traced:completed',
    ]);
    expect(tree.children[2]).toMatchObject({ startedAt: 1200, endedAt: 1500, durationMs: 300, input: { q: 1 }, output: { value: 42, apiKey: '[REDACTED]' } });
    expect(tree.children[3]!.children).toEqual([
      expect.objectContaining({
        kind: 'db',
        name: 'query',
        eventId: 'e1',
        status: 'completed',
        input: { sql: 'select 1', password: '[REDACTED]' },
        output: { rows: 1 },
        attributes: [{ type: 'llm:usage', total: 0.1 }],
        durationMs: 20,
      }),
      expect.objectContaining({ kind: 'http', name: 'call', status: 'failed', error: { name: 'RangeError', message: 'far' } }),
    ]);
  });

  it('a webhook still waiting stays running', async () => {
    const open = history.filter((e) => e.eventId < 16);
    const tree = await assembleTrace({ workflowId: 'w', runId: 'r' }, { ...sources, history: async () => ({ events: open }) as never });
    expect(tree.children.at(-1)).toMatchObject({ kind: 'webhook', status: 'running', endedAt: null });
  });

  it("a service that answers before its request's activity reports back ends the wait at once, with that answer", async () => {
    // The engine records the `resume` signal before the webhook request's completion: the service answered first.
    const early = history
      .filter((e) => e.eventId !== 17)
      .flatMap((e) =>
        e.eventId === 13
          ? [
              { ...history.find((h) => h.eventId === 17)!, eventId: 13, eventTime: at(1150) },
              { ...e, eventId: 14 },
            ]
          : [e],
      );
    const tree = await assembleTrace({ workflowId: 'w', runId: 'r' }, { ...sources, history: async () => ({ events: early }) as never });
    expect(tree.children[2]).toMatchObject({ kind: 'webhook', status: 'completed', startedAt: 1200, endedAt: 1200, durationMs: 0, output: { value: 42 } });
  });

  it('a resume signal with no webhook request in flight ends no later wait', async () => {
    const stray = { eventId: 2, eventTime: at(1005), workflowExecutionSignaledEventAttributes: { signalName: 'resume', input: payloads({ stray: true }) } };
    const open = [history[0]!, stray, ...history.slice(1).filter((e) => e.eventId < 16)];
    const tree = await assembleTrace({ workflowId: 'w', runId: 'r' }, { ...sources, history: async () => ({ events: open }) as never });
    expect(tree.children.at(-1)).toMatchObject({ kind: 'webhook', status: 'running', endedAt: null });
  });

  it('eventNodes ignores events that were never started', () => {
    expect(eventNodes([{ action: 'end', id: 'x', at: 1 }])).toEqual([]);
  });
});
