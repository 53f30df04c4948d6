import { describe, expect, it } from 'vitest';
import { eventToJson, renderEvent } from '../src/temporal/events.js';
import { temporal } from '../src/temporal/proto.js';
import { loadApiConfig } from '../src/config.js';

const payload = { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"a":1}') };

describe('history event JSON', () => {
  const HistoryEvent = temporal.api.history.v1.HistoryEvent as any;
  const event = HistoryEvent.fromObject({
    eventId: 1,
    eventTime: { seconds: 1_700_000_000, nanos: 5_000_000 },
    eventType: temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
    workflowExecutionStartedEventAttributes: {
      workflowType: { name: 'echo' },
      input: { payloads: [payload] },
      workflowTaskTimeout: { seconds: 10 },
    },
  });

  it("keeps Temporal's shape: numeric eventId, ISO eventTime, enum name, durations", () => {
    const json = eventToJson(event, false);
    expect(json.eventId).toBe(1);
    expect(json.eventTime).toBe('2023-11-14T22:13:20.005Z');
    expect(json.eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_STARTED');
    const attrs = json.workflowExecutionStartedEventAttributes as any;
    expect(attrs.workflowTaskTimeout).toBe('10s');
    expect(attrs.input.payloads[0]).toEqual({
      metadata: { encoding: Buffer.from('json/plain').toString('base64') },
      data: Buffer.from('{"a":1}').toString('base64'),
    });
  });

  it('adds eventTypeName (no EVENT_TYPE_ prefix) right after eventType, and stepName only when given', () => {
    const json = eventToJson(event, false);
    expect(Object.keys(json).slice(0, 4)).toEqual(['eventId', 'eventTime', 'eventType', 'eventTypeName']);
    expect(json.eventTypeName).toBe('WORKFLOW_EXECUTION_STARTED');
    expect(json).not.toHaveProperty('stepName');
    const named = eventToJson(event, false, 'fetchOrder');
    expect(Object.keys(named).slice(2, 5)).toEqual(['eventType', 'eventTypeName', 'stepName']);
    expect(named.stepName).toBe('fetchOrder');
  });

  it('decodes payloads with the default converter when asked', () => {
    const attrs = eventToJson(event, true).workflowExecutionStartedEventAttributes as any;
    expect(attrs.input.payloads).toEqual([{ a: 1 }]);
  });

  it('renders an event to the JSON text of eventToJson once per payload mode and step name, then reuses it', () => {
    const fresh = HistoryEvent.fromObject({ ...HistoryEvent.toObject(event), eventId: 7 });
    const plain = renderEvent(fresh, false);
    expect(plain.eventId).toBe(7);
    expect(plain.json).toBe(JSON.stringify(eventToJson(fresh, false)));
    // The same event object again: the very same text (not rendered anew).
    expect(renderEvent(fresh, false).json).toBe(plain.json);
    const decoded = renderEvent(fresh, true);
    expect(JSON.parse(decoded.json).workflowExecutionStartedEventAttributes.input.payloads).toEqual([{ a: 1 }]);
    expect(renderEvent(fresh, false).json).toBe(plain.json);
    // Another step name is another render.
    const named = JSON.parse(renderEvent(fresh, false, 'fetchOrder').json);
    expect(named.stepName).toBe('fetchOrder');
    expect(JSON.parse(renderEvent(fresh, false).json)).not.toHaveProperty('stepName');
  });
});

describe('loadApiConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadApiConfig({});
    expect(c).toMatchObject({
      port: 3001,
      host: '127.0.0.1',
      defaultCatalog: 'main',
      runTimeoutMs: 30_000,
      historyMaxWaitMs: 15_000,
      engineCheck: { intervalMs: 5_000, failures: 3 },
      logLevel: 'info',
    });
    expect(c.temporal.namespace).toBe('default');
  });

  it('reads the environment and rejects malformed numbers with one line', () => {
    const c = loadApiConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      SKEIN_CATALOG: 'x',
      SKEIN_HISTORY_MAX_WAIT_MS: '2000',
      TEMPORAL_ADDRESS: 'h:1',
      TEMPORAL_NAMESPACE: 'ns',
    });
    expect(c).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      defaultCatalog: 'x',
      historyMaxWaitMs: 2000,
      temporal: { namespace: 'ns', connection: { address: 'h:1' } },
    });
    expect(() => loadApiConfig({ PORT: 'abc' })).toThrow(/^PORT must be an integer/);
    expect(() => loadApiConfig({ SKEIN_ENGINE_CHECK_FAILURES: '0' })).toThrow(/^SKEIN_ENGINE_CHECK_FAILURES must be an integer between 1 and 1000, got "0"$/);
    // The contract's names of the engine health check.
    expect(loadApiConfig({ SKEIN_READY_FAILURES: '3', SKEIN_READY_INTERVAL_MS: '2000' })).toMatchObject({ engineCheck: { failures: 3, intervalMs: 2000 } });
    expect(() => loadApiConfig({ SKEIN_LOG_LEVEL: 'loud' })).toThrow(/^SKEIN_LOG_LEVEL must be one of/);
    expect(loadApiConfig({ SKEIN_LOG_LEVEL: 'debug', LOG_LEVEL: 'error' }).logLevel).toBe('debug');
  });
});
